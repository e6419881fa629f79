// A generated corpus of notes for the scaling benchmark (memory-scale.bench.ts): deterministic from its seed, so every
// run and every cached store holds the same text, and shaped like what a librarian stores rather than like uniform
// noise. Words follow Zipf's law over a vocabulary whose top ranks are the English function words (about two fifths
// of all words, as in English prose) and whose long tail is made-up pronounceable words, a few of them identifiers
// (camelCase, snake_case, dotted names); sentences of 6 to 24 words, paragraphs of 1 to 6 sentences, now and then a
// Markdown heading, a list or a code line; bodies from about 150 to 4,000 characters (most near 700), titles of 3 to
// 8 words, tags on a third of the notes. Entry i depends on the seed and i alone, so a store of n entries is the
// first n of every larger one.
import { seededRandom } from "../../../bench-support/stats.js";
import type { MemoryText } from "@orphus/memory";

/** Bumped whenever the text this file generates changes: cached stores are keyed by it. */
export const CORPUS_VERSION = 1;

const FUNCTION_WORDS = (
  "the of and to a in is that for it as with was on be by this are or from at not have an but which can " +
  "we if they when all one will there their has so more its no would what about into only other than then " +
  "also how do should after before each must may use new used where these does why any both because"
).split(" ");

const ONSETS = [
  "b",
  "br",
  "c",
  "ch",
  "d",
  "f",
  "g",
  "gr",
  "h",
  "j",
  "k",
  "l",
  "m",
  "n",
  "p",
  "pl",
  "r",
  "s",
  "st",
  "t",
  "tr",
  "v",
  "w",
  "z",
];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ea", "io", "ou"];
const CODAS = ["", "", "", "n", "r", "s", "t", "l", "nd", "ck", "x", "m"];

/** Content words after the function words: made up, pronounceable, distinct. */
const CONTENT_WORDS = 60_000;

function makeVocabulary(): string[] {
  const random = seededRandom(1_000_003);
  const seen = new Set<string>(FUNCTION_WORDS);
  const words = [...FUNCTION_WORDS];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  while (words.length < FUNCTION_WORDS.length + CONTENT_WORDS) {
    const syllables = 1 + Math.floor(random() * random() * 4) + (random() < 0.6 ? 1 : 0);
    let word = "";
    for (let s = 0; s < syllables; s++) word += pick(ONSETS) + pick(VOWELS) + (s === syllables - 1 ? pick(CODAS) : "");
    // About one word in 40 is an identifier, as code names are in engineering notes.
    const shape = random();
    if (shape < 0.01) word = `${word}${pick(ONSETS).toUpperCase()}${pick(VOWELS)}${pick(CODAS)}`;
    else if (shape < 0.02) word = `${word}_${pick(ONSETS)}${pick(VOWELS)}`;
    else if (shape < 0.025) word = `${word}.${pick(ONSETS)}${pick(VOWELS)}${pick(CODAS)}`;
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/** Every word of the corpus, most used first: rank r is used in proportion to 1 / (r + 2.7)^1.05. */
export const VOCABULARY: readonly string[] = makeVocabulary();

/** Cumulative Zipf weights over VOCABULARY, for sampling by binary search. */
const CUMULATIVE = (() => {
  const out = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let r = 0; r < VOCABULARY.length; r++) {
    sum += 1 / (r + 2.7) ** 1.05;
    out[r] = sum;
  }
  for (let r = 0; r < out.length; r++) out[r] = (out[r] as number) / sum;
  return out;
})();

/** The rank a uniform number in [0, 1) falls on. */
function rankOf(u: number): number {
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((CUMULATIVE[mid] as number) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A word drawn by Zipf's law; with `from`, only ranks from `from` on (content words). */
export function zipfWord(random: () => number, from = 0): string {
  const low = from === 0 ? 0 : (CUMULATIVE[from - 1] as number);
  return VOCABULARY[rankOf(low + random() * (1 - low))] as string;
}

/** How many function words open the vocabulary. */
export const FUNCTION_WORD_COUNT = FUNCTION_WORDS.length;

function sentence(random: () => number): string {
  const length = 6 + Math.floor(random() * 19);
  const words: string[] = [];
  for (let w = 0; w < length; w++) words.push(zipfWord(random));
  const first = words[0] as string;
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(" ")}${random() < 0.1 ? "?" : "."}`;
}

function paragraph(random: () => number): string {
  const shape = random();
  if (shape < 0.08) {
    return Array.from({ length: 2 + Math.floor(random() * 4) }, () => `- ${sentence(random)}`).join("\n");
  }
  if (shape < 0.12) {
    return `    ${zipfWord(random, FUNCTION_WORD_COUNT)}(${zipfWord(random, FUNCTION_WORD_COUNT)}, ${zipfWord(random)});`;
  }
  return Array.from({ length: 1 + Math.floor(random() * 6) }, () => sentence(random)).join(" ");
}

/** Entry `i` of the corpus of `seed`: a note with a title, a body, maybe tags, and its own source. */
export function corpusText(seed: number, i: number): MemoryText {
  const random = seededRandom(seed * 1_000_003 + i * 7_919 + 1);
  // Body lengths spread like notes do: most short, some long, capped below the chunk size of files.
  const target = Math.min(4_000, Math.floor(150 + 550 * Math.exp(random() * 1.6 - 0.3) * random() * 1.6));
  const parts: string[] = [];
  let length = 0;
  while (length < target) {
    const part = random() < 0.06 ? `## ${sentence(random).slice(0, -1)}` : paragraph(random);
    parts.push(part);
    length += part.length + 2;
  }
  const titleWords = Array.from({ length: 3 + Math.floor(random() * 6) }, () => zipfWord(random));
  const tags =
    random() < 0.33
      ? Array.from({ length: 1 + Math.floor(random() * 3) }, () => zipfWord(random, FUNCTION_WORD_COUNT))
      : undefined;
  return {
    title: titleWords.join(" "),
    body: parts.join("\n\n").slice(0, 4_000),
    source: `scale:${seed}:${i}`,
    ...(tags === undefined ? {} : { tags }),
  };
}
