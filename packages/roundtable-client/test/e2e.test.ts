import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { WireRefusalError } from "@orphus/roundtable-protocol";
import { startBroker } from "@orphus/roundtable-broker";
import { ConnectionLostError, renderActivityNotice, runRoundtableTool } from "@orphus/roundtable-client";
import { useAgentDir } from "../../../test-support/brokers.js";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { alive, gone } from "../../../test-support/processes.js";
import { until } from "../../../test-support/poll.js";

const agent = useAgentDir();

function processGroup(pid: number): number {
  return Number(execFileSync("ps", ["-o", "pgid=", "-p", String(pid)], { encoding: "utf8" }).trim());
}

test("a client that never touches a room connects to nothing and spawns nothing", async () => {
  const spawns: number[] = [];
  // Anything a client deferred would run on its timers or in a later turn: an hour of its clock passes, then a turn.
  const timers = manualTimers();
  const client = agent.client({
    role: "planner",
    timers,
    onSpawn: (b) => spawns.push(b.pid ?? -1),
    onActivity: () => undefined,
  });
  expect(timers.pending()).toEqual([]);
  timers.advance(3_600_000);
  await new Promise((resolve) => setImmediate(resolve));
  expect(spawns).toEqual([]);
  expect(client.connected).toBe(false);
  expect(readdirSync(agent.dir())).toEqual([]);
  client.close();
});

test("fifty parallel first calls spawn one detached broker over one connection; it exits on its own once idle", async () => {
  const client = agent.client({ role: "planner" });
  const results = await Promise.all(Array.from({ length: 50 }, () => client.rooms()));
  expect(results).toHaveLength(50);
  expect(agent.spawned).toHaveLength(1);
  expect(client.connectCount).toBe(1);
  const pid = client.broker?.brokerPid as number;
  expect(pid).toBe(agent.spawned[0]);
  expect(processGroup(pid)).toBe(pid);
  const socketPath = join(agent.dir(), "roundtable", "broker.sock");
  expect(await client.status()).toMatchObject({ socketPath, connections: 1 });
  expect(await client.join("design")).toMatchObject({ room: "design", created: true, members: ["planner"] });
  client.close();
  await gone(pid);
  expect(existsSync(socketPath)).toBe(false);
});

test("three clients racing to start the broker end up on one broker", async () => {
  const clients = ["planner", "critic", "reviewer"].map((role) => agent.client({ role }));
  const hellos = await Promise.all(clients.map((c) => c.connect()));
  const pids = new Set(hellos.map((h) => h.brokerPid));
  expect(pids.size).toBe(1);
  const [winner] = pids;
  expect(agent.spawned).toContain(winner);
  // Every other broker that was spawned stood down (after probing the winner, which briefly counts the probe).
  await until(() => agent.spawned.filter((pid) => pid !== winner).every((pid) => !alive(pid)));
  expect((await clients[0]?.status())?.connections).toBe(3);
  await Promise.all(clients.map((c) => c.join("design")));
  expect((await clients[1]?.members("design"))?.members).toEqual(["critic", "planner", "reviewer"]);
});

test("after kill -9 of the broker, pending calls fail, the next post is a loud not-a-member, and join recovers", async () => {
  const planner = agent.client({ role: "planner" });
  await planner.join("design");
  await planner.post("design", "before the crash");
  const firstPid = planner.broker?.brokerPid as number;
  const waiting = planner.waitForPost({ room: "design", timeoutMs: 10_000 });
  process.kill(firstPid, "SIGKILL");
  await expect(waiting).rejects.toBeInstanceOf(ConnectionLostError);

  const refused = await planner.post("design", "after the crash").catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(WireRefusalError);
  expect(refused).toMatchObject({
    wireCode: "ERR_NOT_MEMBER",
    message: 'Not a member of room "design"; join it first',
  });
  const secondPid = planner.broker?.brokerPid as number;
  expect(secondPid).not.toBe(firstPid);
  expect(agent.spawned).toEqual([firstPid, secondPid]);

  const rejoined = await planner.join("design");
  expect(rejoined).toMatchObject({ created: true, newestSeq: 0 });
  expect(await planner.post("design", "after the rejoin")).toMatchObject({ seq: 1 });
  // The tool's first call after the restart tells of it (the client's own calls above leave it to the tool), naming
  // no room to join again: design was.
  const tool = await runRoundtableTool(planner, { action: "post", room: "elsewhere", body: "x" });
  expect(tool).toEqual({
    text:
      `The roundtable broker restarted (pid ${firstPid} before, pid ${secondPid} now) and kept its rooms in memory, so ` +
      "every room started empty: your memberships and the rooms' history are gone. Join the rooms you need again.\n" +
      'roundtable post: Not a member of room "elsewhere"; join it first',
    isError: true,
  });
  const again = await runRoundtableTool(planner, { action: "post", room: "elsewhere", body: "x" });
  expect(again).toEqual({ text: 'roundtable post: Not a member of room "elsewhere"; join it first', isError: true });
});

test("pings and the tool's wait run over a real broker", async () => {
  const start = await startBroker({ agentDir: agent.dir(), idleMs: 60_000 });
  if (start.status !== "listening") throw new Error(`broker did not start: ${start.status}`);
  const lines: string[] = [];
  const planner = agent.client({
    role: "planner",
    spawnBroker: false,
    pingWindowMs: 50,
    onActivity: (n) => lines.push(renderActivityNotice(n)),
  });
  const critic = agent.client({ role: "critic", spawnBroker: false });
  try {
    await planner.join("design");
    await critic.join("design");
    const waited = runRoundtableTool(planner, { action: "wait", room: "design", timeoutSeconds: 20 });
    await critic.post("design", "a long body that must never appear in a ping ".repeat(10));
    await critic.post("design", "second");
    expect((await waited).text).toMatch(/^design: [12] unread\. Digest to read\.$/);
    await until(() => lines.length > 0);
    expect(lines.join("\n")).not.toContain("long body");
    expect(lines[0]).toMatch(/^\[roundtable\] design: [12] new from critic — digest to read$/);
    const digest = await runRoundtableTool(planner, { action: "digest", room: "design", budget: 200 });
    expect(digest.text).toContain("[#2 critic] second");
  } finally {
    planner.close();
    critic.close();
    await start.broker.close();
  }
});
