// Every refusal of the Redis store reaches a client with its own code, through the broker's bin as it ships (built
// with the package's own bin build; in `pnpm test:installed`, the bin npm installed from the tarball) against a real
// redis-server. The shipped bin once loaded the installed @orphus/rooms-redis beside its own bundled copy of
// @orphus/rooms and classified the store's errors with `instanceof` across the two copies: every one of these
// arrived as ERR_INTERNAL, and no suite saw it because every suite ran the sources.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { brokerBin, type BrokerBin } from "../../../../test-support/target.js";
import { RawPeer, hello, onCleanup } from "../helpers.js";
import { tempDir } from "../../../../test-support/tmp.js";
import { eventually } from "../../../../test-support/poll.js";

let redis: RedisServer;
let bin: BrokerBin;

beforeAll(async () => {
  [redis, bin] = await Promise.all([startRedisServer(), brokerBin()]);
});

// Each test starts on an empty store (a restart keeps nothing), so one test's 64 rooms do not fill the next one's.
beforeEach(async () => {
  await redis.stop();
  await redis.start();
});

afterAll(async () => {
  bin?.remove();
  await redis?.close();
});

/** The shipped bin serving a fresh agent directory on the test Redis; killed after the test. */
async function startBin(env: NodeJS.ProcessEnv = {}): Promise<string> {
  const agentDir = tempDir();
  const child: ChildProcess = spawn(process.execPath, [bin.bin, "--agent-dir", agentDir, "--idle-ms", "60000"], {
    env: { ...process.env, ORPHUS_ROUNDTABLE_STORE: redis.url, ...env },
    stdio: "ignore",
  });
  onCleanup(() => {
    child.kill("SIGKILL");
  });
  const socketPath = join(agentDir, "roundtable", "broker.sock");
  // Waits for the socket to answer: the bin opens the store first, then claims the socket.
  const peer = await eventually(() => RawPeer.hello(socketPath, "probe"), {
    what: `the bin answers on ${socketPath}`,
  });
  peer.socket.destroy();
  return socketPath;
}

type Frame = Record<string, unknown>;

/** The error of a refused reply; fails the test when the request was not refused. */
function refusal(reply: Frame): { code: string; message: string; details?: Record<string, unknown> } {
  expect(reply).toMatchObject({ ok: false });
  return reply["error"] as { code: string; message: string; details?: Record<string, unknown> };
}

describe("the shipped bin on a Redis store", () => {
  test("every store refusal arrives with its code, its details and its advice", async () => {
    const socketPath = await startBin();
    const planner = await RawPeer.hello(socketPath, "planner");
    let id = 10;
    const ask = (request: Frame): Promise<Frame> => planner.request({ id: ++id, ...request });

    expect(refusal(await ask({ op: "post", room: "design", body: "hi" }))).toMatchObject({
      code: "ERR_NOT_MEMBER",
      details: { room: "design" },
    });
    expect(await ask({ op: "join", room: "design" })).toMatchObject({ ok: true });
    expect(refusal(await ask({ op: "post", room: "design", body: "x".repeat(32 * 1024 + 1) }))).toMatchObject({
      code: "ERR_BODY_TOO_LARGE",
      details: { bytes: 32 * 1024 + 1, maxBodyBytes: 32 * 1024 },
    });
    expect(refusal(await ask({ op: "post", room: "design", body: "hi", headline: "h".repeat(257) }))).toMatchObject({
      code: "ERR_HEADLINE_TOO_LARGE",
      details: { bytes: 257, maxHeadlineBytes: 256 },
    });
    expect(await ask({ op: "post", room: "design", body: "first", idempotencyKey: "k-1" })).toMatchObject({ ok: true });
    expect(refusal(await ask({ op: "post", room: "design", body: "other", idempotencyKey: "k-1" }))).toMatchObject({
      code: "ERR_IDEMPOTENCY_KEY_REUSED",
      details: { room: "design", idempotencyKey: "k-1", seq: 1 },
    });

    // 32 members is the store's limit: the 33rd role is refused.
    const members: RawPeer[] = [];
    for (let i = 0; i < 31; i++) {
      const member = await RawPeer.hello(socketPath, `member-${i}`);
      expect(await member.request({ id: 2, op: "join", room: "design" })).toMatchObject({ ok: true });
      members.push(member);
    }
    const late = await RawPeer.hello(socketPath, "late");
    expect(refusal(await late.request({ id: 2, op: "join", room: "design" }))).toMatchObject({
      code: "ERR_TOO_MANY_MEMBERS",
      details: { maxMembers: 32 },
    });

    // 64 rooms is the store's limit: the 65th is refused.
    for (let room = 1; room < 64; room++)
      expect(await ask({ op: "join", room: `room-${room}` })).toMatchObject({ ok: true });
    expect(refusal(await ask({ op: "join", room: "one-too-many" }))).toMatchObject({
      code: "ERR_TOO_MANY_ROOMS",
      details: { maxRooms: 64 },
    });
  });

  test("an unavailable store and a store that lost its data arrive as their own codes", async () => {
    const socketPath = await startBin();
    const planner = await RawPeer.hello(socketPath, "planner");
    expect(await planner.request({ id: 2, op: "join", room: "outage" })).toMatchObject({ ok: true });

    redis.pause();
    try {
      const unavailable = refusal(await planner.request({ id: 3, op: "post", room: "outage", body: "lost?" }));
      expect(unavailable).toMatchObject({ code: "ERR_STORE_UNAVAILABLE", details: { timeoutMs: 2000 } });
      expect(unavailable.message).toContain("retry it with its idempotency key");
    } finally {
      redis.resume();
    }

    // Redis restarted without persistence: everything it held is gone.
    await redis.stop();
    await redis.start();
    let id = 10;
    const reset = await eventually(
      async () => {
        const reply = await planner.request({ id: id++, op: "post", room: "outage", body: "after the loss" });
        const error = reply["error"] as { code: string; message: string } | undefined;
        // While the store reconnects a request may find it unavailable first; then it finds the reset.
        if (error?.code === "ERR_STORE_UNAVAILABLE") throw new Error("the store is still unavailable");
        return error ?? { code: "ok", message: "" };
      },
      { everyMs: 100, what: "the store answers again after its restart" },
    );
    expect(reset.code).toBe("ERR_STORE_RESET");
    expect(reset.message).toContain("join the room again, then repeat the request");
  });

  test("a version-1 client learns that it must join again from ERR_NOT_MEMBER", async () => {
    const socketPath = await startBin();
    const old = new RawPeer(socketPath);
    await old.connected;
    expect(await old.request(hello(1, "veteran", 1))).toMatchObject({ ok: true });
    expect(refusal(await old.request({ id: 2, op: "post", room: "design", body: "hi" }))).toMatchObject({
      code: "ERR_NOT_MEMBER",
      details: { room: "design" },
    });
  });
});

// The text budget bounds what the broker holds; on Redis it holds no message text, so there is nothing for it to
// bound: status reports none, and a budget given for a Redis store is refused (exit 2) rather than bounding nothing.
describe("the text budget on a Redis store", () => {
  test("status carries no heldText, ORPHUS_ROUNDTABLE_MAX_HELD_BYTES is ignored, --max-held-bytes refused", async () => {
    // The variable is set for every broker a shell starts, some on memory: a broker on Redis starts and ignores it.
    const socketPath = await startBin({ ORPHUS_ROUNDTABLE_MAX_HELD_BYTES: "1048576" });
    const planner = await RawPeer.hello(socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "design" });
    await planner.request({ id: 3, op: "post", room: "design", body: "x".repeat(32 * 1024) });
    const status = await planner.request({ id: 4, op: "status" });
    expect(status).toMatchObject({ ok: true, result: { store: expect.stringMatching(/^redis:\/\//) } });
    expect((status["result"] as Frame)["heldText"]).toBeUndefined();

    const child = spawn(process.execPath, [bin.bin, "--agent-dir", tempDir(), "--max-held-bytes", "67108864"], {
      env: { ...process.env, ORPHUS_ROUNDTABLE_STORE: redis.url },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toBe(
      "orphus-roundtable-broker: Invalid broker option maxHeldBytes: expected to be left out with a Redis store " +
        "(its rooms are held in Redis, not in the broker: bound Redis with maxmemory), got 67108864\n",
    );
  });
});
