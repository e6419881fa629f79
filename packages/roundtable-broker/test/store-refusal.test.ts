import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as roomsHere from "@orphus/rooms";
import { refusalFor } from "../src/store-refusal.js";
import { bundlePrograms, type BundledPrograms } from "../../../test-support/target.js";

type Rooms = typeof import("@orphus/rooms");

/**
 * A second copy of @orphus/rooms, as a broker with a Redis store holds one: its bin bundles its own copy, while
 * @orphus/rooms-redis throws the installed copy's errors. Here the package is bundled from source into a file of its
 * own, so its classes are not the ones the broker's source imports.
 */
let other: Rooms;
let bundle: BundledPrograms | undefined;
beforeAll(async () => {
  const source = join(import.meta.dirname, "..", "..", "rooms", "src", "index.ts");
  bundle = await bundlePrograms({ "rooms-copy": source }, { prefix: "rt-rooms-copy-" });
  other = (await import(pathToFileURL(join(bundle.dir, "rooms-copy.js")).href)) as Rooms;
});
afterAll(() => bundle?.remove());

describe("a store refusal thrown by another copy of @orphus/rooms", () => {
  test("is another copy: instanceof the broker's classes is false for each of its errors", () => {
    expect(other.NotMemberError).not.toBe(roomsHere.NotMemberError);
    expect(new other.NotMemberError("design", "critic") instanceof roomsHere.NotMemberError).toBe(false);
    expect(new other.StoreResetError("redis://host:6379/0", "e1", "e2") instanceof roomsHere.RoomsError).toBe(false);
  });

  test("goes out with its wire code and details, as one of the broker's own copy does", () => {
    const store = "redis://orphus:***@host:6379/0";
    const cases: [Error, unknown][] = [
      [
        new other.NotMemberError("design", "critic"),
        {
          code: "ERR_NOT_MEMBER",
          message: 'Not a member of room "design"; join it first',
          details: { room: "design" },
        },
      ],
      [
        new other.RoomNameInvalidError("Design Room", /^[a-z-]+$/),
        {
          code: "ERR_INVALID_ROOM_NAME",
          message: 'Invalid room name: expected a string matching /^[a-z-]+$/, got "Design Room"',
          details: { pattern: "^[a-z-]+$" },
        },
      ],
      [
        new other.BodyTooLargeError("design", 70_000, 65_536),
        {
          code: "ERR_BODY_TOO_LARGE",
          message: 'Message body for room "design" is 70000 UTF-8 bytes; the maximum is 65536 bytes',
          details: { bytes: 70_000, maxBodyBytes: 65_536 },
        },
      ],
      [
        new other.HeadlineTooLargeError("design", 300, 200),
        {
          code: "ERR_HEADLINE_TOO_LARGE",
          message: 'Message headline for room "design" is 300 UTF-8 bytes; the maximum is 200 bytes',
          details: { bytes: 300, maxHeadlineBytes: 200 },
        },
      ],
      [
        new other.PostKeyReusedError("design", "c0ffee", 7),
        {
          code: "ERR_IDEMPOTENCY_KEY_REUSED",
          message:
            'Room "design" already holds idempotency key "c0ffee" for another post (#7); ' +
            "give every new post a fresh key, and repeat a key only to retry the same post",
          details: { room: "design", idempotencyKey: "c0ffee", seq: 7 },
        },
      ],
      [
        new other.RoomLimitError("design", 64),
        {
          code: "ERR_TOO_MANY_ROOMS",
          message: 'Cannot create room "design": the registry already holds its maximum of 64 rooms',
          details: { maxRooms: 64 },
        },
      ],
      [
        new other.MemberLimitError("design", "critic", 32),
        {
          code: "ERR_TOO_MANY_MEMBERS",
          message: 'Cannot join room "design" as "critic": the room already has its maximum of 32 members',
          details: { maxMembers: 32 },
        },
      ],
      [
        new other.StoreUnavailableError(store, "post", 2_000, "connection refused"),
        {
          code: "ERR_STORE_UNAVAILABLE",
          message:
            `Room store ${store} unavailable during post (timeout 2000 ms): "connection refused"; ` +
            "the post may or may not have been stored: retry it with its idempotency key",
          details: { store, timeoutMs: 2_000 },
        },
      ],
      [
        new other.StoreResetError(store, "epoch-1", "epoch-2"),
        {
          code: "ERR_STORE_RESET",
          message:
            `Room store ${store} lost its data: expected epoch "epoch-1", found "epoch-2"; rooms continue past their ` +
            "last sequence numbers, but their history, members and read positions are gone. Nothing was done: join " +
            "the room again, then repeat the request",
          details: { store },
        },
      ],
      [
        new other.StoreClosedError(store, "post"),
        { code: "ERR_SHUTTING_DOWN", message: "The broker is shutting down; reconnect and a new broker starts" },
      ],
      [
        new other.RoleNameInvalidError("", 64),
        {
          code: "ERR_INVALID_ROLE_NAME",
          message: 'Invalid role name: expected a non-empty string of at most 64 UTF-8 bytes, got ""',
        },
      ],
    ];
    for (const [error, wire] of cases) {
      expect({ name: error.name, wire: refusalFor(error, "design", "post") }).toEqual({ name: error.name, wire });
    }
  });

  test("an error that only carries a store error's code is no refusal: it goes out as ERR_INTERNAL", () => {
    const lookalike = Object.assign(new Error("Not a member"), { code: "ERR_NOT_MEMBER" });
    expect(refusalFor(lookalike, "design", "post")).toBeUndefined();
    expect(refusalFor({ code: "ERR_STORE_CLOSED" }, "design", "post")).toBeUndefined();
  });
});
