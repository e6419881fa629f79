import { boundedText, MAX_PING_LINE_CHARS } from "@orphus/roundtable-client";
import { claimSession } from "./claim.js";
import { registerRoundtableCommand } from "./command.js";
import { ROLE_FLAG, ROUNDTABLE_MESSAGE_TYPE } from "./names.js";
import type { PiContext, PiExtensionApi } from "./pi.js";
import { SessionOutlet } from "./pings/outlet.js";
import { RoundtableSeat, type RoundtableExtensionOptions } from "./seat.js";
import { sharedTools } from "./tools/index.js";
import { registerSharedTools } from "./tools/shared.js";

/** A pi extension: what pi calls with its ExtensionAPI when it loads the extension into a session. */
export type PiExtension = (pi: PiExtensionApi) => void;

/**
 * Builds the extension with options (tests and embedders); pi loads {@link roundtableExtension}, the same with
 * defaults. In each session it registers the shared tools and `/roundtable`, and connects on the first call only.
 */
export function createRoundtableExtension(options: RoundtableExtensionOptions = {}): PiExtension {
  return (pi) => {
    const release = claimSession(pi.events);
    if (release === undefined) return; // another copy of this extension already sits in this session
    pi.registerFlag(ROLE_FLAG, {
      type: "string",
      description: "The roundtable role this session speaks as (default: the session name, then ORPHUS_ROUNDTABLE_ROLE)",
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
      ...(options.pingWindowMs === undefined ? {} : { windowMs: options.pingWindowMs }),
      ...(options.timers === undefined ? {} : { timers: options.timers }),
    });
    const seat = new RoundtableSeat(pi, options, {
      onActivity: (notice) => outlet.ping(notice),
      onWarning: (line) => outlet.note(line),
    });

    registerSharedTools(pi, sharedTools(seat));
    registerRoundtableCommand(pi, seat, options);
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
      release();
      context = undefined;
    });
  };
}

/** The extension as pi loads it (the package's default export): options from the environment. */
export const roundtableExtension: PiExtension = createRoundtableExtension();
