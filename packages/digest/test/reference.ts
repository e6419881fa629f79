// A deliberately naive reference for renderDigest: sanitises whole strings with regular expressions (the engine's
// own Unicode properties, not the package's table), renders every block whole before measuring or cutting it, finds
// where an excerpt ends in the raw body by rendering raw prefixes, spends the budget step by step as the README
// words it, and spells the marker out by hand. Slow and obvious; the package is lazy and streaming. The property
// tests demand both give the same result.
import type { DigestInput, DigestResult } from "@orphus/digest";

const BREAKS = "\\n\\v\\f\\r\\x1c-\\x1e\\x85\\u2028\\u2029";
const CONTROL_STRING = `[^\\x07\\x9c\\x1b${BREAKS}]*(?:\\x07|\\x9c|\\x1b\\\\)?`;
const ESCAPES = new RegExp(
  [
    "\\x1b\\[[\\x20-\\x3f]*[\\x40-\\x7e]?", // CSI
    `\\x1b[\\]PX^_]${CONTROL_STRING}`, // OSC, DCS, SOS, PM, APC
    "\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]", // the short forms
    "\\x1b", // a lone ESC
    "\\x9b[\\x20-\\x3f]*[\\x40-\\x7e]?", // C1 CSI
    `[\\x90\\x98\\x9d\\x9e\\x9f]${CONTROL_STRING}`, // C1 control strings
  ].join("|"),
  "g",
);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const CONTROLS = /[\x00-\x08\x0e-\x1b\x1f\x7f\x80-\x84\x86-\x9f]/g;
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const SPACES = /[\t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
const BREAK = new RegExp(`[${BREAKS}]`);

/** Sanitised text with its line breaks as "\n" and every other white space kept. */
export function referenceSanitize(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(LONE_SURROGATE, "\ufffd")
    .replace(ESCAPES, "")
    .replace(CONTROLS, "")
    .replace(INVISIBLE, "")
    .split(BREAK)
    .join("\n");
}

/** Lines of sanitised text, blanks as plain spaces. */
function sanitisedLines(text: string): string[] {
  return referenceSanitize(text).replace(SPACES, " ").split("\n");
}

const isBlank = (line: string): boolean => line.trim() === "";

/** The first `limit` characters, one more if the cut would split a surrogate pair. */
function head(text: string, limit: number): string {
  if (limit >= text.length) return text;
  const splitsPair = /[\ud800-\udbff]/.test(text[limit - 1] ?? "") && /[\udc00-\udfff]/.test(text[limit] ?? "");
  return text.slice(0, splitsPair ? limit + 1 : limit);
}

/** A body rendered whole after its header. */
function renderBody(text: string): string {
  const lines = sanitisedLines(text).map((line) => line.replace(/ +$/, ""));
  while (lines.length > 0 && isBlank(lines[0] ?? "")) lines.shift();
  while (lines.length > 0 && isBlank(lines[lines.length - 1] ?? "")) lines.pop();
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (i === 0) out.push(line.replace(/^ +/, ""));
    else if (line === "") {
      if (out[out.length - 1] !== "") out.push("");
    } else out.push(`  ${line}`);
  });
  return out.join("\n");
}

function oneLine(text: string, firstLineOnly: boolean): string {
  const lines = sanitisedLines(head(text, 4096));
  const chosen = firstLineOnly ? (lines.find((line) => !isBlank(line)) ?? "") : lines.join(" ");
  return chosen.replace(/ +/g, " ").replace(/^ | $/g, "");
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = max - 1;
  if (/[\ud800-\udbff]/.test(text[keep - 1] ?? "")) keep--;
  for (let i = keep; i >= Math.ceil(max / 2); i--) if (text[i] === " ") return `${text.slice(0, i)}…`;
  return `${text.slice(0, keep)}…`;
}

const ESCAPED = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\p{Default_Ignorable_Code_Point}\u2026]/u;

/** An identity escaped character by character, cut to `max` with "…" between whole pieces. */
export function referenceEscapeIdentity(name: string, also = "", max = Infinity): string {
  const points = Array.from(name);
  const pieces = points.map((point, i) => {
    const hex = `\\u{${(point.codePointAt(0) as number).toString(16).toUpperCase()}}`;
    if (point === "\\") return "\\\\";
    if (point === " ") return i === 0 || i === points.length - 1 || also.includes(" ") ? hex : " ";
    return ESCAPED.test(point) || also.includes(point) ? hex : point;
  });
  if (pieces.join("").length <= max) return pieces.join("");
  let out = "";
  for (const piece of pieces) {
    if (out.length + piece.length > max - 1) break;
    out += piece;
  }
  return `${out}…`;
}

function label(author: string): string {
  return author === "" ? "?" : referenceEscapeIdentity(author, " []", 64);
}

function headlineText(declared: string | undefined, body: string): string {
  const own = declared === undefined ? "" : oneLine(declared, false);
  const text = own !== "" ? own : oneLine(body, true);
  if (text === "") return body.length > 4096 ? "(no visible text in its first 4096 characters)" : "(no visible text)";
  return cut(text, 120);
}

/** A stub on one line: each white space character and each line break one space, none squeezed, then trimmed. */
function pinned(text: string): string {
  const line = sanitisedLines(head(text, 4096))
    .join(" ")
    .replace(/^ +| +$/g, "");
  return cut(line.startsWith("[") ? `\\${line}` : line, 512);
}

type Form = "headline" | "excerpt" | "full";
export interface Shown {
  form: Form;
  text: string;
  rest: number;
}
const RANK = { headline: 1, excerpt: 2, full: 3 };
/** Whether `b` shows more than `a`. */
export const more = (a: Shown | null, b: Shown | null): boolean =>
  b !== null &&
  (a === null ||
    RANK[b.form] > RANK[a.form] ||
    (RANK[b.form] === RANK[a.form] && b.form === "excerpt" && b.rest < a.rest));
const cost = (shown: Shown | null): number => (shown === null ? 0 : shown.text.length + 1);
const isCut = (c: string | undefined): boolean => c === " " || c === "\n";

export interface Item {
  seq: number;
  author: string;
  body: string;
  headline?: string | undefined;
}

/** The longest opening of rendered `text` within `room`, or null when shorter than `min`. */
function opening(text: string, room: number, min: number): string | null {
  if (room < min) return null;
  let end = Math.min(room, text.length);
  const boundaries = [];
  for (let p = end; p > end - 16 && p >= 0; p--) if (p === text.length || isCut(text[p])) boundaries.push(p);
  if (boundaries.length > 0) end = boundaries[0] as number;
  else if (/[\ud800-\udbff]/.test(text[end - 1] ?? "")) end--;
  const kept = text.slice(0, end).replace(/[ \n]+$/, "");
  return kept.length < min ? null : kept;
}

/** The raw characters of `body` after the one that shows as the last of `shown` (an opening of its rendering). */
function restAfter(body: string, shown: string): number {
  let low = 0;
  let high = body.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (renderBody(body.slice(0, mid)).length >= shown.length) high = mid;
    else low = mid + 1;
  }
  return body.length - low;
}

/** The richest of full and excerpt within `max` characters, from the whole body sanitised. */
export function best(item: Item, max: number, recovery: "fetch" | "pinned"): Shown | null {
  const header = `[#${item.seq} ${label(item.author)}`;
  if (max < header.length + 1) return null;
  const rendered = renderBody(item.body);
  const full = rendered === "" ? `${header}]` : `${header}] ${rendered}`;
  if (full.length <= max) return { form: "full", text: full, rest: 0 };
  const restLine = (rest: number): string =>
    recovery === "fetch"
      ? `… ${rest} more characters: fetch afterSeq=${item.seq - 1} to read it whole`
      : `… ${rest} more characters: full output via the pinned line`;
  const min = Math.max(40, headlineText(item.headline, item.body).length + 1);
  let found: Shown | null = null;
  for (let digits = String(item.body.length).length; digits >= 1; digits--) {
    const room = max - `${header}, excerpt] `.length - 3 - restLine(10 ** (digits - 1)).length;
    const shown = opening(rendered, room, min);
    if (shown === null) continue;
    const rest = restAfter(item.body, shown);
    if (String(rest).length > digits) continue;
    if (found === null || rest < found.rest) {
      found = { form: "excerpt", text: `${header}, excerpt] ${shown}\n  ${restLine(rest)}`, rest };
    }
  }
  return found;
}

/** The item's headline block. */
export function headlineBlock(item: Item): string {
  return `[#${item.seq} ${label(item.author)}, headline] ${headlineText(item.headline, item.body)}`;
}

/** The item's cheapest shown form: its full text when no longer than its headline, else its headline. */
export function cheapest(item: Item, recovery: "fetch" | "pinned"): Shown {
  const headline = headlineBlock(item);
  const full = best(item, headline.length, recovery);
  return full?.form === "full" ? full : { form: "headline", text: headline, rest: 0 };
}

const range = (from: number, to: number): string => (from === to ? `#${from}` : `#${from}–#${to}`);
const s = (n: number, one: string, many: string): string => (n === 1 ? one : many);

export function referenceDigest(input: DigestInput): DigestResult {
  const budget = input.budget ?? 2000;
  const recovery = input.recovery ?? "fetch";
  const items = input.items.map((item) => ({ ...item, priority: item.priority ?? 0 }));
  const spending = [...items].sort((a, b) => b.priority - a.priority || b.seq - a.seq);
  const display = [...items].sort((a, b) => b.priority - a.priority || a.seq - b.seq);
  const shown = new Map<number, Shown | null>(items.map((item) => [item.seq, null]));
  let left = budget + 1;
  let gaveBack = false;
  const set = (item: Item, next: Shown): void => {
    const change = cost(next) - cost(shown.get(item.seq) ?? null);
    gaveBack ||= change < 0;
    left -= change;
    shown.set(item.seq, next);
  };
  // Strict priority: an item waits while any item of higher priority is collapsed.
  const held = (item: Item & { priority: number }): boolean =>
    input.strictPriority === true &&
    spending.some((other) => other.priority > item.priority && shown.get(other.seq) === null);
  const show = (item: Item & { priority: number }): void => {
    if (shown.get(item.seq) !== null || held(item)) return;
    const form = cheapest(item, recovery);
    if (cost(form) <= left) set(item, form);
  };
  const enrich = (item: Item, extra: number): void => {
    const current = shown.get(item.seq) ?? null;
    if (current === null) return;
    const max = cost(current) + Math.min(extra, left) - 1;
    const next = best(item, max, recovery);
    if (more(current, next) && next !== null) set(item, next);
  };
  /** Enriched within `extra`, else with its cheapest richer form within all that is left (by bisection). */
  const enrichAtLeastOnce = (item: Item, extra: number): void => {
    const current = shown.get(item.seq) ?? null;
    if (current === null) return;
    const richerWithin = (max: number): Shown | null => {
      const next = best(item, max, recovery);
      return more(current, next) ? next : null;
    };
    const within = richerWithin(cost(current) + extra - 1);
    if (within !== null) return set(item, within);
    let low = cost(current) + extra;
    let high = cost(current) + left - 1;
    if (high < low || richerWithin(high) === null) return;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (richerWithin(middle) === null) low = middle + 1;
      else high = middle;
    }
    set(item, richerWithin(low) as Shown);
  };
  // 1. The newest: shown, then enriched within half the budget.
  const newest = spending[0];
  if (newest !== undefined) {
    show(newest);
    enrich(newest, Math.floor(budget / 2) + 1 - cost(shown.get(newest.seq) ?? null));
  }
  // 2. Everyone else shown while it fits. 3. Text within half of what is left, or at least the cheapest richer form.
  // 4. Shown if it fits, text within all that is left, again while a sweep gave budget back.
  for (const item of spending.slice(1)) show(item);
  for (const item of spending) enrichAtLeastOnce(item, Math.floor(left / 2));
  do {
    gaveBack = false;
    for (const item of spending) {
      show(item);
      enrich(item, left);
    }
  } while (gaveBack);

  const seqs = items.map((item) => item.seq);
  const of = (form: Form): number[] => seqs.filter((seq) => shown.get(seq)?.form === form);
  const collapsed = seqs.filter((seq) => shown.get(seq) === null);
  const evicted = input.evicted && input.evicted.count > 0 ? { ...input.evicted } : null;
  const parts: string[] = [];
  if (evicted) {
    const n = evicted.count;
    parts.push(
      `${n} ${s(n, "message", "messages")} evicted before you read ${s(n, "it", "them")} ` +
        `(${range(evicted.fromSeq, evicted.toSeq)}), no longer retrievable`,
    );
  }
  const first = collapsed[0];
  const last = collapsed[collapsed.length - 1];
  if (first !== undefined && last !== undefined) {
    const n = collapsed.length;
    parts.push(
      recovery === "pinned"
        ? `${n} ${s(n, "item", "items")} collapsed (${range(first, last)}), full output via the pinned lines`
        : `${n} ${s(n, "message", "messages")} collapsed (${range(first, last)}), fetch afterSeq=${first - 1} ` +
            `to read ${s(n, "it", "them")}`,
    );
  }
  const marker = parts.length === 0 ? null : `[digest] ${parts.join("; ")}.`;
  const lines = marker === null ? [] : [marker];
  for (const item of display) {
    const stub = item.pinned === undefined ? "" : pinned(item.pinned);
    if (stub !== "") lines.push(stub);
    const block = shown.get(item.seq);
    if (block) lines.push(block.text);
  }
  const newest_ = Math.max(0, ...seqs, evicted?.toSeq ?? 0);
  const spent = [...shown.values()].reduce((sum, block) => sum + cost(block), 0);
  return {
    text: lines.join("\n"),
    marker,
    full: of("full"),
    excerpts: of("excerpt"),
    headlines: of("headline"),
    collapsed,
    afterSeq: first === undefined ? null : first - 1,
    evicted,
    newestSeq: newest_ === 0 ? null : newest_,
    budget,
    used: Math.max(0, spent - 1),
  };
}
