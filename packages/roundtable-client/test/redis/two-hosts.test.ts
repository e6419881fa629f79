// Two "hosts" on one Redis: two agent directories, each with its own broker process (spawned by its clients from
// source, the store setting passed in their environment), sharing rooms through a real redis-server. Members on
// both see each other's posts under gapless seqs and hear each other's pings; a role's digest depends on the store
// alone; a broker killed and restarted keeps rooms and seqs; a Redis restarted without persistence is detected
// and told to every member, and seqs continue past the last one.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { WireRefusalError, announcedPosts, type RoundtableEvent } from "@orphus/roundtable-protocol";
import { createRoundtableClient, runRoundtableTool, type RoundtableClient } from "@orphus/roundtable-client";
import { startRedisServer, type RedisServer } from "../../../../test-support/redis-server.js";
import { alive, gone } from "../../../../test-support/processes.js";
import { until } from "../../../../test-support/poll.js";
import { shortTempDir } from "../../../../test-support/tmp.js";

let redis: RedisServer;
const hosts = { east: "", west: "" };
const removals: (() => void)[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  for (const host of ["east", "west"] as const) {
    const temp = shortTempDir(`rt-${host}-`);
    removals.push(temp.remove);
    hosts[host] = temp.dir;
  }
});

const clients: RoundtableClient[] = [];
const brokers = new Set<number>();

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

afterAll(async () => {
  for (const pid of brokers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await redis?.close();
  for (const remove of removals) remove();
});

/** A session on `host`, speaking as `role`, whose events are recorded; its broker is spawned with the store setting. */
function session(host: keyof typeof hosts, role: string): { client: RoundtableClient; events: RoundtableEvent[] } {
  const client = createRoundtableClient({
    agentDir: hosts[host],
    role,
    env: { ...process.env, ORPHUS_ROUNDTABLE_STORE: redis.url },
    brokerIdleMs: 2_000,
    requestTimeoutMs: 10_000,
    onWarning: () => undefined,
  });
  clients.push(client);
  const events: RoundtableEvent[] = [];
  client.onEvent((event) => events.push(event));
  return { client, events };
}

async function brokerPid(client: RoundtableClient): Promise<number> {
  const { brokerPid: pid } = await client.connect();
  brokers.add(pid);
  return pid;
}

/** Seqs of `author`'s posts the events announce, in either form: posts a burst brings merge into one posts event. */
const posts = (events: readonly RoundtableEvent[], author: string): number[] =>
  events.flatMap((e) => announcedPosts(e).flatMap((p) => (p.author === author ? [p.seq] : [])));

describe("two hosts on one Redis", () => {
  test("members on both see each other's posts with gapless seqs, and pings cross over", async () => {
    const planner = session("east", "planner");
    const critic = session("west", "critic");
    const [eastPid, westPid] = [await brokerPid(planner.client), await brokerPid(critic.client)];
    expect(eastPid).not.toBe(westPid);
    expect((await planner.client.status()).store).toBe(redis.url.replace(/:[^:@/]+@/, ":***@"));
    await planner.client.join("r");
    expect(await critic.client.join("r")).toMatchObject({ created: false, members: ["critic", "planner"] });
    const sent = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0 ? planner.client.post("r", `east ${i}`) : critic.client.post("r", `west ${i}`),
      ),
    );
    expect(sent.map((p) => p.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const { client } of [planner, critic]) {
      const page = await client.fetch("r", { afterSeq: 0, limit: 50 });
      expect(page.messages.map((m) => m.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    }
    // Each hears the other's twenty posts from the other broker, and none of its own.
    await until(() => posts(planner.events, "critic").length === 20 && posts(critic.events, "planner").length === 20);
    expect(posts(planner.events, "critic").sort((a, b) => a - b)).toEqual(
      sent
        .filter((_, i) => i % 2 === 1)
        .map((p) => p.seq)
        .sort((a, b) => a - b),
    );
    expect(posts(planner.events, "planner")).toEqual([]);
    expect(planner.events).toContainEqual({ event: "join", room: "r", seq: 0, role: "critic" });
  });

  test("a role's digest depends on the store alone: the same history and cursor give the same bytes on both", async () => {
    const scribeEast = session("east", "scribe");
    const scribeWest = session("west", "scribe");
    const readerEast = session("east", "reader");
    const readerWest = session("west", "reader");
    for (const [scribe, reader, room] of [
      [scribeEast, readerEast, "mirror-a"],
      [scribeWest, readerWest, "mirror-b"],
    ] as const) {
      await scribe.client.join(room);
      await reader.client.join(room);
      for (let i = 1; i <= 12; i++) {
        await scribe.client.post(room, `Point ${i}: ${"the ring keeps its seqs; ".repeat(i)}`, {
          headline: `point ${i}`,
        });
      }
    }
    const east = await readerEast.client.digest("mirror-a", { budget: 900 });
    const west = await readerWest.client.digest("mirror-b", { budget: 900 });
    expect(east.text.length).toBeGreaterThan(0);
    expect(west.text).toBe(east.text);
    expect({ ...west, room: "" }).toEqual({ ...east, room: "" });
  });

  test("a broker killed and restarted keeps the rooms and the seqs", async () => {
    const planner = session("east", "planner");
    const critic = session("west", "critic");
    await planner.client.join("keep");
    await critic.client.join("keep");
    for (let i = 0; i < 5; i++) await planner.client.post("keep", `before ${i}`);
    const killed = await brokerPid(planner.client);
    // The client hears of the kill on its socket; the process may be gone (a zombie) before it has read that.
    const lost = new Promise<void>((resolve) => planner.client.onConnectionLost(() => resolve()));
    process.kill(killed, "SIGKILL");
    await lost;
    await gone(killed);
    // The next call finds the socket stale, spawns a broker with the same setting, and the room is there.
    const rooms = await planner.client.rooms();
    const restarted = await brokerPid(planner.client);
    expect(restarted).not.toBe(killed);
    expect(rooms.rooms).toContainEqual(expect.objectContaining({ room: "keep", newestSeq: 5 }));
    // Membership belongs to the role while any live broker holds it: the restarted broker holds planner again.
    expect(await planner.client.post("keep", "after")).toMatchObject({ seq: 6 });
    await until(() => posts(critic.events, "planner").includes(6));
    expect(alive(restarted)).toBe(true);
  });

  test("Redis restarted without persistence: detected, told to every member, and seqs never reused", async () => {
    const planner = session("east", "planner");
    const critic = session("west", "critic");
    await planner.client.join("reset");
    await critic.client.join("reset");
    const before = await planner.client.post("reset", "before the reset");
    await redis.stop();
    await redis.start();
    // The first call to find the data gone fails with ERR_STORE_RESET (or ERR_STORE_UNAVAILABLE while the client
    // reconnects), and nothing it asked for is done.
    const seen = new Set<string>();
    await until(
      async () => {
        try {
          await planner.client.rooms();
          return seen.has("ERR_STORE_RESET") || planner.events.some((e) => e.event === "reset");
        } catch (error) {
          if (!(error instanceof WireRefusalError)) throw error;
          seen.add(error.wireCode);
          return error.wireCode === "ERR_STORE_RESET";
        }
      },
      { everyMs: 100 },
    );
    expect([...seen].every((code) => code === "ERR_STORE_RESET" || code === "ERR_STORE_UNAVAILABLE")).toBe(true);
    // Both brokers detect it (the other on its next heartbeat) and tell every member.
    await until(() => [planner, critic].every(({ events }) => events.some((e) => e.event === "reset")), {
      everyMs: 50,
    });
    const reset = critic.events.find((e) => e.event === "reset");
    expect(reset).toEqual({ event: "reset", seq: 0, store: redis.url.replace(/:[^:@/]+@/, ":***@") });
    // The critic sent nothing since: its next request naming a room is refused with the reset, nothing done, and the
    // tool's text says plainly what happened and what to do.
    expect(
      await runRoundtableTool(critic.client, { action: "post", room: "reset", body: "as if nothing happened" }),
    ).toEqual({
      isError: true,
      text: expect.stringMatching(
        /^roundtable post: Room store \S+ lost its data; .* Nothing was done: join the room again, then repeat the request$/,
      ),
    });
    // Memberships are gone: told once (by the refusal above or by one its own request met), a post is refused until
    // the role joins again, and then it continues past the old seq.
    const first = (await planner.client
      .post("reset", "lost membership")
      .catch((error: unknown) => error)) as WireRefusalError;
    expect(["ERR_STORE_RESET", "ERR_NOT_MEMBER"]).toContain(first.wireCode);
    await expect(planner.client.post("reset", "lost membership")).rejects.toMatchObject({ wireCode: "ERR_NOT_MEMBER" });
    await planner.client.join("reset");
    await critic.client.join("reset");
    const after = await critic.client.post("reset", "after the reset");
    expect(after.seq).toBeGreaterThan(before.seq);
    const page = await planner.client.fetch("reset", { afterSeq: 0 });
    expect(page.messages.map((m) => m.body)).toEqual(["after the reset"]);
    expect(page.evicted).toMatchObject({ toSeq: after.seq - 1 });
  });
});
