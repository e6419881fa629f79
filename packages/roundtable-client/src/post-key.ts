import { randomBytes } from "node:crypto";
import { IDEMPOTENCY_KEY_PATTERN } from "@orphus/roundtable-protocol";
import { ClientOptionError } from "./errors.js";

/**
 * A fresh idempotency key for one post: 12 random bytes as 16 base64url characters, so two posts of any fleet
 * collide with odds of one in 2^96.
 */
export function newIdempotencyKey(): string {
  return randomBytes(12).toString("base64url");
}

/** The key a post carries: the caller's, checked against the wire's syntax, or a fresh one. */
export function idempotencyKeyFor(given: string | undefined): string {
  if (given === undefined) return newIdempotencyKey();
  if (typeof given !== "string" || !IDEMPOTENCY_KEY_PATTERN.test(given)) {
    throw new ClientOptionError("idempotencyKey", "1 to 64 letters, digits, '_' or '-'", given);
  }
  return given;
}
