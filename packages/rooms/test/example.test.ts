// The README's example, run as written (with a fixed clock), so the documentation cannot drift from the code.
import { expect, test } from "vitest";
import { RoomRegistry } from "@orphus/rooms";

test("the README example", () => {
  const rooms = new RoomRegistry({ clock: () => 1764460800000 });
  const room = rooms.getOrCreate("design-review");
  expect(room.join("planner", "conn-1")).toBe(true);
  expect(room.join("critic", "conn-2")).toBe(true);
  expect(room.join("critic", "conn-3")).toBe(false);
  const body = "Ship the ring buffer first, then the broker.";
  expect(room.post("planner", body, "ship ring first")).toEqual({
    seq: 1,
    author: "planner",
    body,
    headline: "ship ring first",
    postedAt: 1764460800000,
  });
  const page = room.unread("critic");
  expect(page).toEqual({ messages: [room.page(0).messages[0]], newestSeq: 1, oldestSeq: 1, hasMore: false });
  expect(room.markRead("critic", page.newestSeq)).toBe(1);
  expect(rooms.list()).toEqual([{ name: "design-review", memberCount: 2, messageCount: 1, retainedCount: 1 }]);
  expect(rooms.dropConnection("conn-2")).toEqual([]);
  expect(rooms.dropConnection("conn-3")).toEqual([{ room: "design-review", role: "critic" }]);
});

test("the README's reader behind the window", () => {
  const room = new RoomRegistry().getOrCreate("design-review");
  room.join("planner", "conn-1");
  room.join("reviewer", "conn-4");
  for (let i = 0; i < 11; i++) room.post("planner", `early ${i}`);
  room.markRead("reviewer", 11);
  for (let i = 11; i < 548; i++) room.post("planner", `later ${i}`);
  const behind = room.unread("reviewer", 20);
  expect(behind).toMatchObject({ evicted: { count: 37, fromSeq: 12, toSeq: 48 }, newestSeq: 548, oldestSeq: 49 });
  expect(behind.hasMore).toBe(true);
  expect(behind.messages[0]?.seq).toBe(49);
});
