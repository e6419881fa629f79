// `pnpm demo`: three roles (planner, critic, reviewer) deliberate in one room and a librarian files their decision in
// the shared memory, each role its own process. The first role finds no broker and starts one; the others join it.
// Meanwhile the same deliberation is played again with every body 1×, 10× and 100× as long (grown.ts), in one process
// on a broker of its own. Afterwards: per role, what reached its context against what the room holds and what the
// others wrote, pulled unasked apart from fetched; the same shares as the room grows; the largest digest against its
// budget; the one message read whole on demand; the memory answering another role; then the broker leaving by
// itself once idle. Runs in a temporary agent directory and cleans up.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { MAX_MARKER_LENGTH } from "@orphus/digest";
import { DEFAULT_MAX_BODY_BYTES } from "@orphus/rooms";
import { DEMO_SIZES, playSizes } from "./grown.js";
import { contextTable, intakeOf, measureDigest, n, percent, sizeTable, withinBound } from "./report.js";
import { DEMO_ROLES, DEMO_ROOM, DEMO_SCRIPT } from "./script.js";
import { DEMO_DIGEST_BUDGET, DEMO_IDLE_MS, type RoleReport } from "./shared.js";

/** The whole demo must finish within this, or it stops its processes and fails. */
const DEADLINE_MS = 55_000;

const started = performance.now();
const elapsed = (): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const out = (line = ""): void => void process.stdout.write(`${line}\n`);
const color = process.stdout.isTTY === true && process.env["NO_COLOR"] === undefined;
const paint = (code: string) => (text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
const bold = paint("1");
const dim = paint("2");
const green = paint("32");

const agentDir = mkdtempSync(join(tmpdir(), "orphus-demo-"));
const socketPath = join(agentDir, "roundtable", "broker.sock");
const memoryDir = join(agentDir, "memory");
const tsx = createRequire(import.meta.url).resolve("tsx");
const rolePath = join(import.meta.dirname, "role.ts");
const children: ChildProcess[] = [];

function cleanUp(): void {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(agentDir, { recursive: true, force: true });
}

const deadline = setTimeout(() => {
  process.stderr.write(`demo: did not finish within ${DEADLINE_MS / 1000} s; stopping\n`);
  cleanUp();
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

type Report<T extends RoleReport["type"]> = Extract<RoleReport, { type: T }>;

interface RoleProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<Report<"ready">>;
  readonly done: Promise<Report<"done">>;
  readonly exited: Promise<number | null>;
}

/** Starts one role the way the demo itself runs: node with tsx and the workspace's source condition. */
function startRole(role: string, onReport: (report: RoleReport) => void): RoleProcess {
  const child = spawn(process.execPath, ["--conditions=@orphus/source", "--import", tsx, rolePath, role], {
    // The demo's own agent directory and memory store: nothing of the user's is read or written.
    env: { ...process.env, ORPHUS_CODING_AGENT_DIR: agentDir, ORPHUS_MEMORY_DIR: memoryDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let resolveReady: (r: Report<"ready">) => void = () => undefined;
  let resolveDone: (r: Report<"done">) => void = () => undefined;
  const failed = exited.then((code) => {
    throw new Error(`the ${role} process exited with code ${code} before it finished`);
  });
  const ready = Promise.race([new Promise<Report<"ready">>((r) => (resolveReady = r)), failed]);
  const done = Promise.race([new Promise<Report<"done">>((r) => (resolveDone = r)), failed]);
  ready.catch(() => undefined);
  done.catch(() => undefined);
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const report = JSON.parse(line) as RoleReport;
    if (report.type === "ready") resolveReady(report);
    else if (report.type === "done") resolveDone(report);
    else onReport(report);
  });
  return { child, ready, done, exited };
}

/** True while the process runs. A zombie (exited, not yet reaped by whoever inherited it) counts as gone. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc (macOS): signal 0 is the best answer there
  }
}

/** The sequence numbers a digest covers: its message headers and its collapse marker's range. */
function coveredSeqs(digest: string): number[] {
  const seqs = [...digest.matchAll(/^\[#(\d+) /gm)].map((m) => Number(m[1]));
  for (const m of digest.matchAll(/collapsed \(#(\d+)(?:–#(\d+))?\)/g)) {
    const from = Number(m[1]);
    for (let seq = from; seq <= Number(m[2] ?? from); seq++) seqs.push(seq);
  }
  return seqs;
}

function oneLine(text: string, width: number): string {
  const line = text.replace(/\s*\n\s*/g, " ⏎ ");
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** A text shown verbatim, framed so it cannot be taken for the demo's own lines. */
function verbatim(text: string): void {
  for (const line of text.split("\n")) out(dim("  │ ") + line);
}

async function main(): Promise<void> {
  out(
    bold(
      "Orphus roundtable demo: three agents deliberate, a librarian files the decision; every context stays bounded",
    ),
  );
  out(dim(`agent directory ${agentDir} (temporary; removed at the end)`));
  out(
    dim(
      `broker idle time ${DEMO_IDLE_MS / 1000} s for this demo (default 5 s); digest budget ${DEMO_DIGEST_BUDGET} characters`,
    ),
  );
  out(
    dim("each agent is its own process using the shared roundtable tool: it pulls a digest before it speaks, fetches"),
  );
  out(dim("a message whole only when it asks, and between turns only one-line activity pings arrive unasked"));
  out();

  const roomChars = DEMO_SCRIPT.reduce((sum, turn) => sum + turn.body.length, 0);
  const fetches: Report<"fetched">[] = [];
  const memory: Report<"memory">[] = [];
  const onReport = (r: RoleReport): void => {
    if (r.type === "posted") {
      out(
        `  #${String(r.seq).padEnd(3)} ${r.role.padEnd(10)}${n(r.chars).padStart(6)} chars  ${oneLine(r.headline, 60)}`,
      );
    } else if (r.type === "fetched") {
      fetches.push(r);
      out(
        green(
          `       ${r.role.padEnd(10)}fetched #${r.seq} whole before speaking: ${n(r.chars)} characters, on demand`,
        ),
      );
    } else if (r.type === "memory") {
      memory.push(r);
      out(green(`       ${r.role.padEnd(10)}memory ${r.action} ${r.input}`));
    }
  };

  const [firstRole, ...otherRoles] = DEMO_ROLES;
  const first = startRole(firstRole, onReport);
  const firstReady = await first.ready;
  out(
    `${firstRole.padEnd(10)}joined "${DEMO_ROOM}" ${
      firstReady.spawnedBroker
        ? `— nothing answered on the socket, so it started the broker (pid ${firstReady.brokerPid}), detached`
        : `— a broker (pid ${firstReady.brokerPid}) was already answering`
    }`,
  );
  const others = otherRoles.map((role) => startRole(role, onReport));
  for (const [i, other] of others.entries()) {
    const ready = await other.ready;
    out(
      `${(otherRoles[i] ?? "").padEnd(10)}joined "${DEMO_ROOM}" — ${
        ready.spawnedBroker
          ? `started a broker (pid ${ready.brokerPid})`
          : `same broker (pid ${ready.brokerPid}), nothing spawned`
      }`,
    );
  }
  const brokerPid = firstReady.brokerPid;
  // The larger rooms, played while the agents deliberate (they mostly wait on each other), in a directory of their own.
  const grown = playSizes(DEMO_SCRIPT, DEMO_SIZES, join(agentDir, "grown"));
  grown.catch(() => undefined);
  out();
  out(
    bold(`The deliberation (${DEMO_SCRIPT.length} messages, ${n(roomChars)} characters; every one stays in the room):`),
  );

  const roles = [first, ...others];
  const reports = await Promise.all(roles.map((r) => r.done));
  const codes = await Promise.all(roles.map((r) => r.exited));
  const lastLeft = performance.now();
  if (codes.some((code) => code !== 0)) throw new Error(`a role exited with code ${codes.join(", ")}`);

  // --- what reached each context -----------------------------------------------------------------------------------
  const intakes = reports.map((report) => intakeOf(report.role, report.context, DEMO_SCRIPT));
  out();
  out(bold("What reached each agent's context, against what the room holds and what the others wrote:"));
  const [header, ...rows] = contextTable(intakes);
  out(dim(`  ${header}`));
  for (const row of rows) out(`  ${row}`);
  out(
    dim("  pings: one line per quiet period, counts and names only · digests: pulled, each within the budget plus one"),
  );
  out(
    dim("  marker line · fetches: whole messages, asked for · memory: the memory tool's answers · replies: the tool's"),
  );
  out(
    dim(
      "  confirmations (joined, posted #n) · others wrote: the posts the agent did not write itself (its own it never",
    ),
  );
  out(
    dim(
      "  needed pushed back; counting them would flatter the share) · pulled unasked: pings + digests / others wrote ·",
    ),
  );
  out(
    dim(
      "  fetched: fetches / others wrote · of others': in context / others wrote · of the room: in context / every post",
    ),
  );
  out(
    dim(`  pushing every message to every agent instead would have put all ${n(roomChars)} characters in each context`),
  );

  // --- the same deliberation, larger ---------------------------------------------------------------------------------
  const runs = await grown;
  const sizes = runs.map((run) => ({
    factor: run.factor,
    posts: run.posts,
    intakes: run.contexts.map(({ role, context }) => intakeOf(role, context, run.posts)),
  }));
  const multiples = DEMO_SIZES.map((factor) => `${factor}×`);
  out();
  out(
    bold(
      `The same deliberation as the room grows: every body ${multiples.join(", ")} as long, the same turns and tool calls:`,
    ),
  );
  const [sizeHeader, ...sizeRows] = sizeTable(sizes);
  out(dim(`  ${sizeHeader}`));
  for (const row of sizeRows) out(`  ${row}`);
  out(
    dim(
      "  played meanwhile in one process, a client per role, on a broker of its own; bodies grown with generated log",
    ),
  );
  out(
    dim(
      `  lines, posted in parts of at most ${n(DEFAULT_MAX_BODY_BYTES)} bytes (the broker's limit) · pulled unasked: pings + digests ·`,
    ),
  );
  out(
    dim(
      "  fetched: the same fetches of one message whole (of a message posted in parts, its first) · each cell: characters",
    ),
  );
  out(
    dim(
      "  = their share of what the others wrote at that size · pings at the same quiet periods; memory steps left out",
    ),
  );

  // --- the digest's bound ----------------------------------------------------------------------------------------
  const digests = reports.flatMap((report) =>
    report.context
      .filter((e) => e.kind === "digest")
      .map((e) => ({ role: report.role, text: e.text, ...measureDigest(e.text) })),
  );
  const outOfBound = digests.filter((d) => !withinBound(d, DEMO_DIGEST_BUDGET));
  if (outOfBound.length > 0) throw new Error(`${outOfBound.length} digest(s) over the budget plus one marker line`);
  const largest = [...digests].sort((a, b) => b.text.length - a.text.length)[0];
  if (largest !== undefined) {
    out();
    out(
      bold(`The largest of all ${digests.length} digests, beside its budget of ${n(DEMO_DIGEST_BUDGET)}: `) +
        `${n(largest.text.length)} characters (the ${largest.role}'s) = ${n(largest.budgeted)} within the budget` +
        (largest.markers === 0
          ? ""
          : ` + one marker line of ${largest.marker} (a marker is at most ${MAX_MARKER_LENGTH})`) +
        ". Every digest kept that bound, whatever the room held.",
    );
  }

  // --- one message read whole, on demand ---------------------------------------------------------------------------
  const fetch = fetches[0];
  const fetched = fetch === undefined ? undefined : DEMO_SCRIPT[fetch.seq - 1];
  if (fetch !== undefined && fetched !== undefined) {
    const reader = reports.find((r) => r.role === fetch.role);
    const pointer = reader?.context
      .filter((e) => e.kind === "digest")
      .map(
        (e) =>
          new RegExp(`^ *… \\d+ more characters: fetch afterSeq=${fetch.seq - 1} to read it whole$`, "m").exec(
            e.text,
          )?.[0],
      )
      .find((line) => line !== undefined);
    out();
    out(
      bold(
        `Full text on demand: the ${fetch.role} fetched #${fetch.seq} ("${fetched.headline}", ${n(fetched.body.length)} characters) whole.`,
      ),
    );
    const alone = fetches.filter((f) => f.seq === fetch.seq).length === 1;
    out(
      `  Its digest had shown an excerpt${pointer === undefined ? "" : ` ending "${pointer.trim()}"`}; the fetch put ` +
        `${n(fetch.chars)} characters in its context, once, because it asked.` +
        (alone ? " No other agent fetched it: their digests carried an excerpt or a headline of it, no more." : ""),
    );
  }

  // --- the memory, once --------------------------------------------------------------------------------------------
  const filed = memory.find((m) => m.action === "ingest");
  const asked = memory.find((m) => m.action === "query");
  if (filed !== undefined && asked !== undefined) {
    out();
    out(
      bold(`The memory, once: the ${filed.role} filed the decision (memory ingest ${filed.input}); the tool answered:`),
    );
    verbatim(filed.text);
    out(bold(`Later the ${asked.role} asked the memory (query ${asked.input}) and read, verbatim:`));
    verbatim(asked.text);
    out(
      dim(
        `  the store (${join(memoryDir, "memory.db")}) outlives the room: rooms go with their broker, the memory stays`,
      ),
    );
    out(dim("  (here until the demo removes its temporary directory)"));
  }

  // --- a digest, verbatim ------------------------------------------------------------------------------------------
  const critic = reports.find((r) => r.role === "critic");
  if (critic !== undefined) {
    const pings = critic.context.filter((e) => e.kind === "ping");
    out();
    out(bold("The critic's transcript, as its model sees it:"));
    for (const ping of pings.slice(0, 3)) out(`  ${ping.text}`);
    if (pings.length > 3) out(dim(`  … and ${pings.length - 3} more ping line(s) like these`));
    // The digest that stood in for the most room text, verbatim.
    const biggest = critic.context
      .filter((e) => e.kind === "digest")
      .map((e) => {
        const seqs = coveredSeqs(e.text);
        return {
          text: e.text,
          seqs,
          chars: seqs.reduce((sum, seq) => sum + (DEMO_SCRIPT[seq - 1]?.body.length ?? 0), 0),
        };
      })
      .sort((a, b) => b.chars - a.chars)[0];
    if (biggest !== undefined && biggest.seqs.length > 0) {
      out();
      out(
        `One of its digests, verbatim: messages #${Math.min(...biggest.seqs)}–#${Math.max(...biggest.seqs)} ` +
          `hold ${n(biggest.chars)} characters in the room; the critic received ${n(biggest.text.length)}:`,
      );
      verbatim(biggest.text);
    }
  }

  out();
  out(bold("The broker, after the last agent left:"));
  while (alive(brokerPid)) await new Promise((resolve) => setTimeout(resolve, 25));
  const idleFor = (performance.now() - lastLeft) / 1000;
  out(
    `  pid ${brokerPid} exited by itself ${idleFor.toFixed(1)} s after the last agent disconnected ` +
      `(idle time ${DEMO_IDLE_MS / 1000} s); socket ${existsSync(socketPath) ? "still present" : "removed"}; ` +
      "the rooms went with it.",
  );
  // The larger rooms' broker leaves the same way, once their seats have closed.
  for (const pid of new Set(runs.map((run) => run.brokerPid))) {
    while (pid !== undefined && alive(pid)) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const shares = intakes.map((i) => `${i.role} ${percent(i.shareOfOthers)}`).join(", ");
  const falls = sizes[0]?.intakes
    .map(({ role }) => {
      const of = sizes.map(
        (size) => size.intakes.find((intake) => intake.role === role)?.unaskedOfOthers ?? Number.NaN,
      );
      return `${role} ${of.map(percent).join(" → ")}`;
    })
    .join(", ");
  out();
  out(`Done in ${elapsed()}. Share of the others' text in each context: ${shares}.`);
  out(`Share of the others' text pulled unasked (pings + digests) at ${multiples.join(" → ")}: ${falls ?? "—"}.`);
}

try {
  await main();
  cleanUp();
  clearTimeout(deadline);
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  const log = join(agentDir, "roundtable", "broker.log");
  if (existsSync(log)) process.stderr.write(`(broker log: ${log})\n`);
  cleanUp();
  process.exitCode = 1;
}
