// One role of `pnpm demo`, run as its own process: joins the room through the shared roundtable tool, speaks its
// scripted turns (pulling a digest before each, as an agent reads before it answers), and reports to the demo
// everything that entered its context: activity pings, digests, and the tool's one-line replies.
import { createRoundtableClient, renderActivityNotice, runRoundtableTool } from "@orphus/roundtable-client";
import { DEMO_ROOM, DEMO_SCRIPT } from "./script.js";
import { DEMO_DIGEST_BUDGET, DEMO_IDLE_MS, DEMO_PAUSE_MS, DEMO_ROLES, type ContextEntry, type RoleReport } from "./shared.js";

const role = process.argv[2] ?? "";
if (!(DEMO_ROLES as readonly string[]).includes(role)) {
  process.stderr.write(`role.ts: expected one of ${DEMO_ROLES.join(", ")}, got ${JSON.stringify(role)}\n`);
  process.exit(2);
}

const report = (message: RoleReport): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const context: ContextEntry[] = [];
let spawnedBroker = false;

const client = createRoundtableClient({
  role,
  brokerIdleMs: DEMO_IDLE_MS,
  onActivity: (notice) => context.push({ kind: "ping", text: renderActivityNotice(notice) }),
  onSpawn: () => {
    spawnedBroker = true;
  },
});

// The newest sequence number seen in the room, from pings' raw events and from this role's own posts.
let newest = 0;
let wake: (() => void) | undefined;
client.onEvent((event) => {
  if (event.event === "post" && event.seq > newest) {
    newest = event.seq;
    wake?.();
  }
});
async function untilSeq(seq: number): Promise<void> {
  while (newest < seq) await new Promise<void>((resolve) => (wake = resolve));
}

async function use(input: Record<string, unknown>, kind: ContextEntry["kind"]): Promise<string> {
  const result = await runRoundtableTool(client, { room: DEMO_ROOM, ...input });
  if (result.isError) throw new Error(result.text);
  context.push({ kind, text: result.text });
  return result.text;
}

await use({ action: "join" }, "reply");
report({ type: "ready", role, brokerPid: client.broker?.brokerPid ?? 0, spawnedBroker });

// The planner opens once everybody is in the room (orchestration, not part of anyone's context).
if (role === "planner") {
  while ((await client.members(DEMO_ROOM)).members.length < DEMO_ROLES.length) await sleep(50);
}

for (const [index, turn] of DEMO_SCRIPT.entries()) {
  if (turn.role !== role) continue;
  await untilSeq(index);
  if (turn.pauseBefore === true) await sleep(DEMO_PAUSE_MS);
  await use({ action: "digest", budget: DEMO_DIGEST_BUDGET }, "digest");
  await sleep(40 + ((index * 37) % 80)); // thinking
  await use({ action: "post", body: turn.body, headline: turn.headline }, "reply");
  newest = Math.max(newest, index + 1);
  report({ type: "posted", role, seq: index + 1, chars: turn.body.length, headline: turn.headline });
}

// Catch up on the conclusion, as an agent would before moving on, then leave.
await untilSeq(DEMO_SCRIPT.length);
client.flushActivity();
await use({ action: "digest", budget: DEMO_DIGEST_BUDGET }, "digest");
report({ type: "done", role, context });
client.close();
