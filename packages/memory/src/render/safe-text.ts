// The one place where memory text is made safe for a model and cut to size. Today it borrows @orphus/digest's
// sanitiser through renderDigest (the only sanitising entry point that package exports); when digest exports its
// sanitiser and its excerpt function, swap the bodies below and nothing else in this package changes.
import { MAX_DIGEST_BUDGET, renderDigest } from "@orphus/digest";

/** The header renderDigest puts before a one-item body; stripped again below. */
const HEAD = "[#1 m]";

/** Continuation lines of a rendered body are indented by two spaces; undone for a block, joined for a line. */
const CONTINUATION = /\n(\n?) {2}/g;

/**
 * Text passed through the digest's sanitiser: controls, escape sequences, bidirectional overrides and split
 * surrogate pairs dropped, line breaks normalised to \n, runs of blank lines kept as one, trailing spaces dropped.
 * Input is at most MAX_DIGEST_BUDGET characters here (callers page and cut first).
 */
export function safeBlock(text: string): string {
  if (text === "") return "";
  const rendered = renderDigest({
    items: [{ seq: 1, author: "m", body: text.length > MAX_DIGEST_BUDGET ? text.slice(0, MAX_DIGEST_BUDGET) : text }],
    budget: MAX_DIGEST_BUDGET,
  }).text;
  return rendered.length <= HEAD.length ? "" : rendered.slice(HEAD.length + 1).replace(CONTINUATION, "\n$1");
}

/** `text` when it has at most `max` characters; else cut to fit with "…", at a space in the second half if any, never inside a surrogate pair. */
export function cutToFit(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  let keep = max - 1;
  const before = text.charCodeAt(keep - 1);
  if (before >= 0xd800 && before <= 0xdbff) keep--;
  const space = text.lastIndexOf(" ", keep);
  if (space >= Math.ceil(max / 2)) return `${text.slice(0, space)}…`;
  return `${text.slice(0, keep)}…`;
}

/** `text` cut from the start to at most `max` characters ("…" first), so a path keeps its file name. */
export function cutFromStart(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  let start = text.length - (max - 1);
  const first = text.charCodeAt(start);
  if (first >= 0xdc00 && first <= 0xdfff) start++;
  return `…${text.slice(start)}`;
}

/** What safeLine reads of `text`: no more than the line can show, with room for what the sanitiser drops. */
function lineHead(text: string, max: number): string {
  return text.length > max * 4 + 64 ? text.slice(0, max * 4 + 64) : text;
}

function oneLine(block: string, max: number): string {
  return cutToFit(block.replace(/\s+/g, " ").trim(), max);
}

/** Sanitised text on one line (every run of white space, line breaks included, one space), cut to `max`. */
export function safeLine(text: string, max: number): string {
  return oneLine(safeBlock(lineHead(text, max)), max);
}

/**
 * safeLine of each `[text, max]`, in one pass of the sanitiser: the texts go through renderDigest as the items of
 * one digest, and each item's block is read back from the lines it starts (a body's own lines are indented, so only
 * a header starts with "[#"). An answer's titles, sources and excerpts cost one call instead of one call each.
 */
export function safeLines(fields: readonly (readonly [text: string, max: number])[]): string[] {
  if (fields.length <= 1) return fields.map(([text, max]) => safeLine(text, max));
  const items = fields.map(([text, max], index) => ({ seq: index + 1, author: "m", body: lineHead(text, max) }));
  const rendered = renderDigest({ items, budget: MAX_DIGEST_BUDGET });
  // Every item in full is what the texts' sizes promise; should that ever fail, sanitise them one by one.
  if (rendered.full.length !== fields.length) return fields.map(([text, max]) => safeLine(text, max));
  const blocks: string[] = [];
  for (const line of rendered.text.split("\n")) {
    const header = `[#${blocks.length + 1} m]`;
    if (line.startsWith(header)) blocks.push(line.slice(header.length));
    else blocks[blocks.length - 1] += `\n${line}`;
  }
  return fields.map(([, max], index) => oneLine(blocks[index] ?? "", max));
}
