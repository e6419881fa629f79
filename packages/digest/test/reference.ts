// A deliberately naive reference for renderDigest: sanitises whole strings with regular expressions, renders every
// block in full before measuring it, sorts always, and spells the marker out by hand. Slow and obvious; the package
// is lazy and streaming. The property tests demand both give the same result.
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
const DROPPED = /[\x00-\x08\x0e-\x1b\x1f\x7f\x80-\x84\x86-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const BREAK = new RegExp(`[${BREAKS}]`);

/** Lines of sanitised text: escapes, controls and bidi controls gone, lone surrogates as U+FFFD, blanks as spaces. */
function sanitisedLines(text: string): string[] {
  return text
    .replace(/\r\n/g, "\n")
    .replace(LONE_SURROGATE, "\ufffd")
    .replace(ESCAPES, "")
    .replace(DROPPED, "")
    .replace(/[\t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]/g, " ")
    .split(BREAK);
}

const isBlank = (line: string): boolean => line.trim() === "";

/** The first `limit` characters, one more if the cut would split a surrogate pair. */
function head(text: string, limit: number): string {
  const splitsPair = /[\ud800-\udbff]/.test(text[limit - 1] ?? "") && /[\udc00-\udfff]/.test(text[limit] ?? "");
  return text.slice(0, splitsPair ? limit + 1 : limit);
}

function body(text: string): string {
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

function author(text: string): string {
  const label = oneLine(text, false).replace(/\[/g, "(").replace(/\]/g, ")").replace(/\s/g, "_");
  return label === "" ? "?" : cut(label, 64);
}

function headline(declared: string | undefined, text: string): string {
  const own = declared === undefined ? "" : oneLine(declared, false);
  return cut(own !== "" ? own : oneLine(text, true), 120);
}

function pinned(text: string): string {
  const line = oneLine(text, false);
  return cut(line.startsWith("[") ? `\\${line}` : line, 512);
}

const range = (from: number, to: number): string => (from === to ? `#${from}` : `#${from}–#${to}`);
const s = (n: number, one: string, many: string): string => (n === 1 ? one : many);

export function referenceDigest(input: DigestInput): DigestResult {
  const budget = input.budget ?? 2000;
  const items = input.items.map((item, index) => ({ ...item, index, priority: item.priority ?? 0 }));
  const spending = [...items].sort((a, b) => b.priority - a.priority || b.seq - a.seq);
  const display = [...items].sort((a, b) => b.priority - a.priority || a.seq - b.seq);
  const forms = new Map<number, { form: "full" | "headline"; block: string }>();
  let spent = 0;
  let phase: "full" | "headline" | "collapsed" = "full";
  for (const item of spending) {
    const header = `[#${item.seq} ${author(item.author)}`;
    const fullText = body(item.body);
    const full = fullText === "" ? `${header}]` : `${header}] ${fullText}`;
    // After the first item, a body is read for its full form only up to 4 raw characters per character left for
    // it, plus 64.
    const left = budget - spent - (forms.size === 0 ? 0 : 1) - header.length - 2;
    const readable = item === spending[0] || item.body.length <= 4 * Math.max(0, left) + 64;
    const headText = headline(item.headline, item.body);
    const short = headText === "" ? `${header}, headline]` : `${header}, headline] ${headText}`;
    // Blocks joined by newlines: the first costs its length, every further one a newline more.
    const cost = (block: string): number => (forms.size === 0 ? block.length : block.length + 1);
    if (phase === "full" && readable && spent + cost(full) <= budget) {
      spent += cost(full);
      forms.set(item.seq, { form: "full", block: full });
      continue;
    }
    if (phase === "full") phase = "headline";
    if (phase === "headline" && spent + cost(short) <= budget) {
      spent += cost(short);
      forms.set(item.seq, { form: "headline", block: short });
      continue;
    }
    phase = "collapsed";
  }
  const seqs = items.map((item) => item.seq);
  const full = seqs.filter((seq) => forms.get(seq)?.form === "full");
  const headlines = seqs.filter((seq) => forms.get(seq)?.form === "headline");
  const collapsed = seqs.filter((seq) => !forms.has(seq));
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
      input.recovery === "pinned"
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
    const shown = forms.get(item.seq);
    if (shown) lines.push(shown.block);
  }
  const newest = Math.max(0, ...seqs, evicted?.toSeq ?? 0);
  return {
    text: lines.join("\n"),
    marker,
    full,
    headlines,
    collapsed,
    afterSeq: first === undefined ? null : first - 1,
    evicted,
    newestSeq: newest === 0 ? null : newest,
    budget,
    used: spent,
  };
}
