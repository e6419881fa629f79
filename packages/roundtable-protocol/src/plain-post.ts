import { IDEMPOTENCY_KEY_PATTERN, MAX_ROOM_NAME_LENGTH } from "./constants.js";
import type { RequestFor } from "./types.js";

type MutablePost = { -readonly [K in keyof RequestFor<"post">]: RequestFor<"post">[K] };

/**
 * A post request checked by hand: the broker's most frequent request, where the zod object schema costs about as
 * much as decoding the frame (bench/parse.bench.ts). Returns exactly what `postRequestSchema` gives a plainly valid
 * post, fields in the schema's order and unknown ones dropped; anything else gives undefined, so the schema decides
 * it and words the refusal, and the replies stay the same. `op` is the caller's to have checked.
 */
export function plainPostRequest(value: Readonly<Record<string, unknown>>): RequestFor<"post"> | undefined {
  const { id, room, body, headline, idempotencyKey } = value;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return undefined;
  if (typeof room !== "string" || room.length < 1 || room.length > MAX_ROOM_NAME_LENGTH) return undefined;
  if (typeof body !== "string") return undefined;
  const request: MutablePost = { id, op: "post", room, body };
  if (typeof headline === "string") request.headline = headline;
  else if (headline !== undefined || "headline" in value) return undefined;
  if (typeof idempotencyKey === "string" && IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
    request.idempotencyKey = idempotencyKey;
  } else if (idempotencyKey !== undefined || "idempotencyKey" in value) return undefined;
  return request;
}
