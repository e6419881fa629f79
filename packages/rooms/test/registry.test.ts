import { describe, expect, test } from "vitest";
import { RoomRegistry } from "@orphus/rooms";
import { failure } from "./failure.js";

describe("room names", () => {
  test.each(["a", "design-review", "v1.2_final", "0", "a".repeat(64)])("%j is a valid room name", (name) => {
    const registry = new RoomRegistry();
    expect(registry.getOrCreate(name).name).toBe(name);
  });

  test.each([
    ["", '""'],
    ["Design", '"Design"'],
    ["-lead", '"-lead"'],
    [".hidden", '".hidden"'],
    ["has space", '"has space"'],
    ["a/b", '"a/b"'],
    ["a".repeat(65), `"${"a".repeat(60)}"… (65 characters)`],
    ["ünïcode", '"ünïcode"'],
  ])("%j is refused with ERR_ROOM_NAME_INVALID", (name, shown) => {
    const registry = new RoomRegistry();
    expect(failure(() => registry.getOrCreate(name))).toEqual({
      name: "RoomNameInvalidError",
      code: "ERR_ROOM_NAME_INVALID",
      message: `Invalid room name: expected a string matching /^[a-z0-9][a-z0-9._-]{0,63}$/, got ${shown}`,
    });
    expect(registry.size).toBe(0);
  });

  test("a non-string name is refused, not coerced", () => {
    expect(failure(() => new RoomRegistry().getOrCreate(7 as unknown as string)).message).toBe(
      "Invalid room name: expected a string matching /^[a-z0-9][a-z0-9._-]{0,63}$/, got 7",
    );
  });

  test("a custom pattern applies; its g and y flags cannot make validation depend on the previous call", () => {
    const registry = new RoomRegistry({ roomNamePattern: /^room-[0-9]+$/gy });
    expect(registry.isValidName("room-1")).toBe(true);
    expect(registry.isValidName("room-1")).toBe(true);
    expect(registry.isValidName("lobby")).toBe(false);
    expect(registry.roomNamePattern.flags).toBe("");
    expect(failure(() => registry.getOrCreate("lobby")).message).toBe(
      'Invalid room name: expected a string matching /^room-[0-9]+$/, got "lobby"',
    );
  });
});

describe("registry", () => {
  test("getOrCreate returns the same room for the same name; get never creates", () => {
    const registry = new RoomRegistry();
    expect(registry.get("lobby")).toBeUndefined();
    const room = registry.getOrCreate("lobby");
    expect(registry.getOrCreate("lobby")).toBe(room);
    expect(registry.get("lobby")).toBe(room);
    expect(registry.get("Not Valid")).toBeUndefined();
    expect(registry.size).toBe(1);
  });

  test("a full registry refuses a new room, naming the limit, but still serves its rooms", () => {
    const registry = new RoomRegistry({ maxRooms: 2 });
    registry.getOrCreate("a");
    registry.getOrCreate("b");
    expect(failure(() => registry.getOrCreate("c"))).toEqual({
      name: "RoomLimitError",
      code: "ERR_ROOM_LIMIT",
      message: 'Cannot create room "c": the registry already holds its maximum of 2 rooms',
    });
    expect(registry.getOrCreate("a").name).toBe("a");
  });

  test("the default room limit is 64", () => {
    const registry = new RoomRegistry();
    for (let i = 0; i < 64; i++) registry.getOrCreate(`room-${i}`);
    expect(failure(() => registry.getOrCreate("one-more")).code).toBe("ERR_ROOM_LIMIT");
    expect(registry.maxRooms).toBe(64);
  });

  test("rooms get the registry's room options and clock", () => {
    const registry = new RoomRegistry({ capacity: 2, maxMembers: 1, clock: () => 42 });
    const room = registry.getOrCreate("lobby");
    expect(room.limits).toMatchObject({ capacity: 2, maxMembers: 1 });
    room.join("a", "c1");
    expect(room.post("a", "hi").postedAt).toBe(42);
  });

  test("bad options fail at construction", () => {
    expect(failure(() => new RoomRegistry({ maxRooms: 0 })).message).toBe(
      "Invalid rooms option maxRooms: expected an integer of at least 1, got 0",
    );
    expect(failure(() => new RoomRegistry({ capacity: 0 })).code).toBe("ERR_ROOMS_INVALID_OPTION");
    expect(failure(() => new RoomRegistry({ roomNamePattern: "^a$" as unknown as RegExp })).message).toBe(
      'Invalid rooms option roomNamePattern: expected a RegExp, got "^a$"',
    );
  });

  test("list gives every room's member and message counts, sorted by name", () => {
    const registry = new RoomRegistry({ capacity: 2 });
    const zeta = registry.getOrCreate("zeta");
    registry.getOrCreate("alpha");
    zeta.join("a", "c1");
    zeta.join("b", "c2");
    for (let i = 0; i < 3; i++) zeta.post("a", "x");
    expect(registry.list()).toEqual([
      { name: "alpha", memberCount: 0, messageCount: 0, retainedCount: 0 },
      { name: "zeta", memberCount: 2, messageCount: 3, retainedCount: 2 },
    ]);
  });

  test("dropConnection leaves every room the connection joined and reports who left for good", () => {
    const registry = new RoomRegistry();
    const one = registry.getOrCreate("one");
    const two = registry.getOrCreate("two");
    one.join("planner", "conn-a");
    one.join("critic", "conn-a");
    two.join("planner", "conn-a");
    two.join("planner", "conn-b");
    expect(registry.dropConnection("conn-a")).toEqual([
      { room: "one", role: "planner" },
      { room: "one", role: "critic" },
    ]);
    expect(one.members()).toEqual([]);
    expect(two.members()).toEqual(["planner"]);
    expect(registry.dropConnection("conn-a")).toEqual([]);
    expect(registry.dropConnection("conn-b")).toEqual([{ room: "two", role: "planner" }]);
  });
});
