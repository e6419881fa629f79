// Credentials never show: not in a store's description, not in any error, whatever went wrong.
import { afterAll, beforeAll, expect, test } from "vitest";
import { openRedisRoomStore } from "@orphus/rooms-redis";
import {
  REDIS_TEST_PASSWORD,
  REDIS_TEST_USER,
  startRedisServer,
  type RedisServer,
} from "../../../../test-support/redis-server.js";

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.close();
});

async function failure(url: string): Promise<Error & { code?: string }> {
  try {
    const store = await openRedisRoomStore({ url, timeoutMs: 1_000 });
    await store.close();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("the store opened");
}

test("a store's description masks its password", async () => {
  const store = await openRedisRoomStore({ url: server.url });
  try {
    expect(store.description).toBe(`redis://${REDIS_TEST_USER}:***@127.0.0.1:${server.port}`);
  } finally {
    await store.close();
  }
});

test("a wrong password fails with a coded error that names neither the wrong nor the right one", async () => {
  const wrong = "not-the-password-42";
  const error = await failure(`redis://${REDIS_TEST_USER}:${wrong}@127.0.0.1:${server.port}`);
  expect(error.code).toBe("ERR_STORE_UNAVAILABLE");
  expect(error.message).toContain("WRONGPASS");
  expect(error.message).toContain(`redis://${REDIS_TEST_USER}:***@127.0.0.1`);
  expect(JSON.stringify({ message: error.message, stack: error.stack })).not.toContain(wrong);
  expect(error.message).not.toContain(REDIS_TEST_PASSWORD);
});

test("a server that is not there fails within the timeout, masked", async () => {
  const error = await failure(`redis://${REDIS_TEST_USER}:${REDIS_TEST_PASSWORD}@127.0.0.1:1`);
  expect(error.code).toBe("ERR_STORE_UNAVAILABLE");
  expect(error.message).not.toContain(REDIS_TEST_PASSWORD);
});

test.each([
  [`http://${REDIS_TEST_USER}:${REDIS_TEST_PASSWORD}@127.0.0.1:6379`, "the scheme is http"],
  [`redis://${REDIS_TEST_USER}:${REDIS_TEST_PASSWORD}@127.0.0.1:6379/zero`, "the path is not a database number"],
  [`redis:${REDIS_TEST_PASSWORD}`, "it names no host"],
  [`${REDIS_TEST_USER}:${REDIS_TEST_PASSWORD}@127.0.0.1`, "the scheme is orphus"],
  [`//${REDIS_TEST_USER}:${REDIS_TEST_PASSWORD}@127.0.0.1`, "not a URL"],
])("a URL that is not a Redis URL is refused, masked: %#", async (url, problem) => {
  const error = await failure(url);
  expect(error.code).toBe("ERR_STORE_URL_INVALID");
  expect(error.message).toContain(problem);
  expect(error.message).not.toContain(REDIS_TEST_PASSWORD);
});
