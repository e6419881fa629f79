import { describe, expect, test } from "vitest";
import { Room, type RoomOptions } from "@orphus/rooms";
import { failure } from "./failure.js";

/** A room on a clock that reads 1000, 1001, 1002, … so postedAt is predictable. */
function makeRoom(options: RoomOptions = {}, name = "r"): Room {
  let now = 1000;
  return new Room(name, { clock: () => now++, ...options });
}

describe("membership", () => {
  test("a role joined from several connections leaves only with its last one", () => {
    const room = makeRoom();
    expect(room.join("planner", "c1")).toBe(true);
    expect(room.join("planner", "c2")).toBe(false);
    expect(room.join("planner", "c2")).toBe(false);
    expect(room.leave("planner", "c1")).toBe(false);
    expect(room.isMember("planner")).toBe(true);
    expect(room.leave("planner", "c1")).toBe(false);
    expect(room.leave("planner", "c2")).toBe(true);
    expect(room.isMember("planner")).toBe(false);
    expect(room.leave("planner", "c2")).toBe(false);
    expect(room.leave("nobody", "c2")).toBe(false);
  });

  test("members are listed in the order they joined; numeric and string connection ids are distinct", () => {
    const room = makeRoom();
    room.join("critic", 1);
    room.join("planner", "1");
    expect(room.members()).toEqual(["critic", "planner"]);
    expect(room.memberCount).toBe(2);
    expect(room.leave("critic", "1")).toBe(false);
    expect(room.leave("critic", 1)).toBe(true);
    expect(room.members()).toEqual(["planner"]);
  });

  test("memberList is one frozen list until a role joins or leaves; another connection of a member keeps it", () => {
    const room = makeRoom();
    room.join("a", "c1");
    room.join("b", "c2");
    const list = room.memberList();
    expect(list).toEqual(["a", "b"]);
    expect(Object.isFrozen(list)).toBe(true);
    room.post("a", "one");
    expect(room.memberList()).toBe(list);
    expect(room.join("b", "c3")).toBe(false);
    expect(room.leave("b", "c3")).toBe(false);
    expect(room.memberList()).toBe(list);
    room.join("c", "c1");
    const grown = room.memberList();
    expect(grown).not.toBe(list);
    expect(grown).toEqual(["a", "b", "c"]);
    expect(list).toEqual(["a", "b"]);
    room.leave("a", "c1");
    expect(room.memberList()).toEqual(["b", "c"]);
    room.dropConnection("c2");
    expect(room.memberList()).toEqual(["c"]);
    expect(room.members()).toEqual(["c"]);
    expect(Object.isFrozen(room.members())).toBe(false);
  });

  test("dropping a connection leaves every role it held, reporting those that left for good in join order", () => {
    const room = makeRoom();
    room.join("a", "c1");
    room.join("b", "c2");
    room.join("c", "c1");
    room.join("b", "c1");
    expect(room.dropConnection("c1")).toEqual(["a", "c"]);
    expect(room.members()).toEqual(["b"]);
    expect(room.dropConnection("c2")).toEqual(["b"]);
    expect(room.dropConnection("c2")).toEqual([]);
  });

  test("a full room refuses a new role, naming the limit, but admits more connections of a member", () => {
    const room = makeRoom({ maxMembers: 2 }, "design");
    room.join("a", "c1");
    room.join("b", "c2");
    expect(failure(() => room.join("c", "c3"))).toEqual({
      name: "MemberLimitError",
      code: "ERR_MEMBER_LIMIT",
      message: 'Cannot join room "design" as "c": the room already has its maximum of 2 members',
    });
    expect(room.join("a", "c3")).toBe(false);
    room.leave("b", "c2");
    expect(room.join("c", "c3")).toBe(true);
  });

  test.each([
    ["", '""'],
    ["x".repeat(129), `"${"x".repeat(60)}"… (129 characters)`],
    ["é".repeat(65), `"${"é".repeat(60)}"… (65 characters)`],
  ])("role name %j is refused with ERR_ROLE_NAME_INVALID", (role, shown) => {
    expect(failure(() => makeRoom().join(role, "c1"))).toEqual({
      name: "RoleNameInvalidError",
      code: "ERR_ROLE_NAME_INVALID",
      message: `Invalid role name: expected a non-empty string of at most 128 UTF-8 bytes, got ${shown}`,
    });
  });

  test("a role name of exactly the byte limit is accepted", () => {
    expect(makeRoom().join("é".repeat(64), "c1")).toBe(true);
  });
});

describe("posting", () => {
  test("messages get seqs from 1 and the clock's time, a headline only when given, and are frozen", () => {
    const room = makeRoom();
    room.join("planner", "c1");
    const first = room.post("planner", "ship it", "ship");
    const second = room.post("planner", "then test");
    expect(first).toEqual({ seq: 1, author: "planner", body: "ship it", headline: "ship", postedAt: 1000 });
    expect(second).toEqual({ seq: 2, author: "planner", body: "then test", postedAt: 1001 });
    expect(Object.hasOwn(second, "headline")).toBe(false);
    expect(Object.isFrozen(first)).toBe(true);
    expect(room.page(0).messages[0]).toBe(first);
  });

  test("the default clock is Date.now", () => {
    const room = new Room("r");
    room.join("a", "c");
    const before = Date.now();
    const { postedAt } = room.post("a", "x");
    expect(postedAt).toBeGreaterThanOrEqual(before);
    expect(postedAt).toBeLessThanOrEqual(Date.now());
  });

  test("an author who had read everything has its own message counted read; one behind keeps its cursor", () => {
    const room = makeRoom();
    room.join("a", "c1");
    room.join("b", "c2");
    room.post("a", "1");
    expect([room.cursor("a"), room.cursor("b")]).toEqual([1, 0]);
    room.post("b", "2");
    expect([room.cursor("a"), room.cursor("b")]).toEqual([1, 0]);
    expect(room.unread("b").messages.map((m) => m.seq)).toEqual([1, 2]);
  });

  test("body size is counted in UTF-8 bytes, not characters", () => {
    const room = makeRoom({ maxBodyBytes: 4 }, "sizes");
    room.join("a", "c1");
    expect(room.post("a", "abcd").seq).toBe(1);
    expect(room.post("a", "😀").seq).toBe(2);
    expect(room.post("a", "éé").seq).toBe(3);
    expect(failure(() => room.post("a", "€€"))).toEqual({
      name: "BodyTooLargeError",
      code: "ERR_BODY_TOO_LARGE",
      message: 'Message body for room "sizes" is 6 UTF-8 bytes; the maximum is 4 bytes',
    });
    // A lone surrogate is sent as U+FFFD: 3 bytes.
    expect(failure(() => room.post("a", "ab\ud800")).message).toContain("is 5 UTF-8 bytes");
    expect(room.newestSeq).toBe(3);
  });

  test("a headline over its byte limit is refused and nothing is stored", () => {
    const room = makeRoom({ maxHeadlineBytes: 3 }, "sizes");
    room.join("a", "c1");
    expect(failure(() => room.post("a", "body", "abcd"))).toEqual({
      name: "HeadlineTooLargeError",
      code: "ERR_HEADLINE_TOO_LARGE",
      message: 'Message headline for room "sizes" is 4 UTF-8 bytes; the maximum is 3 bytes',
    });
    expect(room.newestSeq).toBe(0);
    expect(room.post("a", "body", "abc").headline).toBe("abc");
  });

  test("the default body limit is 32 KiB of UTF-8", () => {
    const room = makeRoom();
    room.join("a", "c1");
    expect(room.post("a", "x".repeat(32 * 1024)).seq).toBe(1);
    expect(failure(() => room.post("a", "é".repeat(16 * 1024 + 1))).message).toBe(
      'Message body for room "r" is 32770 UTF-8 bytes; the maximum is 32768 bytes',
    );
  });

  test("only members may post, read their unread messages or move their cursor", () => {
    const room = makeRoom({}, "design");
    const expected = {
      name: "NotMemberError",
      code: "ERR_NOT_MEMBER",
      message: 'Not a member of room "design": role "ghost" must join it first',
    };
    expect(failure(() => room.post("ghost", "boo"))).toEqual(expected);
    expect(failure(() => room.unread("ghost"))).toEqual(expected);
    expect(failure(() => room.unreadCount("ghost"))).toEqual(expected);
    expect(failure(() => room.markRead("ghost", 0))).toEqual(expected);
    room.join("ghost", "c1");
    room.leave("ghost", "c1");
    expect(failure(() => room.post("ghost", "boo"))).toEqual(expected);
  });
});

describe("cursors", () => {
  test("a new role starts just before the oldest retained message: earlier evictions are not its loss", () => {
    const room = makeRoom({ capacity: 3 });
    room.join("a", "c1");
    for (let i = 1; i <= 5; i++) room.post("a", `m${i}`);
    room.join("late", "c2");
    expect(room.cursor("late")).toBe(2);
    const page = room.unread("late");
    expect(page.messages.map((m) => m.seq)).toEqual([3, 4, 5]);
    expect(page.evicted).toBeUndefined();
    expect(room.unreadCount("late")).toBe(3);
  });

  test("a member that falls behind the window is told exactly which messages it lost", () => {
    const room = makeRoom({ capacity: 3 });
    room.join("writer", "c1");
    room.join("reader", "c2");
    room.post("writer", "m1");
    room.markRead("reader", 1);
    for (let i = 2; i <= 9; i++) room.post("writer", `m${i}`);
    expect(room.unreadCount("reader")).toBe(8);
    expect(room.unread("reader", 2)).toEqual({
      messages: [room.page(6, 1).messages[0], room.page(7, 1).messages[0]],
      evicted: { count: 5, fromSeq: 2, toSeq: 6 },
      newestSeq: 9,
      oldestSeq: 7,
      hasMore: true,
    });
  });

  test("markRead never moves backwards and clamps to the newest seq", () => {
    const room = makeRoom();
    room.join("a", "c1");
    room.join("b", "c2");
    for (let i = 0; i < 5; i++) room.post("a", "x");
    expect(room.markRead("b", 3)).toBe(3);
    expect(room.markRead("b", 1)).toBe(3);
    expect(room.markRead("b", 0)).toBe(3);
    expect(room.markRead("b", 99)).toBe(5);
    expect(room.cursor("b")).toBe(5);
    expect(room.unread("b")).toEqual({ messages: [], newestSeq: 5, oldestSeq: 1, hasMore: false });
  });

  test.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("markRead(%s) is refused with ERR_SEQ_INVALID", (seq) => {
    const room = makeRoom();
    room.join("a", "c1");
    expect(failure(() => room.markRead("a", seq))).toEqual({
      name: "SeqInvalidError",
      code: "ERR_SEQ_INVALID",
      message: `Invalid sequence number for markRead: expected a non-negative integer, got ${String(seq)}`,
    });
  });

  test("a cursor belongs to the role name: leaving and joining again resumes where it stopped", () => {
    const room = makeRoom();
    room.join("a", "c1");
    room.join("b", "c2");
    room.post("a", "1");
    room.post("a", "2");
    room.markRead("b", 1);
    room.leave("b", "c2");
    expect(room.cursor("b")).toBe(1);
    room.post("a", "3");
    room.join("b", "c9");
    expect(room.cursor("b")).toBe(1);
    expect(room.unread("b").messages.map((m) => m.body)).toEqual(["2", "3"]);
  });

  test("departed roles' cursors are kept up to maxRetainedCursors, the earliest departure dropped first", () => {
    const room = makeRoom({ maxRetainedCursors: 1, capacity: 2 });
    room.join("w", "c0");
    room.join("a", "c1");
    room.join("b", "c2");
    for (let i = 0; i < 3; i++) room.post("w", "x");
    room.markRead("a", 2);
    room.leave("a", "c1");
    room.leave("b", "c2");
    expect([room.cursor("a"), room.cursor("b")]).toEqual([undefined, 0]);
    // Forgotten, "a" comes back as a newcomer: just before the oldest retained message.
    room.join("a", "c1");
    expect(room.cursor("a")).toBe(1);
  });

  test("with maxRetainedCursors 0 a departing role's cursor goes at once", () => {
    const room = makeRoom({ maxRetainedCursors: 0 });
    room.join("a", "c1");
    room.leave("a", "c1");
    expect(room.cursor("a")).toBeUndefined();
  });
});

describe("page", () => {
  test("reads after any seq, the default limit being the capacity", () => {
    const room = makeRoom({ capacity: 4 });
    room.join("a", "c1");
    for (let i = 0; i < 6; i++) room.post("a", `m${i + 1}`);
    expect(room.page(0).messages.map((m) => m.seq)).toEqual([3, 4, 5, 6]);
    expect(room.page(0).evicted).toEqual({ count: 2, fromSeq: 1, toSeq: 2 });
    expect(room.page(4, 1)).toMatchObject({ hasMore: true, newestSeq: 6, oldestSeq: 3 });
    expect(room.page(6)).toEqual({ messages: [], newestSeq: 6, oldestSeq: 3, hasMore: false });
    expect(room.page(600)).toEqual({ messages: [], newestSeq: 6, oldestSeq: 3, hasMore: false });
  });

  test("a negative or fractional afterSeq and a bad limit are refused with their codes", () => {
    const room = makeRoom();
    expect(failure(() => room.page(-1, 5)).code).toBe("ERR_SEQ_INVALID");
    expect(failure(() => room.page(0.5, 5)).message).toBe(
      "Invalid sequence number for page: expected a non-negative integer, got 0.5",
    );
    expect(failure(() => room.page(0, -1))).toEqual({
      name: "PageLimitInvalidError",
      code: "ERR_PAGE_LIMIT_INVALID",
      message: "Invalid page limit: expected a non-negative integer, got -1",
    });
    expect(failure(() => room.page(0, Number.POSITIVE_INFINITY)).code).toBe("ERR_PAGE_LIMIT_INVALID");
  });
});

describe("options", () => {
  test("the limits default to the exported constants and are frozen", () => {
    const room = new Room("r");
    expect(room.limits).toEqual({
      capacity: 500,
      maxMembers: 32,
      maxBodyBytes: 32768,
      maxHeadlineBytes: 256,
      maxRoleNameBytes: 128,
      maxRetainedCursors: 256,
    });
    expect(Object.isFrozen(room.limits)).toBe(true);
    expect(room.capacity).toBe(500);
  });

  test.each([
    [{ maxMembers: 0 }, "Invalid rooms option maxMembers: expected an integer of at least 1, got 0"],
    [{ capacity: 2.5 }, "Invalid rooms option capacity: expected an integer of at least 1, got 2.5"],
    [{ maxRetainedCursors: -1 }, "Invalid rooms option maxRetainedCursors: expected an integer of at least 0, got -1"],
    [{ capacity: 2_000_000 }, "Invalid rooms option capacity: expected an integer from 1 to 1000000, got 2000000"],
    [
      { clock: 5 as unknown as () => number },
      "Invalid rooms option clock: expected a function returning epoch milliseconds, got 5",
    ],
  ])("%j is refused with ERR_ROOMS_INVALID_OPTION", (options, message) => {
    expect(failure(() => new Room("r", options))).toEqual({
      name: "RoomsOptionError",
      code: "ERR_ROOMS_INVALID_OPTION",
      message,
    });
  });
});
