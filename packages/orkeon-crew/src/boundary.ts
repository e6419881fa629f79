import * as z from "zod";
import { isRecord } from "@orphus/internal";
import { INHERITED } from "./text.js";

// What every trust boundary of this package shares: zod schemas that read own properties alone, with bounds checked
// before any element is looked at, and one way of turning the first issue into a message (field, expected, got).

/**
 * A copy of the record's own fields named in `keys`, on a null prototype, so the schema after it never reads a
 * prototype (zod reads inherited properties). A field found only on the prototype chain becomes {@link INHERITED},
 * which no schema accepts: a field this package cannot trust is refused, never silently dropped.
 */
function ownFields(value: unknown, keys: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of keys) {
    if (Object.hasOwn(value, key)) copy[key] = value[key];
    else if (key in value) copy[key] = INHERITED;
  }
  return copy;
}

/** An object schema over own properties alone (see {@link ownFields}); unknown keys are dropped. */
export function ownObject<Shape extends z.ZodRawShape>(shape: Shape, error: string) {
  const keys = Object.keys(shape);
  return z.preprocess((value) => ownFields(value, keys), z.object(shape, { error }));
}

/** An array of at most `max` items, its length checked before any item is parsed. */
export function boundedArray<Item extends z.ZodType>(item: Item, max: number, error: string) {
  return z
    .custom<unknown[]>((value) => Array.isArray(value) && value.length <= max, { error })
    .pipe(z.array(item, { error }));
}

/** Why a value failed its schema: the first issue's field, the form it expected, and what arrived there. */
export interface BoundaryFailure {
  readonly field: string;
  readonly expected: string;
  readonly got: unknown;
  readonly cause: z.ZodError;
}

/** Parses `value` with `schema`, or says which field failed, what it expected and what it got (never throws). */
export function parseAtBoundary<T>(
  schema: z.ZodType<T>,
  value: unknown,
  whole: string,
): { readonly ok: true; readonly data: T } | { readonly ok: false; readonly failure: BoundaryFailure } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  return {
    ok: false,
    failure: {
      field: path.length === 0 ? whole : path.map(String).join("."),
      expected: issue?.message ?? "a valid value",
      got: valueAt(value, path),
      cause: parsed.error,
    },
  };
}

/** The value at a path, read through own properties (an inherited one reads as {@link INHERITED}). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const key of path) {
    if (typeof node !== "object" || node === null) return undefined;
    if (typeof key === "symbol") return undefined;
    const name = String(key);
    if (Object.hasOwn(node, name)) node = (node as Readonly<Record<string, unknown>>)[name];
    else return name in node ? INHERITED : undefined;
  }
  return node;
}
