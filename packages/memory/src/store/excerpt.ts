// A hit's excerpt, found in JavaScript: the passage of the entry's text around the words the query matched. FTS5's
// snippet() would tokenize and stem the whole entry again in SQLite for every hit, shown or not; this runs only for
// the hits whose excerpt the budget shows, and reads the entry with one native regular-expression search for the
// beginnings a matching word must have, stemming just those candidates with the index's own rules (porter.ts).
import { isHighSurrogate } from "@orphus/internal";
import { hasCjk } from "./cjk.js";
import { porterStem } from "./porter.js";

/** The characters the index's tokenizer keeps in words (see TOKENIZER), combining marks included (they fold away). */
const WORD_CHARS = "\\p{L}\\p{N}\\p{M}\\p{Co}";
const WORD = new RegExp(`[${WORD_CHARS}]+`, "gu");
/** The rest of a word from lastIndex on (sticky). */
const WORD_REST = new RegExp(`[${WORD_CHARS}]*`, "uy");
/** A word character just before the end of a string: a word goes on to the left. */
const WORD_CHAR_AT_END = new RegExp(`[${WORD_CHARS}]$`, "u");
const NON_ASCII = /[^\u0000-\u007f]/;

/** Occurrences of query words an excerpt looks at, at most: enough to place the window, bounded for long entries. */
const MAX_OCCURRENCES = 64;

/** Tokens whose verdict one finder remembers (words recur across an answer's entries). */
const MAX_REMEMBERED_TOKENS = 2048;

/** A word as the tokenizer folds it: lower case, diacritics removed. */
export function foldWord(word: string): string {
  return NON_ASCII.test(word) ? word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase() : word.toLowerCase();
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

interface Occurrence {
  readonly start: number;
  readonly end: number;
  /** Which query word it matched. */
  readonly word: number;
}

/**
 * Finds excerpts for one query: `find(text)` returns at most `maxChars` characters of `text` around the span that
 * holds the most distinct query words (the earliest such span), with "…" where it was cut; the start of the text
 * when no word of the query is in it (the entry matched by its title or tags).
 */
export class ExcerptFinder {
  private readonly stems: ReadonlyMap<string, number>;
  /** The beginnings a word must have to stem to a query word's stem (a stem keeps all but at most 2 of its word's first characters). */
  private readonly candidates: RegExp | undefined;
  /** Query words holding CJK text, found where they stand inside a run of letters (as the index finds them, cjk.ts). */
  private readonly cjk: readonly { readonly text: string; readonly word: number }[];

  constructor(
    words: readonly string[],
    private readonly maxChars: number,
  ) {
    const stems = new Map<string, number>();
    const beginnings = new Set<string>();
    const cjk: { text: string; word: number }[] = [];
    for (const word of words) {
      const folded = foldWord(word);
      if (folded === "") continue;
      if (hasCjk(word)) {
        // Lower case only: NFD would take a Hangul syllable apart, and the text is searched as it is written.
        cjk.push({ text: word.toLowerCase(), word: words.length + cjk.length });
        continue;
      }
      const stem = porterStem(folded);
      if (!stems.has(stem)) stems.set(stem, stems.size);
      // The stem is a byte string; its beginning, in characters, is a prefix of the folded word too.
      const keep = Math.max(1, Buffer.from(stem, "latin1").toString("utf8").length - 2);
      beginnings.add(folded.slice(0, Math.min(keep, folded.length)));
    }
    this.stems = stems;
    this.cjk = cjk;
    // No Unicode property classes in a pattern made per query: V8 compiles those in hundreds of microseconds.
    // Where a word starts and ends is checked with the patterns above, compiled once.
    this.candidates = beginnings.size === 0 ? undefined : new RegExp([...beginnings].map(escapeRegExp).join("|"), "gi");
  }

  private readonly verdicts = new Map<string, number>();

  /** The query word a token of the text matches, or -1. */
  private wordOf(token: string): number {
    let word = this.verdicts.get(token);
    if (word === undefined) {
      word = this.stems.get(porterStem(foldWord(token))) ?? -1;
      if (this.verdicts.size < MAX_REMEMBERED_TOKENS) this.verdicts.set(token, word);
    }
    return word;
  }

  private occurrences(text: string): Occurrence[] {
    const found: Occurrence[] = [];
    const candidates = this.candidates;
    if (candidates !== undefined) {
      candidates.lastIndex = 0;
      for (
        let match = candidates.exec(text);
        match !== null && found.length < MAX_OCCURRENCES;
        match = candidates.exec(text)
      ) {
        const start = match.index;
        WORD_REST.lastIndex = start;
        const end = start + (WORD_REST.exec(text)?.[0].length ?? 0);
        candidates.lastIndex = Math.max(end, start + 1);
        if (start > 0 && WORD_CHAR_AT_END.test(text.slice(Math.max(0, start - 2), start))) continue;
        const word = this.wordOf(text.slice(start, end));
        if (word >= 0) found.push({ start, end, word });
      }
    }
    if (this.cjk.length > 0 && NON_ASCII.test(text)) {
      const folded = text.toLowerCase();
      // Lower-casing keeps a CJK text's length, so positions in it are positions in the text.
      const source = folded.length === text.length ? folded : text;
      for (const { text: word, word: index } of this.cjk) {
        for (
          let at = source.indexOf(word);
          at >= 0 && found.length < MAX_OCCURRENCES;
          at = source.indexOf(word, at + word.length)
        ) {
          found.push({ start: at, end: at + word.length, word: index });
        }
      }
      found.sort((a, b) => a.start - b.start);
    }
    // A word written with diacritics or another case form may not begin like the folded query word: read every
    // word then, which only text outside ASCII needs.
    if (found.length === 0 && this.stems.size > 0 && NON_ASCII.test(text)) {
      for (const match of text.matchAll(WORD)) {
        const word = this.wordOf(match[0]);
        if (word >= 0) found.push({ start: match.index, end: match.index + match[0].length, word });
        if (found.length >= MAX_OCCURRENCES) break;
      }
    }
    return found;
  }

  /** The excerpt of `text` for this query. */
  find(text: string): string {
    const max = this.maxChars;
    if (text.length <= max) return text;
    const found = this.occurrences(text);
    // The span to show: from an occurrence, as many distinct words as fit in three quarters of the window.
    let bestStart = 0;
    let bestCount = 0;
    const reach = Math.floor((max * 3) / 4);
    for (let i = 0; i < found.length; i++) {
      const first = found[i] as Occurrence;
      const seen = new Set<number>();
      for (let j = i; j < found.length && (found[j] as Occurrence).end - first.start <= reach; j++)
        seen.add((found[j] as Occurrence).word);
      if (seen.size > bestCount) [bestStart, bestCount] = [first.start, seen.size];
    }
    return window(text, bestCount === 0 ? 0 : bestStart, max);
  }
}

/** At most `max` characters of `text` showing `at`: a little before it (from a line or sentence start if near), cut at spaces, "…" where cut. */
function window(text: string, at: number, max: number): string {
  const earliest = at - Math.floor(max / 5);
  let start = 0;
  if (earliest > 0) {
    const line = text.lastIndexOf("\n", at - 1);
    const sentence = text.lastIndexOf(". ", at - 1);
    const opening = Math.max(line < 0 ? -1 : line + 1, sentence < 0 ? -1 : sentence + 2);
    if (opening >= earliest) start = opening;
    else {
      const space = text.indexOf(" ", earliest);
      start = space >= 0 && space < at ? space + 1 : earliest;
    }
    // Near the end, show the last `max` characters rather than a short window.
    start = Math.min(start, Math.max(0, text.length - (max - 1)));
  }
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  const head = start > 0 ? "…" : "";
  let end = Math.min(text.length, start + max - head.length);
  let tail = "";
  if (end < text.length) {
    end--;
    tail = "…";
    const space = text.lastIndexOf(" ", end);
    if (space > start + (max >> 1)) end = space;
    if (end > start && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  }
  return `${head}${text.slice(start, end)}${tail}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
