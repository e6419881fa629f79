// What the server says on stderr about its broker, as a host's log shows it: a real server over real stdio, a real
// broker. Every event is one line, prefixed; a broker's multi-line log is folded into the line that quotes it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { until } from "../../../test-support/poll.js";
import { connectSdkStdio, endBroker, shortAgentDir } from "./support/stdio.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function stderrLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line !== "");
}

test("spawned (pid, socket), then lost when the broker dies: one prefixed line each", async () => {
  const agent = shortAgentDir();
  cleanups.push(() => agent.remove());
  const server = await connectSdkStdio("codex", agent.dir);
  cleanups.push(() => server.client.close());
  const socket = join(agent.dir, "roundtable", "broker.sock");
  await until(() => server.stderr().includes("seated as"));
  const spawned = stderrLines(server.stderr()).find((line) => line.includes("broker spawned"));
  expect(spawned).toMatch(
    new RegExp(`^orphus-roundtable-mcp: broker spawned: pid (\\d+), socket ${socket.replace(/[.]/g, "\\.")}$`),
  );
  const pid = Number(/pid (\d+)/.exec(spawned ?? "")?.[1]);
  cleanups.push(() => endBroker(agent.dir));
  process.kill(pid, "SIGKILL");
  await until(() => server.stderr().includes("broker lost"));
  expect(stderrLines(server.stderr()).filter((line) => line.includes("broker lost"))).toEqual([
    expect.stringMatching(
      /^orphus-roundtable-mcp: broker lost \(.+\); the next call reconnects, starting a broker if none answers, and rooms must be joined again$/,
    ),
  ]);
  for (const line of stderrLines(server.stderr())) expect(line).toMatch(/^orphus-roundtable-mcp: /);
}, 30_000);

test("after the broker is killed, the model's first call says it restarted, and join that the room was recreated", async () => {
  const agent = shortAgentDir();
  cleanups.push(() => agent.remove());
  const server = await connectSdkStdio("codex", agent.dir);
  cleanups.push(() => server.client.close());
  cleanups.push(() => endBroker(agent.dir));
  const call = async (name: string, args: Record<string, unknown>): Promise<string | undefined> => {
    const result = (await server.client.callTool({ name, arguments: args })) as { content: { text: string }[] };
    return result.content[0]?.text;
  };
  expect(await call("roundtable_join", { room: "design" })).toContain('Joined "design" as codex (new room)');
  await until(() => server.stderr().includes("seated as"));
  const pid = Number(/broker spawned: pid (\d+)/.exec(server.stderr())?.[1]);
  process.kill(pid, "SIGKILL");
  await until(() => server.stderr().includes("broker lost"));
  const first = await call("roundtable_post", { room: "design", body: "still there?" });
  expect(first).toMatch(
    new RegExp(
      `^The roundtable broker restarted \\(pid ${pid} before, pid \\d+ now\\) and kept its rooms in memory, so every ` +
        "room started empty: your memberships and the rooms' history are gone\\. Join your rooms again: design\\.\n" +
        'roundtable post: Not a member of room "design"; join it first$',
    ),
  );
  expect(await call("roundtable_join", { room: "design" })).toBe(
    'Joined "design" as codex (room recreated: the broker restarted, and its earlier history is gone). Members: codex. Nothing unread.',
  );
}, 30_000);

test("a broker that cannot start: one line with the reason and the log's tail folded in; calls say so too", async () => {
  const agent = shortAgentDir();
  cleanups.push(() => agent.remove());
  // A regular file where the socket goes: the broker refuses to touch it and exits 1, after writing why to its log.
  mkdirSync(join(agent.dir, "roundtable"), { mode: 0o700 });
  writeFileSync(join(agent.dir, "roundtable", "broker.sock"), "not a socket\n");
  const server = await connectSdkStdio("codex", agent.dir);
  cleanups.push(() => server.client.close());
  await until(() => server.stderr().includes("broker start failed"));
  const lines = stderrLines(server.stderr());
  for (const line of lines) expect(line).toMatch(/^orphus-roundtable-mcp: /);
  const failed = lines.filter((line) => line.includes("broker start failed"));
  expect(failed).toHaveLength(1);
  expect(failed[0]).toMatch(
    /^orphus-roundtable-mcp: broker start failed on \S+broker\.sock: the broker process \(pid \d+\) exited with code 1 before it answered; broker log: /,
  );
  expect(failed[0]).toContain("is a regular file, not a socket");
  expect(failed[0]?.length).toBeLessThanOrEqual("orphus-roundtable-mcp: ".length + 1000);
  const result = (await server.client.callTool({ name: "roundtable_rooms", arguments: {} })) as {
    content: { text: string }[];
    isError?: boolean;
  };
  expect(result.isError).toBe(true);
  expect(result.content[0]?.text).toContain("The roundtable broker did not start");
}, 30_000);
