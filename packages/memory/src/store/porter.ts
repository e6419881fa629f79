// The Porter stemmer as the index applies it (SQLite FTS5's `porter` tokenizer), so that the excerpt finder can
// tell which words of an entry a query matched without asking SQLite to tokenize the entry again. Written from
// Porter's published algorithm, with the choices FTS5 makes: tokens of fewer than 3 or more than 64 UTF-8 bytes are
// left alone; the rules work on bytes, so a byte outside ASCII is a consonant; in each step the first rule whose
// suffix ends the word is the only one tried. test/porter.test.ts checks it against SQLite itself.

/** Tokens outside this many UTF-8 bytes are not stemmed by FTS5. */
const MIN_STEMMED_BYTES = 3;
const MAX_STEMMED_BYTES = 64;

function isVowel(word: string, i: number, previousIsConsonant: boolean): boolean {
  const c = word.charCodeAt(i);
  // a e i o u, and y after a consonant.
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || (c === 121 && previousIsConsonant);
}

/** Consonant (true) or vowel (false) for each character of `word[0, length)`, y judged by what precedes it. */
function consonants(word: string, length: number, startAfterConsonant: boolean): boolean[] {
  const out = new Array<boolean>(length);
  let previous = startAfterConsonant;
  for (let i = 0; i < length; i++) {
    previous = !isVowel(word, i, previous);
    out[i] = previous;
  }
  return out;
}

/** Porter's measure m of `word[0, length)`: how many vowel-consonant sequences follow the leading consonants. */
function measure(word: string, length: number): number {
  const cons = consonants(word, length, false);
  let m = 0;
  for (let i = 1; i < length; i++) if (cons[i] === true && cons[i - 1] === false) m++;
  return m;
}

/** *v*: `word[0, length)` holds a vowel (y counts after the first character). */
function hasVowel(word: string, length: number): boolean {
  for (let i = 0; i < length; i++) if (isVowel(word, i, i > 0)) return true;
  return false;
}

/** *o: `word[0, length)` ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(word: string, length: number): boolean {
  if (length < 3) return false;
  const last = word[length - 1];
  if (last === "w" || last === "x" || last === "y") return false;
  const cons = consonants(word, length, false);
  return cons[length - 1] === true && cons[length - 2] === false && cons[length - 3] === true;
}

type Condition = (word: string, stemLength: number) => boolean;

const mAbove0: Condition = (word, n) => measure(word, n) > 0;
const mAbove1: Condition = (word, n) => measure(word, n) > 1;
const mAbove1AndSOrT: Condition = (word, n) => (word[n - 1] === "s" || word[n - 1] === "t") && measure(word, n) > 1;

/** One step: suffixes in the order they are tried, each with its replacement. */
type Rules = readonly (readonly [suffix: string, replacement: string])[];

const STEP_2: Rules = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["logi", "log"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
];
const STEP_3: Rules = [
  ["ical", "ic"],
  ["ness", ""],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ful", ""],
  ["ative", ""],
  ["alize", "al"],
];
const STEP_4: Rules = [
  ["al", ""],
  ["ance", ""],
  ["ence", ""],
  ["er", ""],
  ["ic", ""],
  ["able", ""],
  ["ible", ""],
  ["ant", ""],
  ["ement", ""],
  ["ment", ""],
  ["ent", ""],
  ["ion", ""],
  ["ou", ""],
  ["ism", ""],
  ["ate", ""],
  ["iti", ""],
  ["ous", ""],
  ["ive", ""],
  ["ize", ""],
];

/** Applies the first rule whose suffix ends `word` (and is shorter than it), when its condition holds. */
function step(word: string, rules: Rules, condition: (suffix: string) => Condition): string {
  for (const [suffix, replacement] of rules) {
    if (word.length > suffix.length && word.endsWith(suffix)) {
      const stem = word.length - suffix.length;
      return condition(suffix)(word, stem) ? word.slice(0, stem) + replacement : word;
    }
  }
  return word;
}

function step1(input: string): string {
  let word = input;
  // 1a: sses → ss, ies → i, ss → ss, s → "".
  if (word.endsWith("s")) {
    if (
      word.endsWith("es") &&
      ((word.length > 4 && word.endsWith("sses")) || (word.length > 3 && word.endsWith("ies")))
    ) {
      word = word.slice(0, -2);
    } else if (!word.endsWith("ss")) word = word.slice(0, -1);
  }
  // 1b: eed → ee when m > 0; ed, ing dropped when what is left has a vowel, then tidied.
  let dropped = false;
  if (word.length > 3 && word.endsWith("eed")) {
    if (measure(word, word.length - 3) > 0) word = word.slice(0, -1);
  } else if (word.length > 2 && word.endsWith("ed")) {
    if (hasVowel(word, word.length - 2)) [word, dropped] = [word.slice(0, -2), true];
  } else if (word.length > 3 && word.endsWith("ing")) {
    if (hasVowel(word, word.length - 3)) [word, dropped] = [word.slice(0, -3), true];
  }
  if (dropped) {
    const n = word.length;
    if (n > 2 && (word.endsWith("at") || word.endsWith("bl") || word.endsWith("iz"))) word += "e";
    else {
      const last = word[n - 1] as string;
      if (
        n > 1 &&
        last === word[n - 2] &&
        !isVowel(word, n - 1, false) &&
        last !== "l" &&
        last !== "s" &&
        last !== "z"
      ) {
        word = word.slice(0, -1);
      } else if (measure(word, n) === 1 && endsCvc(word, n)) word += "e";
    }
  }
  // 1c: y → i when what precedes it has a vowel.
  if (word.endsWith("y") && hasVowel(word, word.length - 1)) word = `${word.slice(0, -1)}i`;
  return word;
}

/** A token's stem as FTS5's porter tokenizer computes it; `token` is already folded (lower case, no diacritics). */
export function porterStem(token: string): string {
  // The rules read bytes: one character per UTF-8 byte, so lengths and "a byte outside ASCII is a consonant" hold.
  const bytes = Buffer.from(token, "utf8").toString("latin1");
  if (bytes.length < MIN_STEMMED_BYTES || bytes.length > MAX_STEMMED_BYTES) return bytes;
  let word = step1(bytes);
  word = step(word, STEP_2, () => mAbove0);
  word = step(word, STEP_3, () => mAbove0);
  word = step(word, STEP_4, (suffix) => (suffix === "ion" ? mAbove1AndSOrT : mAbove1));
  // 5a: a final e goes when m > 1, or m = 1 and the rest does not end consonant-vowel-consonant.
  if (word.endsWith("e")) {
    const n = word.length - 1;
    const m = measure(word, n);
    if (m > 1 || (m === 1 && !endsCvc(word, n))) word = word.slice(0, n);
  }
  // 5b: ll → l when m > 1.
  if (word.length > 1 && word.endsWith("ll") && measure(word, word.length - 1) > 1) word = word.slice(0, -1);
  return word;
}
