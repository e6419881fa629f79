import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_MARKER_CHARS, chunkDocument, type MemoryStore } from "@orphus/memory";
import { sectionChunks } from "./support/chunk-reference.js";
import { tempStore } from "./support/temp.js";

/** Lines but the first (the marker) of an answer, joined: what the budget bounds. */
function budgeted(text: string): string {
  return text.split("\n").slice(1).join("\n");
}

// Text that exercises the sanitiser and the tokenizer: words, punctuation, controls, escapes, bidi, surrogates.
const piece = fc.oneof(
  fc.constantFrom("alpha", "Beta", "gamma", "délta", "ΕΨΙΛΟΝ", "zeta9", "42", " ", "\n", "\n\n", "# head\n", "\t"),
  fc.constantFrom("\u001b[31m", "\u202e", "\u0000", "\ud83d\ude00", "\ud800", "…", '"', "(", "*", "-", ":"),
  fc.string({ maxLength: 12 }),
);
const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));
const entry = fc.record({ title: text.map((t) => (t.trim() === "" ? "untitled" : t.slice(0, 200))), body: text });

describe("the answer bound", () => {
  it("a query answer is at most budget characters plus one marker line, whatever is stored and asked", () => {
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 12 }),
        text.map((t) => t.slice(0, 200)),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 5 }),
        (entries, query, budget, limit, offset) => {
          const store = tempStore({ role: "librarian" });
          try {
            store.ingestTexts(entries);
            const answer = store.query(query, { budget, limit, offset });
            expect(budgeted(answer.text).length).toBeLessThanOrEqual(budget);
            expect(answer.text.split("\n")[0]?.length).toBeLessThanOrEqual(MAX_MARKER_CHARS);
            expect(answer.text.startsWith(`[memory ${store.path}] `)).toBe(true);
            // Nothing the sanitiser removes reaches the answer.
            expect(answer.text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

// Words within the tokenizer's rules: letters and digits (ASCII, Latin-1, Greek), at least one letter.
const word = fc
  .array(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCXYZéüßñΩπλ0123456789"), { minLength: 1, maxLength: 10 })
  .map((chars) => chars.join(""))
  .filter((w) => /[^\d]/.test(w));
const separator = fc.constantFrom(" ", "\n", ", ", ". ", " - ", "\n\n", "; ", "(", ")");
const document = fc
  .array(fc.tuple(word, separator), { minLength: 1, maxLength: 30 })
  .map((parts) => parts.map(([w, s]) => w + s).join(""));

function findsEntry(store: MemoryStore, query: string, id: number): boolean {
  for (let offset = 0; ; offset += 50) {
    const answer = store.query(query, { limit: 50, offset, budget: 50_000 });
    if (answer.hits.some((hit) => hit.id === id)) return true;
    if (answer.status !== "hits" || offset + answer.hits.length >= answer.total) return false;
  }
}

describe("every entry is found by a word it contains", () => {
  it("querying any word of an ingested entry finds it (within the tokenizer's rules)", () => {
    fc.assert(
      fc.property(fc.array(document, { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), (bodies, pick, wordPick) => {
        const store = tempStore({ role: "librarian" });
        try {
          store.ingestTexts(bodies.map((body, i) => ({ title: `entry ${i}`, body, source: `s${i}` })));
          const index = pick % bodies.length;
          const words = (bodies[index] as string).split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
          const chosen = words[wordPick % words.length] as string;
          const id = store
            .query(`entry ${index}`, { limit: 50, budget: 50_000 })
            .hits.find((h) => h.source === `s${index}`)?.id;
          expect(id).toBeDefined();
          expect(findsEntry(store, chosen, id as number)).toBe(true);
        } finally {
          store.close();
        }
      }),
      { numRuns: 80 },
    );
  });
});

describe("idempotent re-ingest", () => {
  it("ingesting the same texts again changes nothing", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ title: word, body: document, source: fc.option(word, { nil: undefined }) }), {
          minLength: 1,
          maxLength: 10,
        }),
        (texts) => {
          const store = tempStore({ role: "librarian" });
          try {
            store.ingestTexts(texts);
            const before = store.stats();
            const again = store.ingestTexts(texts);
            const after = store.stats();
            expect([again.added, again.replaced, again.entriesAdded, again.entriesRemoved]).toEqual([0, 0, 0, 0]);
            expect([after.entries, after.sources]).toEqual([before.entries, before.sources]);
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("chunks", () => {
  it("are each at most the maximum, and together keep every word of the document in order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(document, fc.constantFrom("# A\n", "## B c\n", "```\n# not a heading\n```\n", "\n\n")), {
          maxLength: 30,
        }),
        fc.integer({ min: 8, max: 400 }),
        (parts, max) => {
          const doc = parts.join("");
          const chunks = chunkDocument(doc, max);
          for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(max);
          const words = (s: string): string[] => s.split(/\s+/).filter((w) => w !== "");
          // Splitting happens at white space whenever it can; a word longer than max is cut, so compare characters.
          expect(words(chunks.map((c) => c.text).join(" ")).join("")).toBe(words(doc).join(""));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("cut at headings as a naive line-by-line reference cuts them, fences and headings with nothing under them included", () => {
    const line = fc.constantFrom(
      "# A",
      "## B *c*",
      "###",
      "####### no",
      "  # x",
      "# ![badge](u)",
      "```",
      "~~~",
      "text",
      "para two",
      "",
      " ",
      "\t",
      "\r",
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const doc = lines.join("\n");
        expect(chunkDocument(doc, doc.length + 1)).toEqual(sectionChunks(doc));
      }),
      { numRuns: 500 },
    );
  });
});
