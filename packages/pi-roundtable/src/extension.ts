import { boundedText, MAX_PING_LINE_CHARS } from "@orphus/roundtable-client";
import { claimSession } from "./claim.js";
import { findMemory, loadMemoryPackage } from "./memory/package.js";
import { MemorySeat } from "./memory/seat.js";
import { registerRoundtableCommand } from "./command.js";
import { ROLE_FLAG, ROUNDTABLE_MESSAGE_TYPE } from "./names.js";
import type { PiContext, PiExtensionApi } from "./pi.js";
import { SessionOutlet } from "./pings/outlet.js";
import { ROLE_SOURCE_LABELS } from "./role.js";
import { RoundtableSeat, type RoundtableExtensionOptions } from "./seat.js";
import { sharedTools } from "./tools/index.js";
import { registerSharedTools } from "./tools/shared.js";

/** A pi extension: what pi calls with its ExtensionAPI when it loads the extension into a session (and awaits). */
export type PiExtension = (pi: PiExtensionApi) => Promise<void>;

/**
 * Builds the extension with options (tests and embedders); pi loads {@link roundtableExtension}, the same with
 * defaults. In each session it registers the shared tools (`roundtable`, `memory`) and `/roundtable`; the client
 * connects, and the memory store opens, on the first call of each tool only.
 */
export function createRoundtableExtension(options: RoundtableExtensionOptions = {}): PiExtension {
  return async (pi) => {
    const release = claimSession(pi.events);
    if (release === undefined) return; // another copy of this extension already sits in this session
    pi.registerFlag(ROLE_FLAG, {
      type: "string",
      description:
        "The roundtable role this session speaks as (default: the session name, then ORPHUS_ROUNDTABLE_ROLE)",
    });

    // Any context of the session answers isIdle(); the latest one seen is kept for the outlet's timers.
    let context: PiContext | undefined;
    const outlet = new SessionOutlet({
      host: {
        // Every line this extension adds to a session passes the one sanitiser and the ping line's bound here,
        // whatever made it (a ping, the role warning quoting a session name).
        send: (text, details) =>
          pi.sendMessage({
            customType: ROUNDTABLE_MESSAGE_TYPE,
            content: boundedText(text, MAX_PING_LINE_CHARS),
            display: true,
            details,
          }),
        isIdle: () => context?.isIdle() ?? true,
      },
      // What the session's own wait reported is not pinged again (the seat is made below, before any ping).
      reportedThrough: (room) => seat.client?.reportedThrough(room),
      ...(options.pingWindowMs === undefined ? {} : { windowMs: options.pingWindowMs }),
      ...(options.timers === undefined ? {} : { timers: options.timers }),
    });
    const seat = new RoundtableSeat(pi, options, {
      onActivity: (notice) => outlet.ping(notice),
      onWarning: (line) => outlet.note(line),
    });
    // The memory package is imported now (its tool's schema is needed to register it), its store on the first call.
    const memory = await findMemory(options.loadMemory ?? loadMemoryPackage);
    const memorySeat = memory.available
      ? new MemorySeat(memory.memory, {
          ...(options.agentDir === undefined ? {} : { agentDir: options.agentDir }),
          ...(options.env === undefined ? {} : { env: options.env }),
          role: () => {
            const role = seat.role();
            return { role: role.role, source: ROLE_SOURCE_LABELS[role.source] };
          },
        })
      : undefined;

    registerSharedTools(pi, sharedTools(seat, memory, memorySeat));
    registerRoundtableCommand(pi, seat, options, { memory, memorySeat });
    pi.on("session_start", (_event, ctx) => {
      context = ctx;
    });
    pi.on("tool_call", (_event, ctx) => {
      context = ctx;
    });
    // Any tool call that finished, ours or not, is a point where a waiting line enters without a turn of its own.
    pi.on("tool_result", (_event, ctx) => {
      context = ctx;
      outlet.toolFinished();
    });
    pi.on("session_shutdown", () => {
      outlet.dispose();
      seat.close();
      memorySeat?.close();
      release();
      context = undefined;
    });
  };
}

/** The extension as pi loads it (the package's default export): options from the environment. */
export const roundtableExtension: PiExtension = createRoundtableExtension();
