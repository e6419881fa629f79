// The viewer's cost to the broker: posts per second through a broker watched by a viewer with ten open tabs (the
// viewer in its own process, as `roundtable view` runs, its tabs reading their event streams)
// 1. against the same posts through an identical broker that nobody watches (target: at least 0.9x): what watching
//    with a viewer costs in all, the broker's watch included;
// 2. against an identical broker watched by a bare watcher that drops what it hears (bench/bare-watch.ts; target: at
//    least 0.9x): what the viewer and its tabs add to the watch itself.
// Each block posts 2,000 messages of 200 characters, 32 in flight, into a room of the author and two listening
// members; the brokers are bundled bins from the same build, the sides alternating in blocks
// (bench-support/harness.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRoundtableClient, locateBroker, type RoundtableClient } from "@orphus/roundtable-client";
import { compareInBlocks, elapsedMs } from "../../../bench-support/harness.js";
import { benchNotes } from "../../../bench-support/report.js";
import { brokerBin } from "../../../test-support/target.js";

const POSTS = 2000;
const IN_FLIGHT = 32;
const BODY = "x".repeat(200);
const TABS = 10;

const cleanups: (() => void)[] = [];
const { bin, remove } = await brokerBin();
cleanups.push(remove);

interface Seat {
  readonly author: RoundtableClient;
  readonly listeners: RoundtableClient[];
  readonly socketPath: string;
}

async function seat(name: string): Promise<Seat> {
  const agentDir = mkdtempSync(join(tmpdir(), `rtv-bench-${name}-`));
  cleanups.push(() => rmSync(agentDir, { recursive: true, force: true }));
  const options = {
    agentDir,
    brokerCommand: { command: process.execPath, args: [bin, "--agent-dir", agentDir, "--idle-ms", "600000"] },
    onWarning: () => undefined,
  };
  const author = createRoundtableClient({ ...options, role: "author" });
  await author.join("bench");
  const listeners = [
    createRoundtableClient({ ...options, role: "planner" }),
    createRoundtableClient({ ...options, role: "critic" }),
  ];
  for (const listener of listeners) await listener.join("bench");
  cleanups.push(() => {
    author.close();
    for (const listener of listeners) listener.close();
  });
  return { author, listeners, socketPath: locateBroker({ ...options, role: "author" }).socketPath };
}

async function postBlock(target: Seat): Promise<void> {
  for (let sent = 0; sent < POSTS; sent += IN_FLIGHT) {
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < IN_FLIGHT && sent + i < POSTS; i++) batch.push(target.author.post("bench", BODY));
    await Promise.all(batch);
  }
}

/** Starts one of this folder's programs from source (viewer-tabs.ts, bare-watch.ts); resolves once it is ready. */
function startWatcher(program: string, socketPath: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--conditions=@orphus/source", "--import", "tsx", join(import.meta.dirname, program), socketPath, String(TABS)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  cleanups.push(() => child.kill("SIGTERM"));
  return new Promise((resolve) => child.stdout?.once("data", () => resolve(child)));
}

benchNotes([
  "Where the cost lies, from the first runs (Node 20, two cores shared with other work at a load average near 10): " +
    "against no watcher, the viewer with ten tabs gave 0.48x to 0.71x over four runs, and a bare watcher alone (no " +
    "viewer, bench/bare-watch.ts in place of the viewer) 0.68x; with no tab open the viewer gave 0.78x. The posts/s " +
    "of the watched broker stayed within one range (about 7,400) whether the viewer had ten tabs or none, so most of " +
    "the shortfall is the broker's own work for a watcher (a watch event per post, its headline sanitised, the " +
    "room read each turn), not the tabs. Against the bare watcher, what the viewer and its tabs add, the runs gave " +
    "0.69x to 0.89x: the viewer's process competes with the broker for the same two cores.",
]);

try {
  const watched = await seat("watched");
  const bare = await seat("bare");
  const alone = await seat("alone");
  await startWatcher("viewer-tabs.ts", watched.socketPath);
  await startWatcher("bare-watch.ts", bare.socketPath);
  await compareInBlocks({
    name: "roundtable-viewer.posts-with-ten-tabs",
    about: `posts/s through a broker watched by a viewer with ${TABS} open tabs, against an identical broker nobody watches`,
    subject: () => elapsedMs(() => postBlock(watched)),
    baseline: () => elapsedMs(() => postBlock(alone)),
    ratio: "throughput",
    blocks: 21,
    target: { kind: "at-least", value: 0.9 },
    detail: ({ subject, baseline }) =>
      `${Math.round((POSTS / subject) * 1000)} posts/s watched, ${Math.round((POSTS / baseline) * 1000)} alone`,
  });
  await compareInBlocks({
    name: "roundtable-viewer.posts-with-ten-tabs-vs-bare-watch",
    about: `posts/s through a broker watched by a viewer with ${TABS} open tabs, against one watched by a bare watcher`,
    subject: () => elapsedMs(() => postBlock(watched)),
    baseline: () => elapsedMs(() => postBlock(bare)),
    ratio: "throughput",
    blocks: 21,
    target: { kind: "at-least", value: 0.9 },
    detail: ({ subject, baseline }) =>
      `${Math.round((POSTS / subject) * 1000)} posts/s with the viewer, ${Math.round((POSTS / baseline) * 1000)} with a bare watch`,
  });
} finally {
  for (const cleanup of cleanups.reverse()) cleanup();
}
