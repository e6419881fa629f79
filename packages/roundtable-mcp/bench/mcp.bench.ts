// Two figures, each a median ratio to a floor over alternating blocks of the same run (bench-support/harness.ts):
// - mcp.call-overhead: a digest through the MCP server over stdio (an agent CLI's view) against the same digest by
//   a native client on the same broker. Target <= 5x: the extra stdio hop, JSON-RPC and zod may not dominate.
// - mcp.cold-start: spawning the server (from source, as the workspace runs it) until tools/list has answered,
//   against spawning node with the same loader on an empty module, on the same Node. Target <= 4x on Node 20 and
//   <= 8x on Node 24 (the figure is mostly tsx transpiling the module graph, and it swings with the load of a shared
//   machine; the floor shrinks far more on Node 24 than the server's start does: see the notes).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createRoundtableClient } from "@orphus/roundtable-client";
import { compareInBlocks } from "../../../bench-support/harness.js";
import { benchNotes } from "../../../bench-support/report.js";
import { quantile } from "../../../bench-support/stats.js";
import { connectSdkStdio, endBroker, packageRoot, shortAgentDir } from "../test/support/stdio.js";

benchNotes([
  "The extra hop costs well under a millisecond per call: the ratio is large because a native digest on a warm " +
    "connection is fast, not because the server is slow.",
  "The cold start is mostly tsx transpiling the workspace sources the server is run from here; the built bin loads " +
    "plain JavaScript, so a published install starts faster than this figure's subject.",
  "Why the cold-start target is per Node line: node with tsx on an empty module took a median 370 to 572 ms on " +
    "Node 20 and 98 to 200 ms on Node 24, while the server took 1195 to 1656 ms to answer tools/list on Node 20 and " +
    "624 to 1076 ms on Node 24, so the same server is 3.4x to 3.5x of its floor on Node 20 and 5.7x to 7.3x on Node " +
    "24 (two runs on Node 20 and three on Node 24, pinned to one CPU). Held to 4x on Node 24 it would be judged on how " +
    "much faster the floor got; hence at most 4x on Node 20 and at most 8x on Node 24, each against its own line.",
]);

const BLOCKS = 10;
const CALLS_PER_BLOCK = 30;
const WARM_UP = 50;
const STARTS = 5;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const agent = shortAgentDir();
const native = createRoundtableClient({ role: "native", agentDir: agent.dir });
const brokerPid = (await native.connect()).brokerPid;
let mcp: Client | undefined;
try {
  await native.join("bench");
  for (let i = 0; i < 20; i++) await native.post("bench", `message ${i}: ${"x".repeat(200)}`);

  const server = await connectSdkStdio("agent", agent.dir);
  mcp = server.client;
  await mcp.callTool({ name: "roundtable_join", arguments: { room: "bench" } });
  // After a warm-up, in alternating blocks, so both sides see the same load on a shared machine.
  const digestOverMcp = (): Promise<unknown> =>
    (mcp as Client).callTool({ name: "roundtable_digest", arguments: { room: "bench" } });
  for (let i = 0; i < WARM_UP; i++) await Promise.all([digestOverMcp(), native.digest("bench")]);
  const perCallMs = async (call: () => Promise<unknown>): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < CALLS_PER_BLOCK; i++) times.push(await timed(call));
    return quantile(times, 0.5);
  };
  await compareInBlocks({
    name: "mcp.call-overhead",
    about:
      "A digest through the MCP server over stdio (an agent CLI's view), median call, against the same digest by a " +
      "native client on the same broker.",
    unit: "ms per call (median of a block)",
    blocks: BLOCKS,
    warmupBlocks: 0,
    subject: () => perCallMs(digestOverMcp),
    baseline: () => perCallMs(() => native.digest("bench")),
    target: { kind: "at-most", value: 5 },
    detail: ({ subject, baseline }) =>
      `digest over MCP stdio ${subject.toFixed(3)} ms, native ${baseline.toFixed(3)} ms ` +
      `(median call of the median block; ${BLOCKS} blocks of ${CALLS_PER_BLOCK} calls)`,
  });
  await mcp.close();
  mcp = undefined;

  const empty = join(agent.dir, "empty.mjs");
  writeFileSync(empty, "");
  await compareInBlocks({
    name: "mcp.cold-start",
    about:
      "Spawning the MCP server from source until tools/list has answered, against spawning node with the same loader " +
      "(tsx) on an empty module.",
    unit: "ms per start",
    blocks: STARTS,
    subject: async () => {
      let client: Client | undefined;
      const ms = await timed(async () => {
        client = (await connectSdkStdio("starter", agent.dir)).client;
        await client.listTools();
      });
      await client?.close();
      return ms;
    },
    baseline: () =>
      timed(async () => {
        spawnSync(process.execPath, ["--conditions=@orphus/source", "--import", "tsx", empty], { cwd: packageRoot });
      }),
    target: { kind: "at-most", byNode: { 20: 4, 24: 8 } },
    detail: ({ subject, baseline }) =>
      `spawn to tools/list ${subject.toFixed(0)} ms, node+tsx on an empty module ${baseline.toFixed(0)} ms ` +
      `(median of ${STARTS} alternating blocks)`,
  });
} finally {
  await mcp?.close();
  native.close();
  await endBroker(agent.dir, brokerPid);
  agent.remove();
}
