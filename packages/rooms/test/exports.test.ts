import { expect, test } from "vitest";
import * as rooms from "@orphus/rooms";

test("the public runtime surface is exactly these names", () => {
  expect(Object.keys(rooms).sort()).toEqual([
    "BodyTooLargeError",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_HEADLINE_BYTES",
    "DEFAULT_MAX_MEMBERS",
    "DEFAULT_MAX_RETAINED_CURSORS",
    "DEFAULT_MAX_ROLE_NAME_BYTES",
    "DEFAULT_MAX_ROOMS",
    "DEFAULT_RING_CAPACITY",
    "DEFAULT_ROOM_NAME_PATTERN",
    "HeadlineTooLargeError",
    "MAX_RING_CAPACITY",
    "MemberLimitError",
    "MessageTooLargeError",
    "NotMemberError",
    "PageLimitInvalidError",
    "RoleNameInvalidError",
    "Room",
    "RoomLimitError",
    "RoomNameInvalidError",
    "RoomRegistry",
    "RoomsError",
    "RoomsOptionError",
    "SeqInvalidError",
    "SeqRing",
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
  ]);
  expect(new rooms.BodyTooLargeError("r", 2, 1)).toBeInstanceOf(rooms.MessageTooLargeError);
});
