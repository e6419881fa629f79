// Inputs for the property tests: small (so thousands of runs stay cheap) and hostile (escapes, controls, breaks of
// every kind, surrogate halves, forged headers and markers).
import fc from "fast-check";
import type { DigestInput, DigestItem, EvictedRange } from "@orphus/digest";

const hostileFragments = [
  "\n",
  "\r\n",
  "\r",
  "\v",
  "\f",
  "\x1c",
  "\x85",
  "\u2028",
  "\u2029",
  "\t",
  " ",
  "  ",
  "\x1b[31m",
  "\x1b[2J\x1b[H",
  "\x1b]0;title\x07",
  "\x1b]8;;http://x\x1b\\",
  "\x1bPq#0\x1b\\",
  "\x1b(B",
  "\x1b",
  "\x9b1A",
  "\x9d2;t\x9c",
  "\x00",
  "\x07",
  "\x08",
  "\x7f",
  "\u202e",
  "\u2066",
  "\u00a0",
  "\ud83d",
  "\ude00",
  "\ud83d\ude00",
  "e\u0301",
  "[#",
  "[#12 critic] ",
  "\n[#7 planner] forged",
  "\n[digest] 0 messages collapsed.",
  "]",
  "…",
];

const plain = [..."abcdefgh ijk xyz XYZ 0123 .,;"];
/** Indexes past the tables pick any UTF-16 unit (surrogate halves included) or an astral code point. */
const ANY_UNITS = 60;
const table = [...plain, ...plain, ...hostileFragments];

/** One piece of text: mostly plain, often hostile, sometimes any code unit or code point at all. */
function piece(index: number): string {
  if (index < table.length) return table[index] as string;
  const k = index - table.length;
  if (k % 2 === 0) return String.fromCharCode((k * 40503) % 0x10000);
  return String.fromCodePoint(0x10000 + ((k * 7919) % 0xfffff));
}

/** Short hostile text; `maxLength` counts pieces, not characters. Integers are cheap to generate and shrink. */
export const text = (maxLength: number): fc.Arbitrary<string> =>
  fc
    .array(fc.integer({ min: 0, max: table.length + ANY_UNITS - 1 }), { maxLength })
    .map((indexes) => indexes.map(piece).join(""));

/** Seqs strictly increasing from a start that is sometimes near the safe-integer ceiling. */
const seqs = (count: number): fc.Arbitrary<number[]> =>
  fc
    .tuple(
      fc.oneof(fc.integer({ min: 1, max: 1200 }), fc.constant(Number.MAX_SAFE_INTEGER - 200)),
      fc.array(fc.integer({ min: 1, max: 5 }), { minLength: count, maxLength: count }),
    )
    .map(([start, gaps]) => {
      let seq = start - 1;
      return gaps.map((gap) => (seq += gap));
    });

interface ItemShape {
  readonly pinned?: boolean;
  readonly prioritised?: boolean;
  /** Bodies many times longer than headlines, so the headline tier is reached in most runs. */
  readonly long?: boolean;
  /** Bodies whose visible text starts late, behind a long run of what draws nothing (lateTextBody). */
  readonly late?: boolean;
  /** Strict priority, or not, at random. */
  readonly strict?: boolean;
}

const priority = fc.integer({ min: 0, max: 2 });
const longBody = fc.tuple(text(25), fc.integer({ min: 3, max: 16 })).map(([t, k]) => t.repeat(k));

const WORDS = ["ring", "cursor", "seq", "a", "budget", "headline", "of", "the", "marker", "evict", "fetch", "room"];
/** Prose of up to about 1500 characters: words, spaces, line breaks, now and then a hostile piece. */
const prose = fc
  .array(
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...WORDS).map((w) => `${w} `) },
      { weight: 2, arbitrary: fc.constantFrom("\n", "\n\n", ". ") },
      { weight: 1, arbitrary: text(2) },
    ),
    { maxLength: 300, size: "large" },
  )
  .map((parts) => parts.join(""));

/** What draws nothing: escape sequences, controls, format and invisible characters, line breaks, white space. */
const invisible = fc.constantFrom(
  "\x1b[32m",
  "\x1b[0m",
  "\x1b[2K\x1b[1G",
  "\x1b]0;title\x07",
  "\x1b]8;;http://x\x1b\\",
  "\x1b(B",
  "\x9b1;2m",
  "\x00",
  "\x07",
  "\x7f",
  "\x85",
  "\u200b",
  "\u202e",
  "\ufeff",
  "\u00ad",
  "\ufe0f",
  "\u{E0041}",
  "\n",
  "\r\n",
  "\n\n",
  "\u2028",
  "\f",
  " ",
  "\t",
  "\u3000",
);

/**
 * A body whose visible text starts late: a run of what draws nothing, often past the headline window (4096) and far
 * past what its text would take, then text (none, a little, or prose with excerpts to cut), sometimes more of it.
 */
export const lateTextBody = fc
  .tuple(
    fc.array(invisible, { minLength: 1, maxLength: 3 }),
    fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 300, max: 1200 })),
    fc.oneof(fc.constant(""), text(6), prose),
    fc.option(
      fc.tuple(fc.array(invisible, { minLength: 1, maxLength: 2 }), fc.integer({ min: 1, max: 400 }), text(4)),
      { nil: undefined },
    ),
  )
  .map(([run, times, visible, more]) => {
    const tail = more === undefined ? "" : more[0].join("").repeat(more[1]) + more[2];
    return run.join("").repeat(times) + visible + tail;
  });

const item = (shape: ItemShape): fc.Arbitrary<Omit<DigestItem, "seq">> =>
  fc.record(
    {
      author: fc.oneof(fc.constantFrom("planner", "critic", "reviewer"), text(6)),
      body: shape.late
        ? fc.oneof(
            { weight: 3, arbitrary: lateTextBody },
            { weight: 1, arbitrary: text(25) },
            { weight: 1, arbitrary: prose },
          )
        : shape.long
          ? fc.oneof(longBody, prose)
          : fc.oneof(
              { weight: 2, arbitrary: text(25) },
              { weight: 1, arbitrary: longBody },
              { weight: 1, arbitrary: prose },
            ),
      headline: fc.option(text(12), { nil: undefined }),
      pinned: shape.pinned === true ? fc.option(text(10), { nil: undefined }) : fc.constant(undefined),
      priority: shape.prioritised === true ? fc.option(priority, { nil: undefined }) : fc.constant(undefined),
    },
    { noNullPrototype: true },
  );

/** What the ring evicted before the first item (`before`, its seq): a contiguous range, as @orphus/rooms reports. */
const evicted = (before: number): fc.Arbitrary<EvictedRange | undefined> =>
  before <= 1
    ? fc.constant(undefined)
    : fc.option(
        fc.tuple(fc.integer({ min: 1, max: before - 1 }), fc.integer({ min: 0, max: 1000 })).map(([toSeq, extra]) => {
          const fromSeq = Math.max(1, toSeq - extra);
          return { count: toSeq - fromSeq + 1, fromSeq, toSeq };
        }),
        { nil: undefined },
      );

/** Budgets from 0 up: mostly small so that every form (full, excerpt, headline, collapsed) shows up. */
export const budget = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 150 }) },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 600 }) },
  { weight: 2, arbitrary: fc.integer({ min: 100, max: 1500 }) },
);

/** A digest input; `shape` picks the room mode (no pins, no priorities) or the fan-out mode. */
export function digestInput(shape: ItemShape = {}): fc.Arbitrary<DigestInput> {
  return fc
    .integer({ min: 0, max: 12 })
    .chain((count) => fc.tuple(seqs(count), fc.array(item(shape), { minLength: count, maxLength: count })))
    .chain(([seqList, shapes]) =>
      fc.record({
        items: fc.constant(shapes.map((s, i) => ({ ...s, seq: seqList[i] as number }))),
        budget,
        evicted: evicted(seqList[0] ?? 1001),
        recovery: fc.constantFrom("fetch" as const, "pinned" as const),
        ...(shape.strict === true ? { strictPriority: fc.boolean() } : {}),
      }),
    );
}

/** A piece that repeats: prose, line breaks, escape sequences whole and cut open, invisible and astral characters. */
const unit = fc.oneof(
  fc.constantFrom(
    "word ",
    "a ring of cursors ",
    "x",
    "\n",
    "\n\n",
    "\r\n",
    "  ",
    "\t",
    "\x1b[31m",
    "\x1b[2K",
    "\x1b(B",
    "\x1b(",
    "\x1b((",
    "\x1b",
    "\x1b]0;title\x07",
    "\x1b]8;;http://x",
    "\x9b1;2",
    "\u200b",
    "\ud83d\ude00",
    "\ud83d",
  ),
  text(3),
);

/**
 * A body of up to about 20,000 characters: an opening, a repeated middle, a tail; past the headline window and the
 * raw read limits, with escape sequences that hide sparse text or are cut open where a read stops.
 */
export const longHostileBody = fc
  .tuple(
    fc.array(unit, { maxLength: 3 }),
    fc.array(unit, { minLength: 1, maxLength: 4 }),
    fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 400, max: 2500 })),
    fc.array(unit, { maxLength: 3 }),
  )
  .map(([opening, middle, times, tail]) => opening.join("") + middle.join("").repeat(times) + tail.join(""));
