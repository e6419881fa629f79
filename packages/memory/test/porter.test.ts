// The excerpt finder's stemmer against SQLite's own: for any word, porterStem(foldWord(word)) is the term FTS5's
// `porter unicode61 remove_diacritics 2` tokenizer indexes it under (read back through an fts5vocab table).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { transaction } from "../src/store/driver/connection.js";
import { foldWord } from "../src/store/excerpt.js";
import { porterStem } from "../src/store/porter.js";
import { TOKENIZER } from "../src/store/schema.js";
import { rawConnection } from "./support/sqlite.js";

const dir = mkdtempSync(path.join(tmpdir(), "memory-porter-"));
const db = rawConnection(path.join(dir, "words.db"));
db.exec(`CREATE VIRTUAL TABLE words USING fts5(word, tokenize='${TOKENIZER}')`);
db.exec("CREATE VIRTUAL TABLE terms USING fts5vocab(words, 'instance')");
const insert = db.prepare("INSERT INTO words(rowid, word) VALUES (?, ?)");
const termsOf = db.prepare<[], { doc: number; term: string }>("SELECT doc, term FROM terms");
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** FTS5's term for each word (each a single token), by index. */
function sqliteTerms(words: readonly string[]): string[] {
  db.exec("DELETE FROM words");
  transaction(db, "deferred", () => words.forEach((word, i) => insert.run(i + 1, word)));
  const terms = new Array<string>(words.length).fill("");
  for (const row of termsOf.all()) terms[row.doc - 1] = row.term;
  return terms;
}

/** The finder's term: the stem as bytes, read back as UTF-8 text like SQLite's. */
function ourTerm(word: string): string {
  return Buffer.from(porterStem(foldWord(word)), "latin1").toString("utf8");
}

// Every suffix the rules look at, so that generated words reach every branch.
const SUFFIXES = [
  "s",
  "es",
  "ies",
  "sses",
  "ss",
  "ed",
  "eed",
  "ing",
  "at",
  "bl",
  "iz",
  "y",
  "ational",
  "tional",
  "enci",
  "anci",
  "izer",
  "logi",
  "bli",
  "alli",
  "entli",
  "eli",
  "ousli",
  "ization",
  "ation",
  "ator",
  "alism",
  "iveness",
  "fulness",
  "ousness",
  "aliti",
  "iviti",
  "biliti",
  "icate",
  "ative",
  "alize",
  "iciti",
  "ical",
  "ful",
  "ness",
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "sion",
  "tion",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
  "e",
  "ll",
  "atings",
  "ements",
  "fully",
  "ingly",
];
const letters = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz", "y", "y", "e", "a");
const stemPart = fc.array(letters, { minLength: 0, maxLength: 9 }).map((chars) => chars.join(""));
const word = fc
  .oneof(
    fc.tuple(stemPart, fc.constantFrom(...SUFFIXES)).map(([stem, suffix]) => stem + suffix),
    fc.tuple(stemPart, fc.constantFrom(...SUFFIXES), fc.constantFrom(...SUFFIXES)).map(([a, b, c]) => a + b + c),
    stemPart,
    // Case, diacritics and letters outside ASCII: folded first, and bytes outside ASCII are consonants.
    fc
      .tuple(stemPart, fc.constantFrom("É", "é", "ü", "ß", "ñ", "Ω", "π", "ĳ", "Ä", "ø"), fc.constantFrom(...SUFFIXES))
      .map(([a, b, c]) => a + b + c),
    fc.tuple(fc.constantFrom("RE", "Un", "OVER"), stemPart, fc.constantFrom(...SUFFIXES)).map(([a, b, c]) => a + b + c),
  )
  .filter((w) => w !== "");

describe("porterStem", () => {
  it("stems Porter's own examples as FTS5 does", () => {
    const examples = [
      "caresses",
      "ponies",
      "ties",
      "caress",
      "cats",
      "feed",
      "agreed",
      "plastered",
      "bled",
      "motoring",
      "sing",
      "conflated",
      "troubled",
      "sized",
      "hopping",
      "tanned",
      "falling",
      "hissing",
      "fizzed",
      "failing",
      "filing",
      "happy",
      "sky",
      "relational",
      "conditional",
      "rational",
      "valenci",
      "hesitanci",
      "digitizer",
      "conformabli",
      "radicalli",
      "differentli",
      "vileli",
      "analogousli",
      "vietnamization",
      "predication",
      "operator",
      "feudalism",
      "decisiveness",
      "hopefulness",
      "callousness",
      "formaliti",
      "sensitiviti",
      "sensibiliti",
      "triplicate",
      "formative",
      "formalize",
      "electriciti",
      "electrical",
      "hopeful",
      "goodness",
      "revival",
      "allowance",
      "inference",
      "airliner",
      "gyroscopic",
      "adjustable",
      "defensible",
      "irritant",
      "replacement",
      "adjustment",
      "dependent",
      "adoption",
      "homologou",
      "communism",
      "activate",
      "angulariti",
      "homologous",
      "effective",
      "bowdlerize",
      "probate",
      "rate",
      "cease",
      "controll",
      "roll",
      "generalizations",
      "oscillators",
    ];
    const terms = sqliteTerms(examples);
    expect(examples.map(ourTerm)).toEqual(terms);
    // A few pinned literally, so a change in SQLite's stemmer would show here too.
    expect(["caresses", "ponies", "relational", "generalizations", "happy", "hopping"].map(ourTerm)).toEqual([
      "caress",
      "poni",
      "relat",
      "gener",
      "happi",
      "hop",
    ]);
  });

  it("matches FTS5's porter tokenizer on generated words", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 200 }), (words) => {
        expect(words.map(ourTerm)).toEqual(sqliteTerms(words));
      }),
      { numRuns: 60 },
    );
  });
});
