import { boundedText, runRoundtableTool, shownName, shownPath } from "@orphus/roundtable-client";
import { doctorReport } from "./doctor.js";
import type { MemoryAvailability } from "./memory/package.js";
import type { MemorySeat } from "./memory/seat.js";
import { MAX_COMMAND_TEXT_CHARS } from "./limits.js";
import { ROLE_FLAG, ROUNDTABLE_COMMAND } from "./names.js";
import type { PiContext, PiExtensionApi } from "./pi.js";
import { ROLE_SOURCE_LABELS, type SessionRole } from "./role.js";
import type { RoundtableExtensionOptions, RoundtableSeat } from "./seat.js";

/** What `/roundtable` with an unknown argument answers. */
export const COMMAND_USAGE = `usage: /${ROUNDTABLE_COMMAND} [status|doctor]: status shows the broker, your rooms and unread counts; doctor looks for what would keep sessions apart`;

/** Where the command's text goes: the session's UI, or stderr when pi runs without one (print and JSON modes). */
export type CommandOutput = (ctx: PiContext, text: string, level: "info" | "error") => void;

/** Where the command's text goes, by default: pi's UI, else stderr. */
const defaultOutput: CommandOutput = (ctx, text, level) => {
  if (ctx.hasUI) ctx.ui.notify(text, level);
  else process.stderr.write(`${text}\n`);
};

function roleLine(role: SessionRole, fixed: boolean): string {
  const when = fixed ? "" : " (fixed at the first roundtable call)";
  const warning = role.ephemeral ? "; read positions die with this process" : "";
  return `role ${role.role} (${ROLE_SOURCE_LABELS[role.source]})${when}${warning}`;
}

/** What the status says of the memory store: whether the package is there, and the session's store. */
export interface MemoryStatus {
  readonly memory: MemoryAvailability;
  readonly memorySeat: MemorySeat | undefined;
}

/** The memory line of the status: where the session's store is, and whether it is open; nothing is opened or read. */
function memoryLine(status: MemoryStatus): string {
  const { memory, memorySeat } = status;
  if (!memory.available || memorySeat === undefined) {
    return `memory: not available (${memory.available ? "no store" : memory.reason}); the memory tool says how to install it`;
  }
  const state = memorySeat.opened ? "open" : "not opened: this session has made no memory call";
  return `memory: store ${shownPath(memorySeat.storePath())} (${state})`;
}

/**
 * The status text: role, agent directory, the memory store (when given), the broker this session is connected to,
 * and its rooms with unread counts.
 */
export async function statusText(seat: RoundtableSeat, memory?: MemoryStatus): Promise<string> {
  const lines = [`roundtable: agent directory ${shownPath(seat.location().agentDir)}`];
  try {
    lines.push(roleLine(seat.role(), seat.client !== undefined));
  } catch (error) {
    lines.push(`role: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (memory !== undefined) lines.push(memoryLine(memory));
  const client = seat.client;
  if (client === undefined) {
    lines.push("broker: not connected; this session has not used the roundtable, so nothing was started");
    return lines.join("\n");
  }
  const hello = client.broker;
  if (!client.connected) {
    lines.push(
      "broker: not connected; the next roundtable call connects (and starts one if none runs), then join your rooms again",
    );
    return lines.join("\n");
  }
  lines.push(`broker: pid ${hello?.brokerPid ?? "?"}, version ${shownName(hello?.brokerVersion ?? "?")}, connected`);
  // The rooms list is the shared tool's own text, so the status and the model read the same lines.
  // A broker restart is the model's to read: the status leaves it for the next call of the tool.
  const rooms = await runRoundtableTool(client, { action: "rooms" }, { tellRestart: false });
  lines.push(rooms.isError ? `rooms: ${rooms.text}` : `rooms:\n${rooms.text}`);
  return lines.join("\n");
}

/** What the doctor is told of the session's role: the name, the fallback it speaks as, or nothing to look for itself. */
function doctorRole(
  seat: RoundtableSeat,
  host: Pick<PiExtensionApi, "getFlag">,
): { role?: string; fallbackRole?: string } {
  try {
    const role = seat.role();
    // From the variable the doctor reads it itself (and says so); a fallback name is this session's problem.
    if (role.source === "flag" || role.source === "session-name") return { role: role.role };
    return role.ephemeral ? { fallbackRole: role.role } : {};
  } catch {
    const flag = host.getFlag(ROLE_FLAG);
    return typeof flag === "string" ? { role: flag } : {};
  }
}

/** The doctor speaks of the CLI's --as; a pi session names its role otherwise. */
export const DOCTOR_PI_ROLE_HINT = `in pi: /name <role>, or pi --${ROLE_FLAG} <role>, gives this session a stable role`;

/** Registers `/roundtable` (status) and `/roundtable doctor`. Failures are shown, never thrown into pi. */
export function registerRoundtableCommand(
  pi: PiExtensionApi,
  seat: RoundtableSeat,
  options: RoundtableExtensionOptions,
  memory?: MemoryStatus,
  output: CommandOutput = defaultOutput,
): void {
  // Whatever the command shows (the status, the doctor, a failure) passes the one sanitiser and a bound here.
  const show = (ctx: PiContext, text: string, level: "info" | "error"): void =>
    output(ctx, boundedText(text, MAX_COMMAND_TEXT_CHARS), level);
  pi.registerCommand(ROUNDTABLE_COMMAND, {
    description: "Roundtable status (broker, rooms, unread per room); /roundtable doctor to diagnose",
    getArgumentCompletions: (prefix) => {
      const items = ["status", "doctor"].filter((word) => word.startsWith(prefix.trim()));
      return items.length === 0 ? null : items.map((word) => ({ value: word, label: word }));
    },
    handler: async (args, ctx) => {
      const word = args.trim().toLowerCase();
      try {
        if (word === "" || word === "status") return show(ctx, await statusText(seat, memory), "info");
        if (word === "doctor") {
          const { role, fallbackRole } = doctorRole(seat, pi);
          const { agentDir, env } = options;
          const text = await doctorReport({
            ...(role === undefined ? {} : { role }),
            ...(fallbackRole === undefined ? {} : { fallbackRole }),
            ...(agentDir === undefined ? {} : { agentDir }),
            ...(env === undefined ? {} : { env }),
          });
          return show(ctx, fallbackRole === undefined ? text : `${text}\n${DOCTOR_PI_ROLE_HINT}`, "info");
        }
        show(ctx, COMMAND_USAGE, "error");
      } catch (error) {
        show(ctx, `/${ROUNDTABLE_COMMAND} ${word}: ${error instanceof Error ? error.message : String(error)}`, "error");
      }
    },
  });
}
