// A frozen copy of src/block.ts as it was before the digest was made fast (issue 13's follow-up): the oracle that
// test/differential.test.ts compares the optimised renderer with. Keep it as it is; it shares with src/ only the
// modules the speed work left alone.
// One message as a block of lines: in full, as an excerpt (its opening and a line saying how much more there is and
// how to read it), or as a headline. Every form is rendered here, so the digest and every package that measures a
// block (@orphus/bounds) share one set of line-break and size rules.
import { restLine, type BlockSource, type RenderedBlock } from "../../src/block.js";
import { EXCERPT_MIN_LENGTH, LINE_SCAN_LIMIT } from "../../src/limits.js";
import type { RenderedBody } from "../../src/body.js";
import { authorLabel, headlineLine, headlineText, openingOf, renderBody } from "./text.js";
import type { DigestRecovery } from "../../src/types.js";

/** A shown form of a block, richest last. */
export type BlockForm = "headline" | "excerpt" | "full";

function digits(n: number): number {
  return String(n).length;
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
