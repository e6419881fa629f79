import { expect, test } from "vitest";
import * as rooms from "@orphus/rooms";

test("the public runtime surface is exactly these names", () => {
  expect(Object.keys(rooms).sort()).toEqual([
    "BodyTooLargeError",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_HEADLINE_BYTES",
    "DEFAULT_MAX_HELD_BYTES",
    "DEFAULT_MAX_MEMBERS",
    "DEFAULT_MAX_POST_KEYS",
    "DEFAULT_MAX_RETAINED_CURSORS",
    "DEFAULT_MAX_ROLE_NAME_BYTES",
    "DEFAULT_MAX_ROOMS",
    "DEFAULT_RING_CAPACITY",
    "DEFAULT_ROOM_NAME_PATTERN",
    "HeadlineTooLargeError",
    "MASK",
    "MAX_POST_KEY_BYTES",
    "MAX_RING_CAPACITY",
    "MemberLimitError",
    "MemoryRoomStore",
    "MessageTooLargeError",
    "NotMemberError",
    "PageLimitInvalidError",
    "PostKeyInvalidError",
    "PostKeyReusedError",
    "RoleNameInvalidError",
    "Room",
    "RoomLimitError",
    "RoomNameInvalidError",
    "RoomRegistry",
    "RoomsError",
    "RoomsOptionError",
    "SeqInvalidError",
    "SeqRing",
    "StoreClosedError",
    "StoreResetError",
    "StoreUnavailableError",
    "andThen",
    "checkMessageSize",
    "checkPageLimit",
    "checkPostKey",
    "checkRoleName",
    "checkRoomName",
    "checkSeq",
    "isPromiseLike",
    "maskStoreUrl",
    "peekEvicted",
    "resolveRoomStoreOptions",
  ]);
});

test("the default limits", () => {
  expect({
    DEFAULT_RING_CAPACITY: rooms.DEFAULT_RING_CAPACITY,
    MAX_RING_CAPACITY: rooms.MAX_RING_CAPACITY,
    DEFAULT_MAX_ROOMS: rooms.DEFAULT_MAX_ROOMS,
    DEFAULT_MAX_MEMBERS: rooms.DEFAULT_MAX_MEMBERS,
    DEFAULT_MAX_BODY_BYTES: rooms.DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_HEADLINE_BYTES: rooms.DEFAULT_MAX_HEADLINE_BYTES,
    DEFAULT_MAX_ROLE_NAME_BYTES: rooms.DEFAULT_MAX_ROLE_NAME_BYTES,
    DEFAULT_MAX_RETAINED_CURSORS: rooms.DEFAULT_MAX_RETAINED_CURSORS,
    DEFAULT_ROOM_NAME_PATTERN: rooms.DEFAULT_ROOM_NAME_PATTERN.source,
    DEFAULT_MAX_POST_KEYS: rooms.DEFAULT_MAX_POST_KEYS,
    MAX_POST_KEY_BYTES: rooms.MAX_POST_KEY_BYTES,
    DEFAULT_MAX_HELD_BYTES: rooms.DEFAULT_MAX_HELD_BYTES,
    MASK: rooms.MASK,
  }).toEqual({
    DEFAULT_RING_CAPACITY: 500,
    MAX_RING_CAPACITY: 1_000_000,
    DEFAULT_MAX_ROOMS: 64,
    DEFAULT_MAX_MEMBERS: 32,
    DEFAULT_MAX_BODY_BYTES: 32_768,
    DEFAULT_MAX_HEADLINE_BYTES: 256,
    DEFAULT_MAX_ROLE_NAME_BYTES: 128,
    DEFAULT_MAX_RETAINED_CURSORS: 256,
    DEFAULT_ROOM_NAME_PATTERN: "^[a-z0-9][a-z0-9._-]{0,63}$",
    DEFAULT_MAX_POST_KEYS: 1024,
    MAX_POST_KEY_BYTES: 128,
    DEFAULT_MAX_HELD_BYTES: 134_217_728,
    MASK: "***",
  });
});

test("every error class has a stable code and name and derives from RoomsError", () => {
  const samples: rooms.RoomsError[] = [
    new rooms.RoomNameInvalidError("X", rooms.DEFAULT_ROOM_NAME_PATTERN),
    new rooms.RoomLimitError("r", 1),
    new rooms.MemberLimitError("r", "a", 1),
    new rooms.RoleNameInvalidError("", 1),
    new rooms.BodyTooLargeError("r", 2, 1),
    new rooms.HeadlineTooLargeError("r", 2, 1),
    new rooms.NotMemberError("r", "a"),
    new rooms.SeqInvalidError("page", -1),
    new rooms.PageLimitInvalidError(-1),
    new rooms.RoomsOptionError("capacity", "an integer", 0),
    new rooms.PostKeyInvalidError(""),
    new rooms.PostKeyReusedError("r", "k", 1),
    new rooms.StoreUnavailableError("redis://h", "post", 2000, "timed out"),
    new rooms.StoreResetError("redis://h", "e1", undefined),
    new rooms.StoreClosedError("memory", "post"),
  ];
  expect(samples.every((error) => error instanceof rooms.RoomsError && error instanceof Error)).toBe(true);
  expect(samples.map((error) => [error.name, error.code])).toEqual([
    ["RoomNameInvalidError", "ERR_ROOM_NAME_INVALID"],
    ["RoomLimitError", "ERR_ROOM_LIMIT"],
    ["MemberLimitError", "ERR_MEMBER_LIMIT"],
    ["RoleNameInvalidError", "ERR_ROLE_NAME_INVALID"],
    ["BodyTooLargeError", "ERR_BODY_TOO_LARGE"],
    ["HeadlineTooLargeError", "ERR_HEADLINE_TOO_LARGE"],
    ["NotMemberError", "ERR_NOT_MEMBER"],
    ["SeqInvalidError", "ERR_SEQ_INVALID"],
    ["PageLimitInvalidError", "ERR_PAGE_LIMIT_INVALID"],
    ["RoomsOptionError", "ERR_ROOMS_INVALID_OPTION"],
    ["PostKeyInvalidError", "ERR_POST_KEY_INVALID"],
    ["PostKeyReusedError", "ERR_POST_KEY_REUSED"],
    ["StoreUnavailableError", "ERR_STORE_UNAVAILABLE"],
    ["StoreResetError", "ERR_STORE_RESET"],
    ["StoreClosedError", "ERR_STORE_CLOSED"],
  ]);
  expect(new rooms.BodyTooLargeError("r", 2, 1)).toBeInstanceOf(rooms.MessageTooLargeError);
});

test("a forward peek reports what left the window before it, and nothing inside it", () => {
  expect(rooms.peekEvicted(0, 10, 4)).toEqual({ count: 6, fromSeq: 1, toSeq: 6 });
  expect(rooms.peekEvicted(6, 10, 4)).toBeUndefined();
  expect(rooms.peekEvicted(3, 10, 0)).toEqual({ count: 7, fromSeq: 4, toSeq: 10 });
});
