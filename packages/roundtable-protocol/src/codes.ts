import * as z from "zod";
import { STORE_WIRE_VERSION, WATCH_SINCE_VERSION } from "./constants.js";
import type { WireError } from "./types.js";

/**
 * Every error code a broker may put in a refusal, with when it is sent. Codes are stable across releases; a client
 * should branch on the code, never on the message.
 */
export const WIRE_ERROR_CODES = {
  ERR_INVALID_REQUEST: "A well-framed request failed its schema; the connection stays open.",
  ERR_UNKNOWN_OP: "The request names an op this broker does not know (a newer client?); the connection stays open.",
  ERR_HELLO_REQUIRED: "A request other than hello arrived before the connection's hello.",
  ERR_HELLO_REPEATED: "A second hello arrived on a connection that already said hello.",
  ERR_PROTOCOL_MISMATCH:
    "The hello names another protocol, or a version this broker does not serve; the message names both and what to do. The connection is closed.",
  ERR_NOT_MEMBER: "Posting or reading a room the connection's role is not a member of.",
  ERR_NO_SUCH_ROOM: "The named room does not exist on this broker.",
  ERR_INVALID_ROOM_NAME: "The room name does not match the broker's room-name syntax.",
  ERR_INVALID_ROLE_NAME: "The role name in hello is not accepted by the broker.",
  ERR_TOO_MANY_ROOMS: "Joining would create a room past the broker's room limit.",
  ERR_TOO_MANY_MEMBERS: "Joining would add a role past the room's member limit.",
  ERR_BODY_TOO_LARGE: "A post body is larger than the broker's body limit.",
  ERR_HEADLINE_TOO_LARGE: "A post headline is larger than the broker's headline limit.",
  ERR_IDEMPOTENCY_KEY_REUSED:
    "A post names an idempotency key the room already holds for another post (another author or other text).",
  ERR_REPLY_TOO_LARGE: "The reply would exceed the frame limit; ask for less (a smaller fetch limit).",
  ERR_TOO_MANY_CONNECTIONS:
    "The broker already serves its connection limit: it answers the connection's first request with this code (or " +
    "sends it unprompted when no request comes within a few seconds), then closes the connection.",
  ERR_SHUTTING_DOWN: "The broker is closing; reconnect, and a new broker starts.",
  ERR_STORE_UNAVAILABLE:
    "The broker's room store (Redis) did not answer within its timeout; the request may or may not have taken " +
    "effect (retry a post with its idempotency key). The broker keeps trying and serves again once the store answers.",
  ERR_STORE_RESET:
    "The broker's room store lost its data (a Redis restarted without persistence); the request did not take effect. " +
    "Sent to the request that met the loss, and to the next request naming a room of every connection that said " +
    "hello before it, whether or not it read the reset event. Every membership and read position is gone: join " +
    "again, then repeat the request. Rooms the running brokers knew continue past their last seq, never reusing one.",
  ERR_WATCHER_CONNECTION:
    "A member op (join, leave, post, digest, fetch) arrived on a watcher connection (a hello with watch: true), " +
    "which is no member of anything; the connection stays open. Version 3.",
  ERR_NOT_WATCHER:
    "A watcher op (watch, peek) arrived on a member connection; open a connection whose hello says watch: true. " +
    "The connection stays open. Version 3.",
  ERR_INTERNAL: "The broker failed while handling the request; the connection stays open.",
} as const;

/** One wire error code. */
export type WireErrorCode = keyof typeof WIRE_ERROR_CODES;

/** Codes an older client's catalogue lacks, with the first version that knows them. */
const CODE_SINCE: Partial<Record<WireErrorCode, number>> = {
  ERR_STORE_UNAVAILABLE: STORE_WIRE_VERSION,
  ERR_STORE_RESET: STORE_WIRE_VERSION,
  ERR_WATCHER_CONNECTION: WATCH_SINCE_VERSION,
  ERR_NOT_WATCHER: WATCH_SINCE_VERSION,
};

/**
 * The code to send a client of `peerVersion`: `code` itself, or ERR_INTERNAL when the client's catalogue predates
 * it (such a client refuses a reply whose code it does not know, and closes its connection).
 */
export function wireCodeForPeer(code: WireErrorCode, peerVersion: number): WireErrorCode {
  const since = CODE_SINCE[code];
  return since === undefined || peerVersion >= since ? code : "ERR_INTERNAL";
}

/**
 * The refusal to send a client of `peerVersion` whose request named `room` (if it named one): `error` itself, or
 * what stands for it in the client's older catalogue. ERR_STORE_RESET becomes ERR_NOT_MEMBER (the same message,
 * details `{ room }`) for a request that names a room, since that code is what tells such a client to join again;
 * any other code the client does not know becomes ERR_INTERNAL (see {@link wireCodeForPeer}), message kept.
 */
export function wireErrorForPeer(error: WireError, peerVersion: number, room?: string): WireError {
  const code = wireCodeForPeer(error.code, peerVersion);
  if (code === error.code) return error;
  if (error.code === "ERR_STORE_RESET" && room !== undefined) {
    return { code: "ERR_NOT_MEMBER", message: error.message, details: { room } };
  }
  return { ...error, code };
}

/** The wire error codes as a schema; a code outside the catalogue is refused. */
export const wireErrorCodeSchema = z.enum(Object.keys(WIRE_ERROR_CODES) as [WireErrorCode, ...WireErrorCode[]]);

/** The exact refusal text for posting or reading a room without membership. */
export function notMemberMessage(room: string): string {
  return `Not a member of room "${room}"; join it first`;
}

/** The refusal text for a fetch whose character cap is above the broker's largest page (its reply limit). */
export function fetchCapTooLargeMessage(maxChars: number, maxFetchChars: number): string {
  return (
    `Invalid fetch request: maxChars ${maxChars} is above this broker's largest page, ${maxFetchChars} characters ` +
    `(its reply limit); ask for at most ${maxFetchChars}`
  );
}

/** The two sides of a protocol mismatch, as the refusal names them. */
export interface ProtocolMismatch {
  readonly brokerProtocol: string;
  readonly brokerVersion: number;
  readonly brokerPid: number;
  /** How long the running broker waits after its last connection before it exits. */
  readonly brokerIdleMs: number;
  readonly peerProtocol: string;
  readonly peerVersion: number;
}

/** The refusal text for a hello speaking another protocol or version: both versions, and what the user can do. */
export function protocolMismatchMessage(mismatch: ProtocolMismatch): string {
  const broker = `${mismatch.brokerProtocol} v${mismatch.brokerVersion}`;
  const peer = `${mismatch.peerProtocol} v${mismatch.peerVersion}`;
  const idle = mismatch.brokerIdleMs >= 1000 ? `${mismatch.brokerIdleMs / 1000} s` : `${mismatch.brokerIdleMs} ms`;
  return (
    `Protocol mismatch: the running broker (pid ${mismatch.brokerPid}) speaks ${broker}, this client speaks ${peer}. ` +
    `The broker exits ${idle} after its last session disconnects: close the sessions still using it, or stop it ` +
    `with \`kill ${mismatch.brokerPid}\`, and the next session starts a broker of its own version.`
  );
}

/** The refusal text for a member op on a watcher connection. */
export function watcherConnectionMessage(op: string): string {
  return `A watcher connection cannot ${op}: it is no member of any room; open a member connection to ${op}`;
}

/** The refusal text for a watcher op on a member connection. */
export function notWatcherMessage(op: string): string {
  return `Only a watcher connection can ${op}: say hello with watch: true on a connection of its own`;
}
