import { fetchMessageChars, type FetchedMessage, type ResultFor } from "@orphus/roundtable-protocol";
import { shownName } from "./shown.js";
import { plural } from "@orphus/internal";

/**
 * `text` (sanitised: its line breaks are "\n") with `indent` before every line after the first that holds
 * something, so no line of a body starts where a message's header does. Blank lines stay empty.
 */
export function indentContinuation(text: string, indent: string): string {
  return text.replace(/\n(?=.)/g, `\n${indent}`);
}

/** How one reader shows a fetched page: each message, and the way to read on from a sequence number. */
export interface FetchPageStyle {
  /** One message, without a trailing newline; peer text made safe by the style (names escaped, bodies sanitised). */
  message(message: FetchedMessage): string;
  /** What to do to read the messages after `afterSeq` (e.g. `fetch again with afterSeq=4`). */
  readOn(afterSeq: number): string;
}

/**
 * A fetched page as text: what was evicted before it, its messages in full, then why the first one may pass the cap
 * and how to read on. The tool and the CLI share it, so both say the same things about a page.
 */
export function renderFetchPage(result: ResultFor<"fetch">, style: FetchPageStyle): string {
  const lines: string[] = [];
  if (result.evicted !== undefined && result.evicted.count > 0) {
    const { count, fromSeq, toSeq } = result.evicted;
    lines.push(`(${plural(count, "message")} #${fromSeq}–#${toSeq} left the room's buffer and cannot be fetched.)`);
  }
  const [first] = result.messages;
  if (first === undefined) {
    lines.push(`No messages to fetch in "${shownName(result.room)}" (newest is #${result.newestSeq}).`);
    return lines.join("\n");
  }
  for (const message of result.messages) lines.push(style.message(message));
  const firstChars = fetchMessageChars(first);
  if (firstChars > result.maxChars) {
    lines.push(
      `(#${first.seq} is ${firstChars} characters, over the page's ${result.maxChars}: ` +
        "the first message of a page always comes whole.)",
    );
  }
  if (result.more) {
    const next = result.nextAfterSeq;
    lines.push(`(more after #${next}: ${style.readOn(next)}; pages hold up to ${result.maxChars} characters)`);
  }
  return lines.join("\n");
}
