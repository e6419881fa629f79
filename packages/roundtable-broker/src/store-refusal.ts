import { hasErrorCode } from "@orphus/internal";
import type {
  BodyTooLargeError,
  HeadlineTooLargeError,
  MemberLimitError,
  NotMemberError,
  PostKeyReusedError,
  RoleNameInvalidError,
  RoomLimitError,
  RoomNameInvalidError,
  RoomStore,
  StoreClosedError,
  StoreResetError,
  StoreUnavailableError,
} from "@orphus/rooms";
import {
  MAX_STORE_DESCRIPTION_LENGTH,
  clipMessage,
  notMemberMessage,
  type WireError,
} from "@orphus/roundtable-protocol";

/** The store's description as the wire carries it (already masked by the store), cut to the protocol's limit. */
export function storeDescription(store: RoomStore): string {
  const { description } = store;
  return description.length <= MAX_STORE_DESCRIPTION_LENGTH
    ? description
    : `${description.slice(0, MAX_STORE_DESCRIPTION_LENGTH - 1)}…`;
}

/** What every reset refusal tells the client: the request it refuses did nothing. */
const RESET_ADVICE = "Nothing was done: join the room again, then repeat the request";

/**
 * The refusal that pays a connection's reset notice (the store lost its data since the connection said hello, and
 * it has not been refused for that yet): worded as a reset the request met itself, with the same advice.
 */
export function resetNotice(store: RoomStore): WireError {
  const description = storeDescription(store);
  return {
    code: "ERR_STORE_RESET",
    message: clipMessage(
      `Room store ${description} lost its data; rooms continue past their last sequence numbers, but their history, ` +
        `members and read positions are gone. ${RESET_ADVICE}`,
    ),
    details: { store: description },
  };
}

/**
 * Turns a failure of a room op into the refusal the wire carries: the store's refusals (membership, limits, sizes,
 * a reused post key), its unavailability and reset, and a closed store (the broker is shutting down). Undefined for
 * anything else, which is a bug and goes out as ERR_INTERNAL. `room` is the room the request named, if any.
 * Errors are told apart by their code, so a store that throws another copy's classes (`@orphus/rooms-redis` imports
 * the installed `@orphus/rooms`, while the broker's bin bundles its own) is refused the same way.
 */
export function refusalFor(error: unknown, room: string, op: string): WireError | undefined {
  if (hasErrorCode<NotMemberError>(error, "ERR_NOT_MEMBER")) {
    return { code: "ERR_NOT_MEMBER", message: notMemberMessage(room), details: { room } };
  }
  if (hasErrorCode<StoreUnavailableError>(error, "ERR_STORE_UNAVAILABLE")) {
    const retry = op === "post" ? "; the post may or may not have been stored: retry it with its idempotency key" : "";
    return {
      code: "ERR_STORE_UNAVAILABLE",
      message: clipMessage(`${error.message}${retry}`),
      details: { store: error.store, timeoutMs: error.timeoutMs },
    };
  }
  if (hasErrorCode<StoreResetError>(error, "ERR_STORE_RESET")) {
    return {
      code: "ERR_STORE_RESET",
      message: clipMessage(`${error.message}. ${RESET_ADVICE}`),
      details: { store: error.store },
    };
  }
  if (hasErrorCode<StoreClosedError>(error, "ERR_STORE_CLOSED")) {
    return { code: "ERR_SHUTTING_DOWN", message: "The broker is shutting down; reconnect and a new broker starts" };
  }
  if (hasErrorCode<PostKeyReusedError>(error, "ERR_POST_KEY_REUSED")) {
    return {
      code: "ERR_IDEMPOTENCY_KEY_REUSED",
      message:
        `Room "${room}" already holds idempotency key "${error.key}" for another post (#${error.seq}); ` +
        "give every new post a fresh key, and repeat a key only to retry the same post",
      details: { room, idempotencyKey: error.key, seq: error.seq },
    };
  }
  if (hasErrorCode<RoomNameInvalidError>(error, "ERR_ROOM_NAME_INVALID")) {
    return { code: "ERR_INVALID_ROOM_NAME", message: error.message, details: { pattern: error.pattern.source } };
  }
  if (hasErrorCode<RoomLimitError>(error, "ERR_ROOM_LIMIT")) {
    return { code: "ERR_TOO_MANY_ROOMS", message: error.message, details: { maxRooms: error.maxRooms } };
  }
  if (hasErrorCode<MemberLimitError>(error, "ERR_MEMBER_LIMIT")) {
    return { code: "ERR_TOO_MANY_MEMBERS", message: error.message, details: { maxMembers: error.maxMembers } };
  }
  if (hasErrorCode<BodyTooLargeError>(error, "ERR_BODY_TOO_LARGE")) {
    return {
      code: "ERR_BODY_TOO_LARGE",
      message: error.message,
      details: { bytes: error.bytes, maxBodyBytes: error.maxBytes },
    };
  }
  if (hasErrorCode<HeadlineTooLargeError>(error, "ERR_HEADLINE_TOO_LARGE")) {
    return {
      code: "ERR_HEADLINE_TOO_LARGE",
      message: error.message,
      details: { bytes: error.bytes, maxHeadlineBytes: error.maxBytes },
    };
  }
  if (hasErrorCode<RoleNameInvalidError>(error, "ERR_ROLE_NAME_INVALID")) {
    return { code: "ERR_INVALID_ROLE_NAME", message: error.message };
  }
  return undefined;
}
