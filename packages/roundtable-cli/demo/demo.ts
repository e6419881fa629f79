// `pnpm demo`: three roles (planner, critic, reviewer) deliberate in one room, each its own process. The first role
// finds no broker and starts one; the others join it. Afterwards: per role, what reached its context against what
// the room holds; then the broker leaves by itself once idle. Runs in a temporary agent directory and cleans up.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { DEMO_ROOM, DEMO_SCRIPT } from "./script.js";
import {
  DEMO_DIGEST_BUDGET,
  DEMO_IDLE_MS,
  DEMO_ROLES,
  type ContextEntry,
  type RoleReport,
} from "./shared.js";

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
const n = (value: number): string => value.toLocaleString("en-US");

const agentDir = mkdtempSync(join(tmpdir(), "orphus-demo-"));
const socketPath = join(agentDir, "roundtable", "broker.sock");
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

interface RoleProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<Extract<RoleReport, { type: "ready" }>>;
  readonly done: Promise<Extract<RoleReport, { type: "done" }>>;
  readonly exited: Promise<number | null>;
}

/** Starts one role the way the demo itself runs: node with tsx and the workspace's source condition. */
function startRole(role: string, onPosted: (report: Extract<RoleReport, { type: "posted" }>) => void): RoleProcess {
  const child = spawn(process.execPath, ["--conditions=@orphus/source", "--import", tsx, rolePath, role], {
    env: { ...process.env, ORPHUS_CODING_AGENT_DIR: agentDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let resolveReady: (r: Extract<RoleReport, { type: "ready" }>) => void = () => undefined;
  let resolveDone: (r: Extract<RoleReport, { type: "done" }>) => void = () => undefined;
  const failed = exited.then((code) => {
    throw new Error(`the ${role} process exited with code ${code} before it finished`);
  });
  const ready = Promise.race([new Promise<Extract<RoleReport, { type: "ready" }>>((r) => (resolveReady = r)), failed]);
  const done = Promise.race([new Promise<Extract<RoleReport, { type: "done" }>>((r) => (resolveDone = r)), failed]);
  ready.catch(() => undefined);
  done.catch(() => undefined);
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const report = JSON.parse(line) as RoleReport;
    if (report.type === "ready") resolveReady(report);
    else if (report.type === "posted") onPosted(report);
    else resolveDone(report);
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

async function main(): Promise<void> {
  out(bold("Orphus roundtable demo: three agents deliberate; each one's context stays bounded"));
  out(dim(`agent directory ${agentDir} (temporary; removed at the end)`));
  out(dim(`broker idle time ${DEMO_IDLE_MS / 1000} s for this demo (default 5 s); digest budget ${DEMO_DIGEST_BUDGET} characters`));
  out(dim("each agent is its own process using the shared roundtable tool: it pulls a digest before it speaks,"));
  out(dim("and between turns only one-line activity pings arrive unasked"));
  out();

  const roomChars = DEMO_SCRIPT.reduce((sum, turn) => sum + turn.body.length, 0);
  const posted = (r: Extract<RoleReport, { type: "posted" }>): void =>
    out(`  #${String(r.seq).padEnd(3)} ${r.role.padEnd(9)}${n(r.chars).padStart(6)} chars  ${oneLine(r.headline, 60)}`);

  const [firstRole, ...otherRoles] = DEMO_ROLES;
  const first = startRole(firstRole, posted);
  const firstReady = await first.ready;
  out(
    `${firstRole.padEnd(9)}joined "${DEMO_ROOM}" ${
      firstReady.spawnedBroker
        ? `— nothing answered on the socket, so it started the broker (pid ${firstReady.brokerPid}), detached`
        : `— a broker (pid ${firstReady.brokerPid}) was already answering`
    }`,
  );
  const others = otherRoles.map((role) => startRole(role, posted));
  for (const [i, other] of others.entries()) {
    const ready = await other.ready;
    out(
      `${(otherRoles[i] ?? "").padEnd(9)}joined "${DEMO_ROOM}" — ${
        ready.spawnedBroker ? `started a broker (pid ${ready.brokerPid})` : `same broker (pid ${ready.brokerPid}), nothing spawned`
      }`,
    );
  }
  const brokerPid = firstReady.brokerPid;
  out();
  out(bold(`The deliberation (${DEMO_SCRIPT.length} messages, ${n(roomChars)} characters; every one stays in the room):`));

  const roles = [first, ...others];
  const reports = await Promise.all(roles.map((r) => r.done));
  const codes = await Promise.all(roles.map((r) => r.exited));
  const lastLeft = performance.now();
  if (codes.some((code) => code !== 0)) throw new Error(`a role exited with code ${codes.join(", ")}`);

  out();
  out(bold("What reached each agent's context, against what the room holds:"));
  const header = ["role", "pings", "digests", "replies", "in context", "room holds", "share", ""];
  const rows = reports.map((report) => {
    const sum = (kind: ContextEntry["kind"]) =>
      report.context.filter((e) => e.kind === kind).reduce((total, e) => total + e.text.length, 0);
    const count = (kind: ContextEntry["kind"]) => report.context.filter((e) => e.kind === kind).length;
    const total = sum("ping") + sum("digest") + sum("reply");
    const share = total / roomChars;
    const bar = "█".repeat(Math.max(1, Math.round(share * 40))).padEnd(40, "·");
    return [
      report.role,
      `${count("ping")} = ${n(sum("ping"))}`,
      `${count("digest")} = ${n(sum("digest"))}`,
      `${count("reply")} = ${n(sum("reply"))}`,
      n(total),
      n(roomChars),
      `${(share * 100).toFixed(1)}%`,
      green(bar),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const render = (row: readonly string[]) =>
    "  " + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(i === 7 ? 0 : (widths[i] ?? 0)))).join("  ");
  out(dim(render(header)));
  for (const row of rows) out(render(row));
  out(dim("  pings: one line per quiet period, counts and names only · digests: pulled, each at most the budget plus one"));
  out(dim("  marker line · replies: the tool's confirmations (joined, posted #n)"));

  out(dim(`  pushing every message to every agent instead would have put all ${n(roomChars)} characters in each context`));

  const critic = reports.find((r) => r.role === "critic");
  if (critic !== undefined) {
    const pings = critic.context.filter((e) => e.kind === "ping");
    out();
    out(bold("The critic's transcript, as its model sees it:"));
    for (const ping of pings.slice(0, 3)) out(`  ${ping.text}`);
    if (pings.length > 3) out(dim(`  … and ${pings.length - 3} more ping line(s) like these`));
    // The digest that stood in for the most room text, verbatim.
    const digests = critic.context
      .filter((e) => e.kind === "digest")
      .map((e) => {
        const seqs = coveredSeqs(e.text);
        return { text: e.text, seqs, chars: seqs.reduce((sum, seq) => sum + (DEMO_SCRIPT[seq - 1]?.body.length ?? 0), 0) };
      })
      .sort((a, b) => b.chars - a.chars);
    const biggest = digests[0];
    if (biggest !== undefined && biggest.seqs.length > 0) {
      out();
      out(
        `One of its digests, verbatim: messages #${Math.min(...biggest.seqs)}–#${Math.max(...biggest.seqs)} ` +
          `hold ${n(biggest.chars)} characters in the room; the critic received ${n(biggest.text.length)}:`,
      );
      for (const line of biggest.text.split("\n")) out(dim("  │ ") + line);
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
  out();
  out(`Done in ${elapsed()}.`);
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
