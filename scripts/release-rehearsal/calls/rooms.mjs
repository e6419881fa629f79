// Import-and-call check of @orphus/rooms as installed from the registry: post, read unread, mark read, and a
// body over the limit refused with its stable code. Prints one line; throws on any difference.
import assert from "node:assert/strict";
import { RoomRegistry } from "@orphus/rooms";

const rooms = new RoomRegistry({ clock: () => 1_767_225_600_000, maxBodyBytes: 64 });
const room = rooms.getOrCreate("release");
room.join("planner", "conn-1");
room.join("critic", "conn-2");
assert.equal(room.post("planner", "Ship it.").seq, 1);
const page = room.unread("critic");
assert.deepEqual(
  page.messages.map((m) => [m.seq, m.author, m.body]),
  [[1, "planner", "Ship it."]],
);
room.markRead("critic", page.newestSeq);
assert.equal(room.unread("critic").messages.length, 0);
assert.throws(() => room.post("planner", "x".repeat(65)), { code: "ERR_BODY_TOO_LARGE" });
console.log("rooms: post, unread, markRead, body limit refused (ERR_BODY_TOO_LARGE)");
