import type { PiEventBus } from "./pi.js";

/** The event-bus channel on which a loaded copy of this extension answers for its session. */
export const CLAIM_CHANNEL = "orphus:pi-roundtable:claim";

/** What a new copy sends on the channel; a copy already seated in the session marks it taken. */
interface ClaimProbe {
  taken: boolean;
}

/**
 * Claims the session for this copy of the extension, unless another copy already has it. pi gives every extension
 * of one session the same event bus (`pi.events`) and delivers its events synchronously, so a copy loaded twice
 * (a global install and a project one, or a settings entry beside `-e`) hears the first one answer and stands
 * down instead of registering a second tool, command and client. Returns the release function, or undefined when
 * the session is taken. Release on session shutdown, so the copy that /reload loads can claim it again.
 */
export function claimSession(events: PiEventBus): (() => void) | undefined {
  const probe: ClaimProbe = { taken: false };
  events.emit(CLAIM_CHANNEL, probe);
  if (probe.taken) return undefined;
  return events.on(CLAIM_CHANNEL, (data) => {
    if (typeof data === "object" && data !== null && "taken" in data) (data as ClaimProbe).taken = true;
  });
}
