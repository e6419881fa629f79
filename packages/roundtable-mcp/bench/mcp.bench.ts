// Two figures, each a ratio to a floor measured in the same run:
// - mcp.call-overhead: a digest through the MCP server over stdio (an agent CLI's view) against the same digest by
//   a native client on the same broker. Target <= 5x: the extra stdio hop, JSON-RPC and zod may not dominate.
// - mcp.cold-start: spawning the server (from source, as the workspace runs it) until tools/list has answered,
//   against spawning node with the same loader on an empty module. Target <= 4x (the figure is mostly tsx
//   transpiling the module graph, and it swings with the load of a shared machine).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createRoundtableClient } from "@orphus/roundtable-client";
import { quantile, reportRatio } from "../../../bench-support/report.js";
import { connectSdkStdio, endBroker, packageRoot, shortAgentDir } from "../test/support/stdio.js";

const CALLS = 300;
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
  // Interleaved, after a warm-up, so both sides see the same load on a shared machine.
  const digestOverMcp = (): Promise<unknown> =>
    (mcp as Client).callTool({ name: "roundtable_digest", arguments: { room: "bench" } });
  for (let i = 0; i < WARM_UP; i++) await Promise.all([digestOverMcp(), native.digest("bench")]);
  const mcpTimes: number[] = [];
  const nativeTimes: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    mcpTimes.push(await timed(digestOverMcp));
    nativeTimes.push(await timed(() => native.digest("bench")));
  }
  const overMcp = quantile(mcpTimes, 0.5);
  const direct = quantile(nativeTimes, 0.5);
  reportRatio({
    name: "mcp.call-overhead",
    ratio: overMcp / direct,
    target: { kind: "at-most", value: 5 },
    detail: `digest over MCP stdio ${overMcp.toFixed(3)} ms, native ${direct.toFixed(3)} ms (median of ${CALLS})`,
  });
  await mcp.close();
  mcp = undefined;

  const empty = join(agent.dir, "empty.mjs");
  writeFileSync(empty, "");
  const floors: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    floors.push(
      await timed(async () => {
        spawnSync(process.execPath, ["--conditions=@orphus/source", "--import", "tsx", empty], { cwd: packageRoot });
      }),
    );
    let client: Client | undefined;
    starts.push(
      await timed(async () => {
        client = (await connectSdkStdio("starter", agent.dir)).client;
        await client.listTools();
      }),
    );
    await client?.close();
  }
  const floor = quantile(floors, 0.5);
  const start = quantile(starts, 0.5);
  reportRatio({
    name: "mcp.cold-start",
    ratio: start / floor,
    target: { kind: "at-most", value: 4 },
    detail: `spawn to tools/list ${start.toFixed(0)} ms, node+tsx on an empty module ${floor.toFixed(0)} ms (median of ${STARTS})`,
  });
} finally {
  await mcp?.close();
  native.close();
  await endBroker(agent.dir, brokerPid);
  agent.remove();
}
