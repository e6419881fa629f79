// One role of `pnpm demo`, run as its own process: joins the room through the shared roundtable tool, speaks its
// scripted turns (pulling a digest before each, as an agent reads before it answers; fetching a message whole or
// using the memory tool where its turn says so), and reports to the demo everything that entered its context:
// activity pings, digests, fetches, memory answers, and the tool's one-line replies.
import type { MemoryStore } from "@orphus/memory";
import { DEMO_ROLES, DEMO_ROOM, DEMO_SCRIPT, type Turn } from "./script.js";
import { Seat } from "./seat.js";
import { DEMO_PAUSE_MS, type RoleReport } from "./shared.js";

const role = process.argv[2] ?? "";
if (!(DEMO_ROLES as readonly string[]).includes(role)) {
  process.stderr.write(`role.ts: expected one of ${DEMO_ROLES.join(", ")}, got ${JSON.stringify(role)}\n`);
  process.exit(2);
}

const report = (message: RoleReport): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
let spawnedBroker = false;

const seat = new Seat(role, DEMO_ROOM, {
  onSpawn: () => {
    spawnedBroker = true;
  },
});
const { client, context } = seat;
// The memory store of the demo's agent directory (ORPHUS_MEMORY_DIR, set by the demo), acting as this role; loaded
// only by a role whose turns use it, so the others start as fast as before.
const memoryTool = DEMO_SCRIPT.some((turn) => turn.role === role && turn.memory !== undefined)
  ? await import("@orphus/memory")
  : undefined;
const memory: MemoryStore | undefined = memoryTool?.openMemory({ role });

/** The memory tool once, as a host would run it; its answer enters the context like any tool result. */
function useMemory(input: Record<string, unknown>, shown: string): void {
  if (memoryTool === undefined || memory === undefined) throw new Error(`${role} has no memory step in the script`);
  const result = memoryTool.runMemoryTool(memory, input);
  if (result.isError) throw new Error(result.text);
  context.push({ kind: "memory", text: result.text });
  report({ type: "memory", role, action: input["action"] as "ingest" | "query", input: shown, text: result.text });
}

/** The first message of a fetched page as the tool shows it, without its `[#seq author]` header and the page's notes. */
function messageText(page: string): string {
  const lines = page.split("\n");
  const end = lines.findIndex((line, i) => i > 0 && line.startsWith("(") && line.endsWith(")"));
  const message = (end === -1 ? lines : lines.slice(0, end)).join("\n");
  // Later lines of a body are indented two spaces in a page, so none passes for a header.
  return message.replace(/^\[#\d+ [^\]]+\] /, "").replace(/\n {2}/g, "\n");
}

/** What a turn does before its post: a fetch of one message whole, then the memory, when the script says so. */
async function before(turn: Turn): Promise<void> {
  let fetched = "";
  if (turn.fetchBefore !== undefined) {
    fetched = await seat.fetchWhole(turn.fetchBefore);
    report({ type: "fetched", role, seq: turn.fetchBefore, chars: fetched.length });
  }
  const step = turn.memory;
  if (step?.action === "ingest") {
    // What the librarian files is the message it fetched, as it read it (without the page's header and notes).
    const source = `roundtable:${DEMO_ROOM}#${turn.fetchBefore ?? 0}`;
    const body = messageText(fetched);
    useMemory(
      { action: "ingest", title: step.title, body, tags: [...step.tags], source },
      `"${step.title}", from ${source}`,
    );
  } else if (step?.action === "query") {
    useMemory({ action: "query", query: step.query, budget: step.budget }, `"${step.query}", budget ${step.budget}`);
  }
}

await seat.use({ action: "join" }, "reply");
report({ type: "ready", role, brokerPid: client.broker?.brokerPid ?? 0, spawnedBroker });

// The planner opens once everybody is in the room (orchestration, not part of anyone's context).
if (role === "planner") {
  while ((await client.members(DEMO_ROOM)).members.length < DEMO_ROLES.length) await sleep(50);
}

for (const [index, turn] of DEMO_SCRIPT.entries()) {
  if (turn.role !== role) continue;
  await seat.untilSeq(index);
  if (turn.pauseBefore === true) await sleep(DEMO_PAUSE_MS);
  await seat.digest();
  await before(turn);
  await sleep(40 + ((index * 37) % 80)); // thinking
  await seat.use({ action: "post", body: turn.body, headline: turn.headline }, "reply");
  seat.heard(index + 1);
  report({ type: "posted", role, seq: index + 1, chars: turn.body.length, headline: turn.headline });
}

// Catch up on the conclusion, as an agent would before moving on, then leave.
await seat.untilSeq(DEMO_SCRIPT.length);
client.flushActivity();
await seat.digest();
report({ type: "done", role, context });
memory?.close();
client.close();
