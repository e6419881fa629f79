// The README's marker forms and its whole marker lines, rendered by real digests: the wording for one message and
// for several ("read it", "read them"), the eviction and the collapse, so the table cannot drift from the marker.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { renderDigest, type DigestItem, type DigestRecovery, type EvictedRange } from "@orphus/digest";

const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
const markerRow = readme.split("\n").find((line) => line.startsWith("| marker |")) ?? "";
/** Every code span of the README's marker row. */
const spans = [...markerRow.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

/** Items `from`..`to`, each longer than a budget of 0 can show. */
function items(from: number, to: number, pinned: boolean): DigestItem[] {
  return Array.from({ length: to - from + 1 }, (_, i) => ({
    seq: from + i,
    author: "critic",
    body: `message ${from + i}`,
    ...(pinned ? { pinned: `task ${from + i}` } : {}),
  }));
}

/** The marker of a digest that evicted `evicted` and, at budget 0, collapsed the messages `collapsed` names. */
function markerOf(
  evicted: EvictedRange | undefined,
  collapsed: { from: number; to: number } | undefined,
  recovery: DigestRecovery = "fetch",
): string | null {
  const after = (evicted?.toSeq ?? 0) + 1;
  return renderDigest({
    // Without a collapse, one short message after the eviction, shown whole.
    items:
      collapsed === undefined
        ? [{ seq: after, author: "critic", body: "ok" }]
        : items(collapsed.from, collapsed.to, recovery === "pinned"),
    budget: collapsed === undefined ? 2000 : 0,
    ...(evicted === undefined ? {} : { evicted }),
    recovery,
  }).marker;
}

const range = (from: string, to: string | undefined): { from: number; to: number } => ({
  from: Number(from),
  to: Number(to ?? from),
});

test("each form the marker row gives, filled in for one message and for three, is what a digest says", () => {
  const forms = spans.filter((span) => /^[N1] (message|item)/.test(span));
  for (const form of forms) {
    const one = form.startsWith("1 ");
    const filled = form
      .replace(/^N /, "3 ")
      .replace("#a–#b", "#4–#6")
      .replace("#a", "#4")
      .replace("afterSeq=A", "afterSeq=3");
    const seqs = { from: 4, to: one ? 4 : 6 };
    const marker = form.includes(" evicted ")
      ? markerOf({ count: seqs.to - seqs.from + 1, fromSeq: seqs.from, toSeq: seqs.to }, undefined)
      : markerOf(undefined, seqs, form.includes("pinned") ? "pinned" : "fetch");
    expect(marker, form).toBe(`[digest] ${filled}.`);
  }
  // Eviction, collapse and the pinned collapse, each for several messages and for one.
  expect(forms.length).toBe(6);
});

test("each whole marker line the README shows is the marker of a digest with those numbers", () => {
  const examples = spans.filter((span) => span.startsWith("[digest] ") && span.endsWith("."));
  expect(examples.length).toBeGreaterThanOrEqual(3);
  for (const example of examples) {
    const evicted = /(\d+) messages? evicted before you read \w+ \(#(\d+)(?:–#(\d+))?\)/.exec(example);
    const collapsed = /(\d+) messages? collapsed \(#(\d+)(?:–#(\d+))?\)/.exec(example);
    const evictedRange = evicted === null ? undefined : range(evicted[2] as string, evicted[3]);
    const marker = markerOf(
      evictedRange === undefined
        ? undefined
        : { count: evictedRange.to - evictedRange.from + 1, fromSeq: evictedRange.from, toSeq: evictedRange.to },
      collapsed === null ? undefined : range(collapsed[2] as string, collapsed[3]),
    );
    expect(marker, example).toBe(example);
  }
});
