import { typeName } from "@orphus/internal";
import type * as z from "zod";
import { MAX_ERROR_MESSAGE_LENGTH, OLDEST_PEER_VERSION, PROTOCOL_NAME, PROTOCOL_VERSION } from "./constants.js";
import { ServerFrameInvalidError } from "./errors.js";
import { plainPostRequest } from "./plain-post.js";
import { OPS, requestIdSchema, requestSchemas, serverFrameSchema } from "./schemas.js";
import type { Op, RoundtableRequest, ServerFrame, WireError } from "./types.js";

/** The outcome of {@link parseRequest}: a typed request, or the refusal to send back (with the id to echo). */
export type RequestParse =
  | { readonly ok: true; readonly request: RoundtableRequest }
  | { readonly ok: false; readonly id: number | null; readonly op: string | undefined; readonly error: WireError };

/** Most schema issues one refusal lists. */
const MAX_LISTED_ISSUES = 3;

const opSet: ReadonlySet<string> = new Set(OPS);

/** True when `op` names a request of this protocol version. */
export function isOp(op: unknown): op is Op {
  return typeof op === "string" && opSet.has(op);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Cuts a message to the length the wire carries. */
export function clipMessage(message: string): string {
  return message.length > MAX_ERROR_MESSAGE_LENGTH ? `${message.slice(0, MAX_ERROR_MESSAGE_LENGTH - 1)}…` : message;
}

/** Summarises zod issues in one line: where, and what was expected. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const path = issue.path.length === 0 ? "(request)" : issue.path.map(String).join(".");
    return `${path}: ${issue.message}`;
  });
  const rest = issues.length > MAX_LISTED_ISSUES ? `; and ${issues.length - MAX_LISTED_ISSUES} more` : "";
  return listed.join("; ") + rest;
}

/**
 * Checks a decoded frame against the request schemas. Never throws: a frame that is not a request gives the
 * refusal to reply with, echoing the request's id when it was readable (else null) so the connection can stay.
 */
export function parseRequest(value: unknown): RequestParse {
  if (!isRecord(value)) {
    return refuse(null, undefined, `Invalid request: expected a JSON object with id and op, got ${typeName(value)}`);
  }
  const rawOp = value["op"];
  // The most frequent request, checked by hand when plainly valid (the same result, a fraction of the cost).
  const post = rawOp === "post" ? plainPostRequest(value) : undefined;
  if (post !== undefined) return { ok: true, request: post };
  // The common case first: a known op whose schema (id included) accepts the request in one pass.
  const parsed = isOp(rawOp) ? requestSchemas[rawOp].safeParse(value) : undefined;
  if (parsed?.success === true) return { ok: true, request: parsed.data };
  const idParse = requestIdSchema.safeParse(value["id"]);
  const id = idParse.success ? idParse.data : null;
  const op = typeof rawOp === "string" ? rawOp.slice(0, 64) : undefined;
  if (id === null) {
    return refuse(null, op, "Invalid request: id must be an integer from 0 to 2^53-1");
  }
  if (parsed === undefined) {
    const error: WireError = {
      code: "ERR_UNKNOWN_OP",
      message: clipMessage(`Unknown op ${JSON.stringify(op ?? rawOp ?? null)}: expected one of ${OPS.join(", ")}`),
    };
    return { ok: false, id, op, error };
  }
  return refuse(id, op, `Invalid ${op} request: ${describeIssues(parsed.error.issues)}`);
}

function refuse(id: number | null, op: string | undefined, message: string): RequestParse {
  return { ok: false, id, op, error: { code: "ERR_INVALID_REQUEST", message: clipMessage(message) } };
}

/** The protocol name and version a hello claims, read loosely so a peer of any version can be told which it is. */
export interface PeerProtocol {
  readonly protocol: string;
  readonly version: number;
}

/** Reads `protocol` and `version` from a hello of any shape; undefined when they are missing or mistyped. */
export function readPeerProtocol(value: unknown): PeerProtocol | undefined {
  if (!isRecord(value)) return undefined;
  const protocol = value["protocol"];
  const version = value["version"];
  if (typeof protocol !== "string" || typeof version !== "number") return undefined;
  return { protocol: protocol.slice(0, 64), version };
}

/**
 * True when a broker of this version serves the peer: the same protocol, at a version from
 * {@link OLDEST_PEER_VERSION} to {@link PROTOCOL_VERSION}. A newer peer is refused: it may rely on what this broker
 * would silently drop.
 */
export function isCompatiblePeer(peer: PeerProtocol): boolean {
  const { protocol, version } = peer;
  return (
    protocol === PROTOCOL_NAME &&
    Number.isInteger(version) &&
    version >= OLDEST_PEER_VERSION &&
    version <= PROTOCOL_VERSION
  );
}

/** Checks a frame from the broker; throws ServerFrameInvalidError when it is neither a reply nor an event. */
export function parseServerFrame(value: unknown): ServerFrame {
  const parsed = serverFrameSchema.safeParse(value);
  if (!parsed.success)
    throw new ServerFrameInvalidError(value, describeIssues(parsed.error.issues), { cause: parsed.error });
  return parsed.data;
}
