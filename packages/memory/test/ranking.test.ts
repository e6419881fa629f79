// A query's ranking is bounded: BM25 reads every match's length and positions, so ranking a word found in most of
// a large store cost seconds. Past 2,000 matches the newest 2,000 are ranked, and an any-word query leaves out a word
// found in more entries than that while a rarer word remains; the answer says which happened.
import { describe, expect, it } from "vitest";
import { tempStore } from "./support/temp.js";

/** 2,001 notes holding "alpha", the oldest the one BM25 would rank first; then one note holding "zebra". */
function crowdedStore() {
  const store = tempStore({ role: "librarian" });
  store.ingestTexts([
    { title: "alpha alpha", body: "alpha alpha alpha alpha alpha", source: "n0" },
    ...Array.from({ length: 2_000 }, (_, i) => ({
      title: `Note ${i + 1}`,
      body: `alpha and some other words of note ${i + 1}, written long enough to rank below the first`,
      source: `n${i + 1}`,
    })),
    { title: "Animals", body: "A zebra stands apart.", source: "z" },
  ]);
  return store;
}

describe("a bounded ranking", () => {
  it("ranks the newest 2,000 matches of a word found in more entries, and says so", () => {
    const store = crowdedStore();
    const answer = store.query("alpha", { limit: 5 });
    expect(answer.status).toBe("hits");
    expect(answer.hits.map((hit) => hit.source)).not.toContain("n0");
    expect([answer.total, answer.totalExact]).toEqual([2_000, false]);
    expect(answer.text.split("\n")[0]).toContain(
      'hits 1–5 of more than 2,000 for "alpha" (the newest 2,000 matches ranked; a rarer word narrows it); ' +
        "more than 1,995 more: query again with offset 5",
    );
    // A word found in fewer entries is ranked whole.
    const zebra = store.query("zebra");
    expect([zebra.hits.map((hit) => hit.source), zebra.total, zebra.totalExact]).toEqual([["z"], 1, true]);
    expect(zebra.text).not.toContain("newest");
  });

  it("leaves a word found in more entries out of an any-word query while a rarer word remains", () => {
    const store = crowdedStore();
    const answer = store.query("alpha zebra quokka");
    expect([answer.mode, answer.hits.map((hit) => hit.source), answer.total, answer.totalExact]).toEqual([
      "any",
      ["z"],
      1,
      true,
    ]);
    expect(answer.text.split("\n")[0]).toContain(
      'hits 1–1 of 1 for "alpha zebra quokka" (no entry has every word; these have some) ' +
        "(1 common word left out: each in more entries than a query ranks)",
    );
    // No rarer word found: every word, the newest matches ranked.
    const common = store.query("alpha note quokka");
    expect([common.mode, common.total, common.totalExact]).toEqual(["any", 2_000, false]);
    expect(common.text).not.toContain("left out");
  });

  it("ranks the entries holding every word by the rarer words alone, page by page", () => {
    const store = tempStore({ role: "librarian" });
    store.ingestTexts([
      // Six notes holding "alpha" and "beta" n times, a seventh "beta" alone, then 2,000 holding "alpha" only.
      ...Array.from({ length: 6 }, (_, i) => ({
        title: `Pair ${i + 1}`,
        body: `alpha ${"beta ".repeat(i + 1)}and words enough to make every note about as long as the others`,
        source: `p${i + 1}`,
      })),
      { title: "Lone", body: "beta beta beta beta beta beta beta beta", source: "lone" },
      ...Array.from({ length: 2_000 }, (_, i) => ({
        title: `Note ${i + 1}`,
        body: `alpha and some other words of note ${i + 1}`,
        source: `n${i + 1}`,
      })),
    ]);
    const first = store.query("alpha beta", { limit: 4 });
    expect([first.mode, first.hits.map((hit) => hit.source), first.total, first.totalExact]).toEqual([
      "all",
      ["p6", "p5", "p4", "p3"],
      6,
      true,
    ]);
    const second = store.query("alpha beta", { limit: 4, offset: 4 });
    expect(second.hits.map((hit) => hit.source)).toEqual(["p2", "p1"]);
    // More entries holding both words than a query ranks: the newest 2,000 of them, and the answer says so.
    const crowded = store.query("alpha note", { limit: 3 });
    expect([crowded.hits.length, crowded.total, crowded.totalExact]).toEqual([3, 2_000, false]);
    expect(crowded.text.split("\n")[0]).toContain("(the newest 2,000 matches ranked; a rarer word narrows it)");
  });
});
