// One message as a block of lines: in full, as an excerpt (its opening and a line saying how much more there is and
// how to read it), or as a headline. Every form is rendered here, so the digest and every package that measures a
// block (@orphus/bounds) share one set of line-break and size rules. The digest tries many sizes of many messages
// and shows few: lengths are worked out before any text is built, a size that no richer form can fit is passed over
// without reading, and each body is rendered once, as far as the largest size asked. What a form shows is decided
// by the whole body: text hidden behind any length of escape codes is found by reading on (in time linear in what is
// skipped), never assumed absent because a read stopped.
import { BodyRendering, openingEnd, restAfter, type RenderedBody } from "./body.js";
import { DigestInputError } from "./errors.js";
import { EXCERPT_MIN_LENGTH, HEADLINE_MAX_LENGTH, LINE_SCAN_LIMIT } from "./limits.js";
import { authorLabel, headlineLine, headlineText, lineBreakEnd, lineSkippedInput } from "./text.js";
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

/** Where the last plainText call stopped: the index of the first unit it did not count through. */
let plainStop = 0;

/**
 * Counts printable ASCII characters of `body` from `from` on (adding to `count`), through white space and line
 * breaks, until the count reaches `need`, a unit of any other kind comes, or it has read twice the characters still
 * needed and a line more (blank runs are the renderer's to pass over); sets plainStop. Each of them shows as a
 * character of the body's rendering, so the count is a floor under the rendering's length that takes no rendering.
 */
function plainText(body: string, from: number, count: number, need: number): number {
  let i = from;
  let n = count;
  const end = Math.min(body.length, from + 2 * (need - count) + 128);
  while (n < need && i < end) {
    const c = body.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) n++;
    else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  plainStop = i;
  return n;
}

/** Printable ASCII words with single spaces between them, matched natively. */
const PLAIN_WORDS = /[\x21-\x7e]+(?: [\x21-\x7e]+)*/y;

/**
 * A floor under the length of the body's first line as a headline reads it and as the full text shows it: its plain
 * opening after leading blank space, printable ASCII words with single spaces between them, counted up to `limit` + 1.
 */
function plainLineFloor(body: string, limit: number): number {
  const length = body.length;
  let i = 0;
  while (i < length) {
    const c = body.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  const cut = length - i > limit + 1;
  const src = cut ? body.slice(i, i + limit + 1) : body;
  const from = cut ? 0 : i;
  PLAIN_WORDS.lastIndex = from;
  return PLAIN_WORDS.test(src) ? PLAIN_WORDS.lastIndex - from : 0;
}

/** A headline is at least its header, its tag, a space and one character: this much longer than `[#seq label]`. */
const SHORTEST_HEADLINE_EXTRA = ", headline".length + 2;

/**
 * A floor under an item's cheapest block, known before reading more than a few characters: a headline is its
 * header, a space and at least one character; the full block at least its header, `[#seq label]`, and as long as
 * the shortest headline when the body opens with enough plain text. The digest passes over an item whose floor does
 * not fit without making its forms.
 */
export function floorBeforeReading(item: BlockSource, label: string, maxLength: number): number {
  const head = headLength(item.seq, label);
  if (maxLength >= head + SHORTEST_HEADLINE_EXTRA) return head; // no floor read here would pass the item over
  const need = SHORTEST_HEADLINE_EXTRA - 1; // the full block then holds the header, a space and `need` characters
  return plainText(item.body, 0, 0, need) >= need ? head + SHORTEST_HEADLINE_EXTRA : head;
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
  /**
   * Whether the body's full text holds the line its headline is read from: the body is within the headline window,
   * or the read passed over nothing the sanitiser drops (so the window cut nothing open).
   */
  private lineInFull = false;
  /**
   * Where the body's first line ended at a line break, when the full text holds that line (the index after the
   * break), until rendersMore has counted from there; else -1.
   */
  private afterLine = -1;
  private declared: string | undefined;
  private headlineBlock: string | undefined;
  private minExcerpt: number | undefined;
  private restBase: number | undefined;
  /** The whole body, rendered up to the largest size asked so far. */
  private rendering: BodyRendering | undefined;
  private cheapest: Placed | undefined;
  /** The cheapest form is known to be longer than this. */
  private cheapestLongerThan = Number.NEGATIVE_INFINITY;
  /** Printable characters counted by plainText so far, and where it stopped, -1 if not known (see rendersMore). */
  private plainCount = 0;
  private plainEnd = 0;

  /**
   * `label`: the author as a header shows it (authorLabel). `floor`: floorBeforeReading of the item, when worked
   * out already (what it read of the body's opening is not read again).
   */
  constructor(
    readonly item: BlockSource,
    readonly recovery: DigestRecovery,
    label: string = authorLabel(item.author),
    floor = 0,
  ) {
    keepShape(Shape.BlockForms, this);
    this.label = label;
    this.head = headLength(item.seq, label);
    if (floor > this.head) {
      // The opening holds this many printable characters; where they end is counted again if more are asked.
      this.plainCount = floor - this.head - 1;
      this.plainEnd = -1;
    }
  }

  private header(tag: string): string {
    return `[#${this.item.seq} ${this.label}${tag}]`;
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
      this.lineInFull = this.item.body.length <= LINE_SCAN_LIMIT || !lineSkippedInput;
      if (this.lineInFull) this.afterLine = lineBreakEnd;
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
    if (maxLength < head) return null;
    const fullRoom = maxLength - head - 1;
    const capped = this.declaredLine() === "" && maxLength - headlineHead - 1 < HEADLINE_CUT_FLOOR;
    // A first line whose plain opening alone is longer than the full text's room fits neither form (the headline's
    // room is smaller still): known without rendering anything or reading the line as a headline. (With no room at
    // all, only an empty body's bare header fits, which a floor of 0 does not rule out.)
    if (capped && fullRoom >= 0 && plainLineFloor(this.item.body, fullRoom) > fullRoom)
      return this.longerThan(maxLength);
    // A whole block shorter than the shortest headline there can be (its header, a space and one character) is the
    // cheapest form whatever the headline holds: the headline's line need not be read.
    const short = this.rendersMore(SHORTEST_HEADLINE_EXTRA - 2) ? null : this.full(head + SHORTEST_HEADLINE_EXTRA - 1);
    if (short !== null) {
      this.cheapest = short;
      return short.text.length <= maxLength ? short : null;
    }
    if (maxLength < head + SHORTEST_HEADLINE_EXTRA) return this.longerThan(maxLength); // no form is that short
    // The first line, read only as far as a line that fits can go: a longer line makes the headline longer than
    // `maxLength` and, when the full text holds that line, the full text too.
    const source = this.headlineSource(capped ? Math.max(fullRoom, 0) : HEADLINE_MAX_LENGTH);
    if (source === null) {
      if (this.lineInFull) return this.longerThan(maxLength);
      // The headline cannot fit; the full text, which the line does not bound, is the cheapest if it does.
      const full = this.rendersMore(fullRoom) ? null : this.full(maxLength);
      if (full === null) return this.longerThan(maxLength);
      this.cheapest = full;
      return full;
    }
    // The exact floor once the line is known: the headline, or the full text, which holds the first line.
    const headlineLength = headlineHead + 1 + this.headlineTextOf(source).length;
    const noLine = source.declared || source.line === "" || !this.lineInFull;
    const floor = Math.min(headlineLength, noLine ? head : head + 1 + source.line.length);
    if (maxLength < floor) return this.longerThan(maxLength);
    // Nor when the headline is too long and the body's plain opening already renders longer than what is left.
    if (maxLength < headlineLength && this.rendersMore(fullRoom)) return this.longerThan(maxLength);
    const headline = this.headline();
    const full = this.rendersMore(headline.length - head - 1) ? null : this.full(headline.length);
    this.cheapest = full ?? { form: "headline", text: headline, restChars: 0 };
    return this.cheapest.text.length <= maxLength ? this.cheapest : null;
  }

  /**
   * Whether the body's rendering is known to be longer than `n` characters from its plain opening (see plainText),
   * read on from where the last ask stopped: a prose body is found too long for a size without being rendered.
   */
  private rendersMore(n: number): boolean {
    if (this.plainCount <= n && this.afterLine > this.plainEnd) {
      // The first line is known: its rendering is at least as long as the line, and any text after its break comes
      // after "\n" and the indent. Counting goes on from the break instead of reading the line again.
      const lineLength = (this.source as HeadlineSource).line.length;
      const after = plainText(this.item.body, this.afterLine, 0, Math.max(1, n + 1 - lineLength - 3));
      this.plainCount = after > 0 ? lineLength + 3 + after : lineLength;
      this.plainEnd = plainStop;
      this.afterLine = -1;
    }
    if (this.plainCount <= n) {
      if (this.plainEnd < 0) {
        this.plainEnd = 0;
        this.plainCount = 0;
      }
      this.plainCount = plainText(this.item.body, this.plainEnd, this.plainCount, n + 1);
      this.plainEnd = plainStop;
    }
    return this.plainCount > n;
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

  /** The body rendered within `max`, as renderBody gives it. */
  private render(max: number): RenderedBody {
    this.rendering ??= new BodyRendering(this.item.body);
    this.rendering.extend(max);
    return this.rendering.view(max);
  }

  /** A floor under the full block's length from what is known: its header, its body's first line, its text so far. */
  private fullFloor(): number {
    let floor = this.head;
    const line = this.source !== undefined && !this.source.declared ? this.source.line : "";
    if (line !== "" && this.lineInFull) floor = this.head + 1 + line.length;
    const rendered = this.rendering?.text.length ?? 0;
    return rendered === 0 ? floor : Math.max(floor, this.head + 1 + rendered);
  }

  /** The full block when it is at most `maxLength` characters, else null. */
  full(maxLength: number): RenderedBlock | null {
    if (maxLength < this.head) return null;
    const body = this.render(Math.max(0, maxLength - this.head - 1));
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
    if (maxLength < excerptFloor) {
      if (maxLength < this.fullFloor() || this.rendersMore(maxLength - this.head - 1)) return null;
    }
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
    const body = this.render(room);
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
