import { UnmaskableTokenError } from "../errors.js";
import { TOKEN_MASK } from "../limits.js";

/** Masks tokens in text. */
export interface TokenMasker {
  /** The text with every occurrence of every token replaced by `***`, including occurrences the masking itself joins. */
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
  // Longest first, so a token holding a shorter one is masked whole.
  distinct.sort((a, b) => b.length - a.length);
  return {
    size: distinct.length,
    mask(text: string): string {
      // Replacing can join a new occurrence across the mask's edge when a token holds asterisks ("a*" in "aa*"), so
      // repeat until none is left. Each round removes at least one character that is not an asterisk, so it ends.
      let masked = text;
      for (let changed = true; changed; ) {
        changed = false;
        for (const token of distinct) {
          if (!masked.includes(token)) continue;
          masked = masked.split(token).join(TOKEN_MASK);
          changed = true;
        }
      }
      return masked;
    },
  };
}

/** A masker that masks nothing, for a session that holds no token. */
export const NO_TOKENS: TokenMasker = createTokenMasker([]);
