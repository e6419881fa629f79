import { isRecord } from "@orphus/internal";

/** A frame's request id when it is readable, else null (a refusal then says it answers no particular request). */
export function idOf(value: unknown): number | null {
  if (!isRecord(value)) return null;
  const id = value["id"];
  return typeof id === "number" && Number.isSafeInteger(id) && id >= 0 ? id : null;
}

/** A frame's op when it is a short string, else undefined. */
export function opOf(value: unknown): string | undefined {
  const op = isRecord(value) ? value["op"] : undefined;
  return typeof op === "string" && op.length <= 64 ? op : undefined;
}
