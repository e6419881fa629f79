import { UnmaskableTokenError } from "../errors.js";
import { TOKEN_MASK } from "../limits.js";

/** Masks tokens in text. */
export interface TokenMasker {
  /**
   * The text with every character that any occurrence of any token covers (overlapping occurrences included) hidden:
   * each run of such characters becomes one `***`, repeated until no occurrence is left.
   */
  mask(text: string): string;
  /** How many distinct tokens it masks. */
  readonly size: number;
}

const ASTERISKS_ONLY = /^\*+$/;

/**
 * A masker for some tokens. An empty token is skipped (it is no token). A token of asterisks alone throws
 * UnmaskableTokenError: it would show through the mask, and it is a masked placeholder, never a token.
 */
export function createTokenMasker(tokens: Iterable<string>, source = "the masker's token list"): TokenMasker {
  const distinct = [...new Set(tokens)].filter((token) => token !== "");
  for (const token of distinct) if (ASTERISKS_ONLY.test(token)) throw new UnmaskableTokenError(source);
  return {
    size: distinct.length,
    mask(text: string): string {
      // Replacing can join a new occurrence across the mask's edge when a token holds asterisks ("a*" in "aa*"), so
      // repeat until none is left. Each round hides at least one character that is not an asterisk, so it ends.
      let masked = text;
      for (let covered = coverage(masked, distinct); covered.length > 0; covered = coverage(masked, distinct)) {
        masked = hide(masked, covered);
      }
      return masked;
    },
  };
}

/**
 * The runs of characters some occurrence of some token covers, sorted and merged. Every occurrence counts, the
 * overlapping ones too: replacing only the leftmost of overlapping occurrences of a periodic token ("abab…") would
 * leave the rest of the token showing.
 */
function coverage(text: string, tokens: readonly string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const token of tokens) {
    for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) spans.push([at, at + token.length]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of spans) {
    const last = merged.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function hide(text: string, runs: ReadonlyArray<readonly [number, number]>): string {
  let out = "";
  let from = 0;
  for (const [start, end] of runs) {
    out += text.slice(from, start) + TOKEN_MASK;
    from = end;
  }
  return out + text.slice(from);
}

/** A masker that masks nothing, for a session that holds no token. */
export const NO_TOKENS: TokenMasker = createTokenMasker([]);
