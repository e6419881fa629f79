import { expect, test } from "vitest";
import * as redis from "@orphus/rooms-redis";

test("the public runtime surface is exactly these names", () => {
  expect(Object.keys(redis).sort()).toEqual([
    "DEFAULT_ACTIVITY_RETAINED",
    "DEFAULT_HEARTBEAT_MS",
    "DEFAULT_KEY_PREFIX",
    "DEFAULT_MEMBER_TTL_MS",
    "DEFAULT_STORE_TIMEOUT_MS",
    "DEFAULT_WATCH_BLOCK_MS",
    "RedisRoomStore",
    "StoreLimitsMismatchError",
    "StoreUrlInvalidError",
    "openRedisRoomStore",
  ]);
});

test("the default limits", () => {
  expect({
    DEFAULT_ACTIVITY_RETAINED: redis.DEFAULT_ACTIVITY_RETAINED,
    DEFAULT_HEARTBEAT_MS: redis.DEFAULT_HEARTBEAT_MS,
    DEFAULT_KEY_PREFIX: redis.DEFAULT_KEY_PREFIX,
    DEFAULT_MEMBER_TTL_MS: redis.DEFAULT_MEMBER_TTL_MS,
    DEFAULT_STORE_TIMEOUT_MS: redis.DEFAULT_STORE_TIMEOUT_MS,
    DEFAULT_WATCH_BLOCK_MS: redis.DEFAULT_WATCH_BLOCK_MS,
  }).toEqual({
    DEFAULT_ACTIVITY_RETAINED: 256,
    DEFAULT_HEARTBEAT_MS: 5_000,
    DEFAULT_KEY_PREFIX: "orphus:roundtable:",
    DEFAULT_MEMBER_TTL_MS: 15_000,
    DEFAULT_STORE_TIMEOUT_MS: 2_000,
    DEFAULT_WATCH_BLOCK_MS: 5_000,
  });
});

test("every error class has a stable code and name", () => {
  expect(
    [new redis.StoreUrlInvalidError("x", "y"), new redis.StoreLimitsMismatchError("s", "a", "b")].map((error) => [
      error.name,
      error.code,
    ]),
  ).toEqual([
    ["StoreUrlInvalidError", "ERR_STORE_URL_INVALID"],
    ["StoreLimitsMismatchError", "ERR_STORE_LIMITS_MISMATCH"],
  ]);
});
