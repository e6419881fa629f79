// One message as a block of lines: in full, as an excerpt (its opening and a line saying how much more there is and
// how to read it), or as a headline. Every form is rendered here, so the digest and every package that measures a
// block (@orphus/bounds) share one set of line-break and size rules.
import { DigestInputError } from "./errors.js";
import { EXCERPT_MIN_LENGTH, LINE_SCAN_LIMIT } from "./limits.js";
import { authorLabel, headlineLine, headlineText, openingOf, renderBody, type RenderedBody } from "./text.js";
import type { DigestRecovery } from "./types.js";

/** A shown form of a block, richest last. */
export type BlockForm = "headline" | "excerpt" | "full";

/** A message rendered within a size: whole or an excerpt, its lines joined by "\n", and how much of it is left out. */
export interface RenderedBlock {
  readonly form: "full" | "excerpt";
  readonly text: string;
  /** Raw characters of the body after the last one shown (what a fetch adds); 0 in full. */
  readonly restChars: number;
}

/** What a block is rendered from. */
export interface BlockSource {
  readonly seq: number;
  readonly author: string;
  readonly body: string;
  readonly headline?: string | undefined;
}

function digits(n: number): number {
  return String(n).length;
}

/**
 * The last line of an excerpt, after the continuation indent: how many raw characters follow and how to read them.
 * Its length depends only on `rest`'s number of digits.
 */
export function restLine(rest: number, seq: number, recovery: DigestRecovery): string {
  return recovery === "fetch"
    ? `… ${rest} more characters: fetch afterSeq=${seq - 1} to read it whole`
    : `… ${rest} more characters: full output via the pinned line`;
}

/** The forms of one item, computed lazily and kept: the digest asks for them at several sizes. */
export class BlockForms {
  private label: string | undefined;
  private headlineBlock: string | undefined;
  private minExcerpt: number | undefined;
  private source: { declared: boolean; line: string } | undefined;

  /** `labels`: author labels already worked out, shared by the items of one digest (authors repeat). */
  constructor(
    readonly item: BlockSource,
    readonly recovery: DigestRecovery,
    private readonly labels?: Map<string, string>,
  ) {}

  private header(tag: string): string {
    if (this.label === undefined) {
      const author = this.item.author;
      this.label = this.labels?.get(author) ?? authorLabel(author);
      this.labels?.set(author, this.label);
    }
    return `[#${this.item.seq} ${this.label}${tag}]`;
  }

  /** Where the headline comes from: the declared one if it has visible text, else the body's first line (or ""). */
  private headlineSource(): { declared: boolean; line: string } {
    if (this.source === undefined) {
      const { headline, body } = this.item;
      const declared = headline === undefined ? "" : headlineLine(headline, false);
      this.source =
        declared !== "" ? { declared: true, line: declared } : { declared: false, line: headlineLine(body, true) };
    }
    return this.source;
  }

  /**
   * A floor under the length of every block this item can have: its headline, or its full text, which holds at
   * least the body's first line. Lets the digest pass over a message that cannot fit without rendering its body.
   */
  lowerBound(): number {
    const { declared, line } = this.headlineSource();
    const head = this.header("").length;
    if (declared) return head; // the body was not looked at: its full text may be short
    // The first line is a floor under the full text only when it was read from the whole body: a window that ends
    // inside an escape sequence shows its intermediate characters, which the whole body hides.
    const whole = this.item.body.length <= LINE_SCAN_LIMIT;
    return Math.min(this.headline().length, line === "" || !whole ? head : head + 1 + line.length);
  }

  /** The headline block; its text is never empty (a placeholder says when there is no visible text). */
  headline(): string {
    if (this.headlineBlock === undefined) {
      const text = headlineText(this.headlineSource().line, this.item.body.length);
      this.headlineBlock = `${this.header(", headline")} ${text}`;
    }
    return this.headlineBlock;
  }

  /** The shortest excerpt text: EXCERPT_MIN_LENGTH, and more than the headline shows. */
  private minExcerptText(): number {
    this.minExcerpt ??= Math.max(EXCERPT_MIN_LENGTH, this.headline().length - this.header(", headline").length);
    return this.minExcerpt;
  }

  /** The full block when it is at most `maxLength` characters (reading the raw body up to `rawLimit`), else null. */
  full(maxLength: number, rawLimit: number): RenderedBlock | null {
    const head = this.header("");
    if (maxLength < head.length) return null;
    const body = renderBody(this.item.body, Math.max(0, maxLength - head.length - 1), rawLimit);
    if (!body.complete) return null;
    return { form: "full", text: body.text === "" ? head : `${head} ${body.text}`, restChars: 0 };
  }

  /**
   * The richest of full and excerpt whose text is at most `maxLength` characters, reading the raw body up to
   * `rawLimit` characters; null when neither fits (or an excerpt would show no more than the headline).
   */
  best(maxLength: number, rawLimit: number = this.item.body.length): RenderedBlock | null {
    const head = this.header("");
    if (maxLength < head.length) return null;
    const excerptHead = this.header(", excerpt");
    const { seq, body: raw } = this.item;
    // An excerpt is `excerptHead + " " + opening + "\n  " + restLine`; a rest line's length depends only on the
    // number of digits of the rest, so the opening's room is worked out for each possible number of digits.
    const fixed = maxLength - excerptHead.length - 4;
    const fullRoom = maxLength - head.length - 1;
    const room = Math.max(fullRoom, fixed - restLine(0, seq, this.recovery).length, 0);
    const body: RenderedBody = renderBody(raw, room, rawLimit);
    if (body.complete && (body.text === "" || body.text.length <= fullRoom)) {
      return { form: "full", text: body.text === "" ? head : `${head} ${body.text}`, restChars: 0 };
    }
    const min = this.minExcerptText();
    let best: { text: string; rest: number } | null = null;
    for (let d = digits(raw.length); d >= 1; d--) {
      const opening = openingOf(body, fixed - restLine(10 ** (d - 1), seq, this.recovery).length, min);
      if (opening === null || digits(opening.rest) > d) continue;
      if (best === null || opening.text.length > best.text.length) best = opening;
    }
    if (best === null) return null;
    const text = `${excerptHead} ${best.text}\n  ${restLine(best.rest, seq, this.recovery)}`;
    return { form: "excerpt", text, restChars: best.rest };
  }
}

/** Options of `renderBlock`. */
export interface BlockOptions {
  /** What an excerpt's last line offers for the rest: "fetch" (default, the afterSeq) or "pinned" (the stub). */
  readonly recovery?: DigestRecovery;
}

function checkBlockSource(source: unknown): BlockSource {
  if (typeof source !== "object" || source === null) throw new DigestInputError("block", "an object", source);
  const { seq, author, body, headline } = source as Record<string, unknown>;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
    throw new DigestInputError("block.seq", "a positive safe integer", seq);
  }
  if (typeof author !== "string") throw new DigestInputError("block.author", "a string", author);
  if (typeof body !== "string") throw new DigestInputError("block.body", "a string", body);
  if (headline !== undefined && typeof headline !== "string") {
    throw new DigestInputError("block.headline", "a string", headline);
  }
  return { seq, author, body, headline };
}

/**
 * One message as a digest block of at most `maxLength` characters, by the digest's own rules (sanitised, lines after
 * the first indented): `form` "full" when the whole message fits, its `text.length` then being the block's rendered
 * length; else "excerpt", its opening cut at a safe boundary and a last line saying how many characters follow and
 * how to read them. Null when not even the shortest excerpt fits (EXCERPT_MIN_LENGTH, and more than its headline).
 * Reads the body only as far as `maxLength` needs. Throws DigestInputError for input not of this form.
 */
export function renderBlock(source: BlockSource, maxLength: number, options: BlockOptions = {}): RenderedBlock | null {
  const checked = checkBlockSource(source);
  if (typeof maxLength !== "number" || !(Number.isSafeInteger(maxLength) || maxLength === Infinity) || maxLength < 0) {
    throw new DigestInputError("maxLength", "a non-negative safe integer or Infinity", maxLength);
  }
  const recovery = options.recovery ?? "fetch";
  if (recovery !== "fetch" && recovery !== "pinned") {
    throw new DigestInputError("recovery", '"fetch" or "pinned"', recovery);
  }
  return new BlockForms(checked, recovery).best(maxLength);
}
