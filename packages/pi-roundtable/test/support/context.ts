import { callOf, type StoredMessage } from "./pi.js";

/** Every marker line of a digest starts with this (the digest package's MARKER_PREFIX, pinned literally). */
export const DIGEST_MARKER_PREFIX = "[digest] ";

/** What reached a session's context from the roundtable, as the session stored it. */
export interface RoundtableIntake {
  /** Ping lines (custom messages of the extension whose details say ping). */
  readonly pings: readonly string[];
  /** Other lines of the extension (the role warning). */
  readonly notes: readonly string[];
  /** Results of digest calls, with the budget the call named. */
  readonly digests: readonly { readonly text: string; readonly budget: number }[];
  /** Results of fetch calls. */
  readonly fetches: readonly string[];
  /** Results of every other call (joins, posts: the tool's one-line replies). */
  readonly replies: readonly string[];
}

/** Sorts a session's stored messages into what came from the roundtable. */
export function roundtableIntake(messages: readonly StoredMessage[], defaultBudget: number): RoundtableIntake {
  const intake = {
    pings: [] as string[],
    notes: [] as string[],
    digests: [] as { text: string; budget: number }[],
    fetches: [] as string[],
    replies: [] as string[],
  };
  for (const message of messages) {
    if (message.role === "custom" && message.customType === "roundtable") {
      const kind = (message.details as { kind?: string } | undefined)?.kind;
      (kind === "ping" ? intake.pings : intake.notes).push(message.text);
    }
    if (message.role !== "toolResult" || message.toolName !== "roundtable") continue;
    const call = callOf(messages, message.toolCallId);
    if (call?.["action"] === "digest") {
      intake.digests.push({
        text: message.text,
        budget: typeof call["budget"] === "number" ? call["budget"] : defaultBudget,
      });
    } else if (call?.["action"] === "fetch") intake.fetches.push(message.text);
    else intake.replies.push(message.text);
  }
  return intake;
}

/** Characters in all of it. */
export function intakeChars(intake: RoundtableIntake): number {
  const sum = (texts: readonly string[]): number => texts.reduce((total, text) => total + text.length, 0);
  return (
    sum(intake.pings) +
    sum(intake.notes) +
    sum(intake.digests.map((d) => d.text)) +
    sum(intake.fetches) +
    sum(intake.replies)
  );
}

/** A digest's text without its marker line (if it has one), and how many marker lines it has. */
export function splitMarker(text: string): { readonly budgeted: string; readonly markers: number } {
  const lines = text.split("\n");
  const markers = lines.filter((line) => line.startsWith(DIGEST_MARKER_PREFIX)).length;
  return { budgeted: lines.filter((line) => !line.startsWith(DIGEST_MARKER_PREFIX)).join("\n"), markers };
}
