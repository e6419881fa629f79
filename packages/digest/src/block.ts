// One message as a block of lines: in full, as an excerpt (its opening and a line saying how much more there is and
// how to read it), or as a headline. Every form is rendered here, so the digest and every package that measures a
// block (@orphus/bounds) share one set of line-break and size rules. The digest tries many sizes of many messages
// and shows few: lengths are worked out before any text is built, a size that no richer form can fit is passed over
// without reading, and each body is rendered once, as far as the largest size asked.
import { BodyRendering, openingEnd, restAfter, type RenderedBody } from "./body.js";
import { DigestInputError } from "./errors.js";
import {
  EXCERPT_MIN_LENGTH,
  FULL_SCAN_RATIO,
  FULL_SCAN_SLACK,
  HEADLINE_MAX_LENGTH,
  LINE_SCAN_LIMIT,
} from "./limits.js";
import { authorLabel, headlineLine, headlineText } from "./text.js";
import type { DigestRecovery } from "./types.js";
import { keepShape, Shape } from "./shapes.js";

/** A shown form of a block, richest last. */
export type BlockForm = "headline" | "excerpt" | "full";

/** A block as the digest places it: its form, its text (one or more lines) and, for an excerpt, what follows. */
export interface Placed {
  readonly form: BlockForm;
  readonly text: string;
  readonly restChars: number;
}

const RANK: Readonly<Record<BlockForm, number>> = { headline: 1, excerpt: 2, full: 3 };

/** Whether `next` shows more than `current`: a richer form, or a longer excerpt. */
export function showsMore(current: Placed | null, next: Placed | null): boolean {
  if (next === null) return false;
  if (current === null) return true;
  if (RANK[next.form] !== RANK[current.form]) return RANK[next.form] > RANK[current.form];
  return next.form === "excerpt" && next.restChars < current.restChars;
}

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

/** Decimal digits of a non-negative safe integer, without building its string. */
function digits(n: number): number {
  let count = 1;
  for (let power = 10; power <= n; power *= 10) count++;
  return count;
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

/** Length of a full block's header, `[#seq label]`. */
function headLength(seq: number, label: string): number {
  return 4 + digits(seq) + label.length;
}

/** Raw characters a bounded read takes for a block of `maxLength` (see BlockForms). */
function rawLimitOf(maxLength: number): number {
  return FULL_SCAN_RATIO * Math.max(0, maxLength) + FULL_SCAN_SLACK;
}

/**
 * A floor under an item's cheapest block, known before reading anything: a headline is its header, a space and at
 * least one character; the full text at least its header, when it can be read at all for a headline's size. The
 * digest passes over an item whose floor does not fit without making its forms.
 */
export function floorBeforeReading(item: BlockSource, label: string, bounded: boolean): number {
  return floorOf(headLength(item.seq, label), item.body.length, bounded);
}

function floorOf(head: number, bodyLength: number, bounded: boolean): number {
  const headlineHead = head + HEADLINE_TAG.length;
  const fullMay = !bounded || rawLimitOf(headlineHead + 1 + HEADLINE_MAX_LENGTH) >= bodyLength;
  return fullMay ? Math.min(head, headlineHead + 2) : headlineHead + 2;
}

/** The shortest header an item with this seq can have, `[#seq x]`, whatever its author: a floor under every block. */
export function headerFloor(seq: number): number {
  return 5 + digits(seq);
}

/** The header tags of a headline and an excerpt: `[#seq author, headline]`. */
const HEADLINE_TAG = ", headline";
const EXCERPT_TAG = ", excerpt";

/**
 * The shortest a headline's text is when its line is longer than HEADLINE_MAX_LENGTH: cutAtWord keeps at least
 * half of it and adds "…". So a line longer than n <= HEADLINE_CUT_FLOOR - 1 characters gives a headline text
 * longer than n.
 */
const HEADLINE_CUT_FLOOR = Math.ceil(HEADLINE_MAX_LENGTH / 2) + 1;

/** Where a headline's text comes from, once known. */
interface HeadlineSource {
  /** Whether it is the declared headline (else the body's first line with visible text). */
  readonly declared: boolean;
  /** headlineLine of it: "" when there is no visible text. */
  readonly line: string;
}

/** The forms of one item, computed lazily and kept: the digest asks for them at several sizes. */
export class BlockForms {
  private readonly label: string;
  /** Length of the full form's header, `[#seq label]`. */
  private readonly head: number;
  private source: HeadlineSource | undefined;
  /** The body's first line is known to be longer than this (from a read that stopped early). */
  private lineLongerThan = Number.NEGATIVE_INFINITY;
  private declared: string | undefined;
  private headlineBlock: string | undefined;
  private minExcerpt: number | undefined;
  private restBase: number | undefined;
  /** The whole body, rendered up to the largest size asked so far. */
  private rendering: BodyRendering | undefined;
  private cheapest: Placed | undefined;
  /** The cheapest form is known to be longer than this. */
  private cheapestLongerThan = Number.NEGATIVE_INFINITY;

  /**
   * `label`: the author as a header shows it (authorLabel). `bounded`: the body is read for a block of `n`
   * characters up to FULL_SCAN_RATIO × `n` + FULL_SCAN_SLACK raw characters (every item but the first the digest
   * spends on); else as far as the block needs.
   */
  constructor(
    readonly item: BlockSource,
    readonly recovery: DigestRecovery,
    label: string = authorLabel(item.author),
    private readonly bounded: boolean = false,
  ) {
    keepShape(Shape.BlockForms, this);
    this.label = label;
    this.head = headLength(item.seq, label);
  }

  private header(tag: string): string {
    return `[#${this.item.seq} ${this.label}${tag}]`;
  }

  /** Raw characters of the body read for a block of `maxLength` (see `bounded`). */
  private rawLimit(maxLength: number): number {
    return this.bounded ? rawLimitOf(maxLength) : Number.POSITIVE_INFINITY;
  }

  /** Whether the full form can be read for a block of `maxLength`: a bounded read that stops short never completes. */
  private fullReadable(maxLength: number): boolean {
    return !this.bounded || rawLimitOf(maxLength) >= this.item.body.length;
  }

  /** The declared headline's line ("" when there is none or it has no visible text). */
  private declaredLine(): string {
    const headline = this.item.headline;
    this.declared ??= headline === undefined ? "" : headlineLine(headline, false);
    return this.declared;
  }

  /**
   * Where the headline comes from, reading the body's first line no further than `max` characters (at most
   * HEADLINE_MAX_LENGTH: a shorter `max` is for a caller that only needs to know whether the line is longer); null
   * when the line is longer than `max`.
   */
  private headlineSource(max: number = HEADLINE_MAX_LENGTH): HeadlineSource | null {
    if (this.source !== undefined) return this.source;
    const declared = this.declaredLine();
    if (declared !== "") this.source = { declared: true, line: declared };
    else {
      if (max <= this.lineLongerThan) return null;
      const line = headlineLine(this.item.body, true, max);
      if (line.length > max && max < HEADLINE_MAX_LENGTH) {
        this.lineLongerThan = max;
        return null;
      }
      this.source = { declared: false, line };
    }
    return this.source;
  }

  /** The headline's text once its source is known. */
  private headlineTextOf(source: HeadlineSource): string {
    return headlineText(source.line, this.item.body.length);
  }

  /** The headline block; its text is never empty (a placeholder says when there is no visible text). */
  headline(): string {
    const source = this.headlineSource() as HeadlineSource; // a full-length read always answers
    this.headlineBlock ??= `${this.header(HEADLINE_TAG)} ${this.headlineTextOf(source)}`;
    return this.headlineBlock;
  }

  /**
   * The item's cheapest form (its full text when no longer than its headline, else its headline) when its block is
   * at most `maxLength` characters, else null. Reads no more than the answer needs: nothing when the headers alone
   * do not fit, and the first line only as far as a line that fits can go.
   */
  cheapestWithin(maxLength: number): Placed | null {
    if (this.cheapest !== undefined) return this.cheapest.text.length <= maxLength ? this.cheapest : null;
    if (maxLength <= this.cheapestLongerThan) return null;
    const head = this.head;
    const headlineHead = head + HEADLINE_TAG.length;
    const body = this.item.body;
    if (maxLength < floorOf(head, body.length, this.bounded)) return null;
    const fullMay = this.fullReadable(headlineHead + 1 + HEADLINE_MAX_LENGTH);
    // The first line, read only as far as a line that fits can go: a longer line makes the headline longer than
    // `maxLength` and, when read from the whole body, the full text too (it holds that line).
    let cap = HEADLINE_MAX_LENGTH;
    if (this.declaredLine() === "") {
      const headlineCap = maxLength - headlineHead - 1;
      const fullCap = !fullMay ? -1 : body.length <= LINE_SCAN_LIMIT ? maxLength - head - 1 : HEADLINE_MAX_LENGTH;
      if (headlineCap < HEADLINE_CUT_FLOOR) cap = Math.max(headlineCap, fullCap, 0);
    }
    const source = this.headlineSource(cap);
    if (source === null) return this.longerThan(maxLength);
    // The exact floor once the line is known: the headline, or the full text, which holds the first line.
    const headlineLength = headlineHead + 1 + this.headlineTextOf(source).length;
    let floor = headlineLength;
    if (this.fullReadable(headlineLength)) {
      const noLine = source.declared || source.line === "" || body.length > LINE_SCAN_LIMIT;
      floor = Math.min(floor, noLine ? head : head + 1 + source.line.length);
    }
    if (maxLength < floor) return this.longerThan(maxLength);
    const headline = this.headline();
    this.cheapest = this.full(headline.length) ?? { form: "headline", text: headline, restChars: 0 };
    return this.cheapest.text.length <= maxLength ? this.cheapest : null;
  }

  private longerThan(maxLength: number): null {
    this.cheapestLongerThan = Math.max(this.cheapestLongerThan, maxLength);
    return null;
  }

  /** The shortest excerpt text: EXCERPT_MIN_LENGTH, and more than the headline shows. */
  private minExcerptText(): number {
    this.minExcerpt ??= Math.max(EXCERPT_MIN_LENGTH, this.headline().length - this.head - HEADLINE_TAG.length);
    return this.minExcerpt;
  }

  /** Length of an excerpt's rest line when the rest has `d` digits. */
  private restLength(d: number): number {
    this.restBase ??= restLine(0, this.item.seq, this.recovery).length - 1;
    return this.restBase + d;
  }

  /** The body rendered within `max`, reading the raw body up to `rawLimit`, as renderBody gives it. */
  private render(max: number, rawLimit: number): RenderedBody {
    this.rendering ??= new BodyRendering(this.item.body);
    return this.rendering.within(max, rawLimit);
  }

  /** A floor under the full block's length from what is known: its header, its body's first line, its text so far. */
  private fullFloor(): number {
    let floor = this.head;
    const line = this.source !== undefined && !this.source.declared ? this.source.line : "";
    if (line !== "" && this.item.body.length <= LINE_SCAN_LIMIT) floor = this.head + 1 + line.length;
    const rendered = this.rendering?.text.length ?? 0;
    return rendered === 0 ? floor : Math.max(floor, this.head + 1 + rendered);
  }

  /** The full block when it is at most `maxLength` characters, else null. */
  full(maxLength: number): RenderedBlock | null {
    if (maxLength < this.head || !this.fullReadable(maxLength)) return null;
    const body = this.render(Math.max(0, maxLength - this.head - 1), this.rawLimit(maxLength));
    if (!body.complete) return null;
    return { form: "full", text: this.fullText(body.text), restChars: 0 };
  }

  private fullText(body: string): string {
    const head = this.header("");
    return body === "" ? head : `${head} ${body}`;
  }

  /**
   * The richest form within `maxLength` when it shows more than `current`, else null; without reading anything when
   * neither an excerpt nor the full text can be that short.
   */
  richer(current: Placed, maxLength: number): RenderedBlock | null {
    const excerptFloor = this.head + EXCERPT_TAG.length + 4 + this.minExcerptText() + this.restLength(1);
    const fullFloor = this.fullReadable(maxLength) ? this.fullFloor() : Number.POSITIVE_INFINITY;
    if (maxLength < Math.min(excerptFloor, fullFloor)) return null;
    const next = this.best(maxLength);
    return showsMore(current, next) ? next : null;
  }

  /**
   * The richest of full and excerpt whose text is at most `maxLength` characters; null when neither fits (or an
   * excerpt would show no more than the headline).
   */
  best(maxLength: number): RenderedBlock | null {
    const head = this.head;
    if (maxLength < head) return null;
    const raw = this.item.body;
    // An excerpt is `excerptHead + " " + opening + "\n  " + restLine`; a rest line's length depends only on the
    // number of digits of the rest, so the opening's room is worked out for each possible number of digits.
    const fixed = maxLength - head - EXCERPT_TAG.length - 4;
    const fullRoom = maxLength - head - 1;
    const room = Math.max(fullRoom, fixed - this.restLength(1), 0);
    const body = this.render(room, this.rawLimit(maxLength));
    if (body.complete && (body.text === "" || body.text.length <= fullRoom)) {
      return { form: "full", text: this.fullText(body.text), restChars: 0 };
    }
    const min = this.minExcerptText();
    let end = -1;
    let rest = 0;
    for (let d = digits(raw.length); d >= 1; d--) {
      const candidate = openingEnd(body, fixed - this.restLength(d), min);
      if (candidate <= end) continue; // none, or no longer than one found with more digits
      const candidateRest = restAfter(body, candidate);
      if (digits(candidateRest) > d) continue;
      end = candidate;
      rest = candidateRest;
    }
    if (end < 0) return null;
    const opening = body.text.slice(0, end);
    const text = `${this.header(EXCERPT_TAG)} ${opening}\n  ${restLine(rest, this.item.seq, this.recovery)}`;
    return { form: "excerpt", text, restChars: rest };
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
