import {
  BodyTooLargeError,
  HeadlineTooLargeError,
  PageLimitInvalidError,
  PostKeyInvalidError,
  RoleNameInvalidError,
  RoomNameInvalidError,
  SeqInvalidError,
} from "./errors.js";
import { MAX_POST_KEY_BYTES } from "./limits.js";
import { utf8BytesOver } from "./utf8.js";

// The checks every holder of room state applies before it changes anything, so a refusal changes nothing whichever
// store holds the room. One copy here: Room and every RoomStore call these.

/** A non-negative safe integer: the form of every seq and limit. */
export function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/** Throws RoomNameInvalidError unless `name` is a string matching `pattern` (which carries no `g` or `y` flag). */
export function checkRoomName(name: unknown, pattern: RegExp): asserts name is string {
  if (typeof name !== "string" || !pattern.test(name)) throw new RoomNameInvalidError(name, pattern);
}

/** Throws RoleNameInvalidError unless `role` is a non-empty string of at most `maxBytes` UTF-8 bytes. */
export function checkRoleName(role: unknown, maxBytes: number): asserts role is string {
  if (typeof role !== "string" || role.length === 0 || utf8BytesOver(role, maxBytes) !== undefined) {
    throw new RoleNameInvalidError(role, maxBytes);
  }
}

/** Throws BodyTooLargeError or HeadlineTooLargeError when a part of a message is over its UTF-8 byte limit. */
export function checkMessageSize(
  room: string,
  body: string,
  headline: string | undefined,
  limits: { readonly maxBodyBytes: number; readonly maxHeadlineBytes: number },
): void {
  const bodyBytes = utf8BytesOver(body, limits.maxBodyBytes);
  if (bodyBytes !== undefined) throw new BodyTooLargeError(room, bodyBytes, limits.maxBodyBytes);
  if (headline === undefined) return;
  const headlineBytes = utf8BytesOver(headline, limits.maxHeadlineBytes);
  if (headlineBytes !== undefined) throw new HeadlineTooLargeError(room, headlineBytes, limits.maxHeadlineBytes);
}

/** Throws PostKeyInvalidError unless `key` is a non-empty string of at most MAX_POST_KEY_BYTES UTF-8 bytes. */
export function checkPostKey(key: unknown): asserts key is string {
  if (typeof key !== "string" || key.length === 0 || utf8BytesOver(key, MAX_POST_KEY_BYTES) !== undefined) {
    throw new PostKeyInvalidError(key);
  }
}

/** Throws SeqInvalidError unless `seq` is a non-negative safe integer. */
export function checkSeq(operation: string, seq: number): void {
  if (!isCount(seq)) throw new SeqInvalidError(operation, seq);
}

/** Throws PageLimitInvalidError unless `limit` is a non-negative safe integer. */
export function checkPageLimit(limit: number): void {
  if (!isCount(limit)) throw new PageLimitInvalidError(limit);
}
