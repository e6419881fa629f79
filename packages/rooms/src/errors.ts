import { brandErrorClass, previewValue } from "@orphus/internal";

/** Base class of every rooms failure; `code` is stable across releases. */
export abstract class RoomsError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/** A room name does not match the registry's room-name pattern. */
export class RoomNameInvalidError extends RoomsError {
  override readonly name = "RoomNameInvalidError";
  readonly code = "ERR_ROOM_NAME_INVALID";
  constructor(
    readonly roomName: unknown,
    readonly pattern: RegExp,
  ) {
    super(`Invalid room name: expected a string matching ${String(pattern)}, got ${previewValue(roomName)}`);
  }
}

/** A new room was asked of a registry that already holds its maximum number of rooms. */
export class RoomLimitError extends RoomsError {
  override readonly name = "RoomLimitError";
  readonly code = "ERR_ROOM_LIMIT";
  constructor(
    readonly roomName: string,
    readonly maxRooms: number,
  ) {
    super(`Cannot create room ${previewValue(roomName)}: the registry already holds its maximum of ${maxRooms} rooms`);
  }
}

/** A new role tried to join a room that already has its maximum number of members. */
export class MemberLimitError extends RoomsError {
  override readonly name = "MemberLimitError";
  readonly code = "ERR_MEMBER_LIMIT";
  constructor(
    readonly roomName: string,
    readonly role: string,
    readonly maxMembers: number,
  ) {
    super(
      `Cannot join room ${previewValue(roomName)} as ${previewValue(role)}: ` +
        `the room already has its maximum of ${maxMembers} members`,
    );
  }
}

/** A role name is not a non-empty string within the room's role-name size limit. */
export class RoleNameInvalidError extends RoomsError {
  override readonly name = "RoleNameInvalidError";
  readonly code = "ERR_ROLE_NAME_INVALID";
  constructor(
    readonly role: unknown,
    readonly maxRoleNameBytes: number,
  ) {
    super(
      `Invalid role name: expected a non-empty string of at most ${maxRoleNameBytes} UTF-8 bytes, ` +
        `got ${previewValue(role)}`,
    );
  }
}

/** Base of the errors for a message part (body, headline) larger, in UTF-8 bytes, than the room allows. */
export abstract class MessageTooLargeError extends RoomsError {
  constructor(
    part: "body" | "headline",
    readonly roomName: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(
      `Message ${part} for room ${previewValue(roomName)} is ${bytes} UTF-8 bytes; the maximum is ${maxBytes} bytes`,
    );
  }
}

/** A message body is larger, in UTF-8 bytes, than the room's maxBodyBytes. */
export class BodyTooLargeError extends MessageTooLargeError {
  override readonly name = "BodyTooLargeError";
  readonly code = "ERR_BODY_TOO_LARGE";
  constructor(roomName: string, bytes: number, maxBytes: number) {
    super("body", roomName, bytes, maxBytes);
  }
}

/** A message headline is larger, in UTF-8 bytes, than the room's maxHeadlineBytes. */
export class HeadlineTooLargeError extends MessageTooLargeError {
  override readonly name = "HeadlineTooLargeError";
  readonly code = "ERR_HEADLINE_TOO_LARGE";
  constructor(roomName: string, bytes: number, maxBytes: number) {
    super("headline", roomName, bytes, maxBytes);
  }
}

/** A role that is not a member of a room tried to post, read its unread messages or move its cursor there. */
export class NotMemberError extends RoomsError {
  override readonly name = "NotMemberError";
  readonly code = "ERR_NOT_MEMBER";
  constructor(
    readonly roomName: string,
    readonly role: string,
  ) {
    super(`Not a member of room ${previewValue(roomName)}: role ${previewValue(role)} must join it first`);
  }
}

/** A sequence number given to `page` or `markRead` is not a non-negative safe integer. */
export class SeqInvalidError extends RoomsError {
  override readonly name = "SeqInvalidError";
  readonly code = "ERR_SEQ_INVALID";
  constructor(
    readonly operation: string,
    readonly seq: unknown,
  ) {
    super(`Invalid sequence number for ${operation}: expected a non-negative integer, got ${previewValue(seq)}`);
  }
}

/** A page limit is not a non-negative safe integer. */
export class PageLimitInvalidError extends RoomsError {
  override readonly name = "PageLimitInvalidError";
  readonly code = "ERR_PAGE_LIMIT_INVALID";
  constructor(readonly limit: unknown) {
    super(`Invalid page limit: expected a non-negative integer, got ${previewValue(limit)}`);
  }
}

/** A room or registry option is outside its allowed range. */
export class RoomsOptionError extends RoomsError {
  override readonly name = "RoomsOptionError";
  readonly code = "ERR_ROOMS_INVALID_OPTION";
  constructor(option: string, expected: string, got: unknown) {
    super(`Invalid rooms option ${option}: expected ${expected}, got ${previewValue(got)}`);
  }
}

/** A post's idempotency key is not a non-empty string of at most MAX_POST_KEY_BYTES UTF-8 bytes. */
export class PostKeyInvalidError extends RoomsError {
  override readonly name = "PostKeyInvalidError";
  readonly code = "ERR_POST_KEY_INVALID";
  constructor(readonly key: unknown) {
    super(`Invalid post key: expected a non-empty string of at most 128 UTF-8 bytes, got ${previewValue(key)}`);
  }
}

/**
 * A post named an idempotency key its room already holds for another post: another author's, or the same author's
 * with other text while that message is still retained. Nothing was stored; `seq` is the post the key names.
 */
export class PostKeyReusedError extends RoomsError {
  override readonly name = "PostKeyReusedError";
  readonly code = "ERR_POST_KEY_REUSED";
  constructor(
    readonly roomName: string,
    readonly key: string,
    readonly seq: number,
  ) {
    super(
      `Post key ${previewValue(key)} in room ${previewValue(roomName)} already names another post (#${seq}); ` +
        "a key may be repeated only to retry the same post by the same author",
    );
  }
}

/**
 * A room store could not be reached, or did not answer within its timeout; the call may or may not have taken
 * effect (a post retried with the same key is stored once). `store` is the store's masked description.
 */
export class StoreUnavailableError extends RoomsError {
  override readonly name = "StoreUnavailableError";
  readonly code = "ERR_STORE_UNAVAILABLE";
  constructor(
    readonly store: string,
    readonly operation: string,
    readonly timeoutMs: number,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(
      `Room store ${store} unavailable during ${operation} (timeout ${timeoutMs} ms): ${previewValue(reason)}`,
      options,
    );
  }
}

/**
 * A room store lost its data (a server restarted without persistence): its epoch is not the one this store opened
 * with. The call did not take effect; the store has taken up the new epoch and continues every room it knew past
 * its highest sequence number, so numbers are never reused, but history, members and cursors are gone.
 */
export class StoreResetError extends RoomsError {
  override readonly name = "StoreResetError";
  readonly code = "ERR_STORE_RESET";
  constructor(
    readonly store: string,
    readonly expectedEpoch: string,
    readonly foundEpoch: string | undefined,
  ) {
    super(
      `Room store ${store} lost its data: expected epoch ${previewValue(expectedEpoch)}, found ` +
        `${foundEpoch === undefined ? "none" : previewValue(foundEpoch)}; rooms continue past their last sequence ` +
        "numbers, but their history, members and read positions are gone",
    );
  }
}

/** A room store was called after `close()`. */
export class StoreClosedError extends RoomsError {
  override readonly name = "StoreClosedError";
  readonly code = "ERR_STORE_CLOSED";
  constructor(
    readonly store: string,
    readonly operation: string,
  ) {
    super(`Room store ${store} is closed; ${operation} was refused`);
  }
}
