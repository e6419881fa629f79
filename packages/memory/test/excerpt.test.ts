// Excerpts: the passage around the words a query matched, found with the index's own tokenizer rules, bounded, and
// found only for the hits an answer shows.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXCERPT_MAX_CHARS } from "@orphus/memory";
import { ExcerptFinder } from "../src/store/excerpt.js";
import { tempStore } from "./support/temp.js";

const filler = (n: number, word = "filler"): string =>
  Array.from({ length: n }, (_, i) => `${word}${i % 7 === 6 ? "." : ""}`).join(" ");

describe("ExcerptFinder", () => {
  it("shows the passage around a stemmed match, cut at spaces with an ellipsis where cut", () => {
    const text = `${filler(120)} We are releasing the packages with changesets. ${filler(120)}`;
    const excerpt = new ExcerptFinder(["Release"], 300).find(text);
    expect(excerpt.length).toBeLessThanOrEqual(300);
    expect(excerpt).toContain("releasing the packages");
    expect(excerpt.startsWith("…")).toBe(true);
    expect(excerpt.endsWith("…")).toBe(true);
  });

  it("prefers the span holding the most distinct query words", () => {
    const text = `${filler(60)} alpha alone here. ${filler(80)} alpha and beta together. ${filler(80)}`;
    expect(new ExcerptFinder(["beta", "alpha"], 120).find(text)).toContain("alpha and beta together");
  });

  it("folds case and diacritics like the index, and finds words after letters outside ASCII", () => {
    const text = `${filler(80)} Ωμέγα says Résumés were REVIEWED. ${filler(80)}`;
    expect(new ExcerptFinder(["resume"], 100).find(text)).toContain("Résumés");
    expect(new ExcerptFinder(["reviewing"], 100).find(text)).toContain("REVIEWED");
    expect(new ExcerptFinder(["ωμεγα"], 100).find(text)).toContain("Ωμέγα");
  });

  it("a word inside another word is no match; no match shows the start", () => {
    const text = `${filler(80)} prerelease only. ${filler(80)}`;
    const excerpt = new ExcerptFinder(["release"], 100).find(text);
    expect(excerpt.startsWith("filler filler")).toBe(true);
    expect(excerpt).not.toContain("prerelease");
    expect(excerpt.endsWith("…")).toBe(true);
    expect(new ExcerptFinder(["release"], 100).find("short text")).toBe("short text");
  });

  it("is at most the maximum, keeps surrogate pairs whole, and shows a word of the text it is asked for", () => {
    const piece = fc.constantFrom("alpha", "Beta", "gamma", "délta", "😀", "\ud83d", "x", " ", "\n", ". ", "-", "ΩΨ");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 300 }),
        fc.nat(),
        fc.integer({ min: 8, max: 400 }),
        (pieces, pick, max) => {
          const text = pieces.join("");
          const words = text.match(/[\p{L}\p{N}]+/gu) ?? ["none"];
          const word = words[pick % words.length] as string;
          const excerpt = new ExcerptFinder([word], max).find(text);
          expect(excerpt.length).toBeLessThanOrEqual(Math.max(max, text.length <= max ? text.length : 0));
          const inner = excerpt.replace(/^…|…$/g, "");
          expect(text).toContain(inner);
          expect(/^[\udc00-\udfff]/.test(inner) && !/^[\udc00-\udfff]/.test(text)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("excerpts in answers", () => {
  it("an entry's excerpt shows where it matched, deep inside it", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts([
      { title: "Long notes", body: `${filler(400)} The broker restarts after an idle exit. ${filler(400)}` },
    ]);
    const answer = store.query("restarting broker");
    expect(answer.text).toContain("The broker restarts after an idle exit.");
    expect(answer.hits[0]?.excerpt).toContain("The broker restarts");
    expect(answer.hits[0]?.excerpt?.length).toBeLessThanOrEqual(EXCERPT_MAX_CHARS);
  });

  it("excerpts are found only for the hits the budget shows them for", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts(Array.from({ length: 6 }, (_, i) => ({ title: `note ${i}`, body: `shared ${filler(200)}` })));
    // Six headers fit; what is left after them holds one excerpt.
    const answer = store.query("shared", { budget: 6 * 30 + 120 });
    const lines = answer.text.split("\n").slice(1);
    expect(answer.hits).toHaveLength(6);
    expect(lines.filter((line) => line.startsWith("  "))).toHaveLength(1);
    expect(answer.hits.map((hit) => hit.excerpt !== undefined)).toEqual([true, false, false, false, false, false]);
  });
});

describe("the count of matches", () => {
  it('stops 100 past the page shown (internal, not exported), and the marker says "more than"', () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts(Array.from({ length: 120 }, (_, i) => ({ title: `note ${i}`, body: `common word ${i}` })));
    const answer = store.query("common", { limit: 5 });
    expect([answer.total, answer.totalExact]).toEqual([105, false]);
    expect(answer.text.split("\n")[0]).toBe(
      `[memory ${store.path}] hits 1–5 of more than 105 for "common"; more than 100 more: query again with offset 5; ` +
        "get <id> reads an entry in full",
    );
    const exact = store.query("common", { limit: 10, offset: 15 });
    expect([exact.total, exact.totalExact]).toEqual([120, true]);
    expect(exact.text.split("\n")[0]).toContain("hits 16–25 of 120");
    expect(exact.text.split("\n")[0]).toContain("95 more: query again with offset 25");
    const past = store.query("common", { offset: 500 });
    expect([past.total, past.totalExact]).toEqual([120, true]);
    expect(past.text.split("\n")[0]).toContain("no hits after offset 500: 120 hits in all");
  });
});
