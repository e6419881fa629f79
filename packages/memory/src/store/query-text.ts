// Turning a person's or a model's words into an FTS5 query that cannot be a syntax error: only runs of word
// characters are kept, and each is quoted, so operators, column filters, parentheses, quotes and NUL in user text
// are never FTS5 syntax.
import { MAX_QUERY_TERMS } from "../limits.js";
import { indexedText } from "./cjk.js";

/**
 * Runs of the characters the tokenizer keeps in words (letters, digits, private use; see TOKENIZER) and combining
 * marks (which it folds away). Anything else, NUL and quotes included, never reaches FTS5's parser.
 */
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** The searched words of a query, and the FTS5 expressions for "every word" and "any word". */
export interface QueryWords {
  readonly words: readonly string[];
  /** Words beyond MAX_QUERY_TERMS, left out. */
  readonly ignored: number;
  readonly all: string;
  readonly any: string;
  /** Each word's own FTS5 expression, in the order of `words`. */
  readonly phrases: readonly string[];
}

/** The distinct words of `text` (runs of word characters, so "foo-bar" is two words), each quoted for FTS5. */
export function queryWords(text: string, maxTerms: number = MAX_QUERY_TERMS): QueryWords {
  const distinct = [...new Set(text.match(WORD) ?? [])];
  const words = distinct.slice(0, maxTerms);
  // A word holds no quote, but quoting stays total: should WORD ever widen, a quote inside is doubled.
  // A word holding CJK text is the phrase of its characters, as the index holds them (cjk.ts).
  const phrases = words.map((word) => `"${indexedText(word).trim().replace(/"/g, '""')}"`);
  return { words, ignored: distinct.length - words.length, all: phrases.join(" "), any: phrases.join(" OR "), phrases };
}
