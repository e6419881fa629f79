// `pnpm demo` (the repository's main job) shows the whole promise: its accounting sets each context against what the
// others wrote as well as against the room, what was pulled unasked apart from what was fetched, measures every digest
// against its bound, and the run itself fetches one big message whole on demand, has the memory answer one role with
// what another filed, and plays the deliberation again at 1×, 10× and 100× the text to show the share falling.
// @source-only: the demo is not published; it runs from the sources, as `pnpm demo` does.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { expect, test } from "vitest";
import { grownBody, grownPosts, splitBody } from "../demo/grown.js";
import { contextTable, intakeOf, measureDigest, sizeTable, withinBound } from "../demo/report.js";
import { DEMO_SCRIPT, type Turn } from "../demo/script.js";

const script: Turn[] = [
  { role: "planner", headline: "a", body: "p".repeat(600) },
  { role: "critic", headline: "b", body: "c".repeat(300) },
  { role: "reviewer", headline: "c", body: "r".repeat(100) },
];

test("a role's share is set against the room and against what the others wrote, its own posts left out", () => {
  const intake = intakeOf(
    "planner",
    [
      { kind: "ping", text: "x".repeat(20) },
      { kind: "digest", text: "x".repeat(80) },
      { kind: "fetch", text: "x".repeat(60) },
      { kind: "memory", text: "x".repeat(30) },
      { kind: "reply", text: "x".repeat(10) },
    ],
    script,
  );
  expect(intake).toMatchObject({ total: 200, roomChars: 1000, ownChars: 600, shareOfRoom: 0.2, shareOfOthers: 0.5 });
  expect(intake.byKind).toEqual({
    ping: { count: 1, chars: 20 },
    digest: { count: 1, chars: 80 },
    fetch: { count: 1, chars: 60 },
    memory: { count: 1, chars: 30 },
    reply: { count: 1, chars: 10 },
  });
  // Pulled unasked (pings and digests) apart from fetched on purpose, each of what the others wrote.
  expect(intake).toMatchObject({ unasked: { count: 2, chars: 100 }, unaskedOfOthers: 0.25, fetchedOfOthers: 0.15 });
  const critic = intakeOf("critic", [{ kind: "digest", text: "y".repeat(70) }], script);
  expect(contextTable([intake, critic])).toEqual([
    "role      pings  digests  fetches  memory  replies  in context  others wrote  pulled unasked  fetched  of others'  of the room",
    "planner  1 = 20   1 = 80   1 = 60  1 = 30   1 = 10         200           400           25.0%    15.0%       50.0%        20.0%",
    "critic        —   1 = 70        —       —        —          70           700           10.0%        —       10.0%         7.0%",
  ]);
});

test("the table of sizes sets what each role pulled unasked and what it fetched against the room at each size", () => {
  const small = [...script];
  const large = script.map((turn) => ({ ...turn, body: turn.body.repeat(10) }));
  const sizes = [
    {
      factor: 1,
      posts: small,
      intakes: [
        intakeOf(
          "planner",
          [
            { kind: "ping", text: "x".repeat(20) },
            { kind: "digest", text: "x".repeat(80) },
            { kind: "fetch", text: "x".repeat(60) },
          ],
          small,
        ),
        intakeOf("critic", [{ kind: "digest", text: "x".repeat(70) }], small),
      ],
    },
    {
      factor: 10,
      posts: large,
      intakes: [
        intakeOf(
          "planner",
          [
            { kind: "ping", text: "x".repeat(20) },
            { kind: "digest", text: "x".repeat(180) },
            { kind: "fetch", text: "x".repeat(600) },
          ],
          large,
        ),
        intakeOf("critic", [{ kind: "digest", text: "x".repeat(140) }], large),
      ],
    },
  ];
  expect(sizeTable(sizes)).toEqual([
    "                                  1×          10×",
    "room     characters            1,000       10,000",
    "         posts                     3            3",
    "planner  pulled unasked  100 = 25.0%   200 = 5.0%",
    "         fetched          60 = 15.0%  600 = 15.0%",
    "critic   pulled unasked   70 = 10.0%   140 = 2.0%",
    "         fetched                   —            —",
  ]);
});

test("a grown body is the body, then generated log lines, cut at the multiple of its length", () => {
  const body = "Nit taken: oldest-pending age per shard.";
  expect(grownBody(body, 1, 1)).toBe(body);
  const grown = grownBody(body, 100, 1);
  expect(grown).toHaveLength(4000);
  expect(grown.startsWith(`${body}\n\nThe delivery log this rests on:\n2026-11-21T03:10:`)).toBe(true);
  expect(grown).toMatch(
    /^2026-11-21T03:\d\d:\d\dZ webhook\.send order=ord_\d+ endpoint=hooks\.merchant-\d+\.example attempt=1 /m,
  );
});

test("a body longer than a post holds is split at line ends into parts within the limit, and nothing else is lost", () => {
  expect(splitBody("one\ntwo\nthree", 8)).toEqual(["one\ntwo", "three"]);
  expect(splitBody("one\ntwo", 7)).toEqual(["one\ntwo"]);
  expect(splitBody("é\né", 3)).toEqual(["é", "é"]); // UTF-8 bytes, not characters: "é\né" is 5 bytes
  expect(() => splitBody("a".repeat(9), 8)).toThrow("a line of 9 bytes cannot go in a post of at most 8");
  const posts = grownPosts(DEMO_SCRIPT, 100);
  // Within the broker's default body limit, 32 KiB.
  for (const post of posts) expect(Buffer.byteLength(post.body)).toBeLessThanOrEqual(32_768);
  // Every turn's parts, joined by the line breaks the cuts dropped, are its grown body, in the script's order.
  DEMO_SCRIPT.forEach((turn, index) => {
    const parts = posts.filter((post) => post.turn === index);
    expect(parts.map((part) => part.body).join("\n")).toBe(grownBody(turn.body, 100, index + 1));
    expect(parts.every((part) => part.role === turn.role)).toBe(true);
    if (parts.length > 1)
      expect(parts.map((part) => part.headline).at(-1)).toBe(`${turn.headline} (${parts.length}/${parts.length})`);
  });
  expect(posts.map((post) => post.turn)).toEqual([...posts.map((post) => post.turn)].sort((a, b) => a - b));
});

test("a digest is measured against its bound: the budget, plus one marker line", () => {
  const marker = "[digest] 3 messages collapsed (#1–#3), fetch afterSeq=0 to read them.";
  const text = `${marker}\n[#4 critic] ${"b".repeat(50)}`;
  expect(measureDigest(text)).toEqual({ budgeted: 62, marker: marker.length, markers: 1 });
  expect(withinBound(measureDigest(text), 62)).toBe(true);
  expect(withinBound(measureDigest(text), 61)).toBe(false);
  expect(withinBound(measureDigest(`${marker}\n${marker}`), 800)).toBe(false);
  expect(measureDigest("[#1 planner] hello")).toEqual({ budgeted: 18, marker: 0, markers: 0 });
});

test(
  "pnpm demo runs to the end and shows a fetch on demand, both shares, the largest digest and the memory",
  { timeout: 120_000 },
  () => {
    const tsx = createRequire(import.meta.url).resolve("tsx/cli");
    const demo = join(import.meta.dirname, "..", "demo", "demo.ts");
    // As `pnpm demo` runs it, with the registry of this test run (test-support/global-setup.ts) in the environment.
    const run = spawnSync(process.execPath, [tsx, "--conditions=@orphus/source", demo], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
      timeout: 110_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    const out = run.stdout;
    expect(out).toMatch(/^ {7}planner {3}fetched #33 whole before speaking: [\d,]+ characters, on demand$/m);
    expect(out).toMatch(
      /^Full text on demand: the planner fetched #33 \("Shadow dry run: 0 diffs in 40 sends", 5,342 characters\) whole\.$/m,
    );
    expect(out).toMatch(
      /^ {2}role +pings +digests +fetches +memory +replies +in context +others wrote +pulled unasked +fetched +of others' +of the room$/m,
    );
    for (const role of ["planner", "critic", "reviewer", "librarian"]) {
      expect(out).toMatch(new RegExp(`^ {2}${role} .* \\d+\\.\\d% +(\\d+\\.\\d%|—) +\\d+\\.\\d% +\\d+\\.\\d%$`, "m"));
    }
    // The table of sizes: per role, what it pulled unasked and, on a line of its own, what it fetched, at 1×, 10× and
    // 100×; the unasked share falls as the room grows, since each digest stays within its budget.
    expect(out).toMatch(/^The same deliberation as the room grows: every body 1×, 10×, 100× as long/m);
    expect(out).toMatch(/^ {2} +1× +10× +100×$/m);
    const [, ...sizes] = /^ {2}room +characters +([\d,]+) +([\d,]+) +([\d,]+)$/m.exec(out) ?? [];
    const chars = sizes.map((size) => Number(size.replaceAll(",", "")));
    expect(chars).toHaveLength(3);
    expect(chars[1]).toBeGreaterThan(9 * (chars[0] ?? 0));
    expect(chars[2]).toBeGreaterThan(9 * (chars[1] ?? 0));
    const cell = "([\\d,]+ = (\\d+\\.\\d)%|—)";
    for (const role of ["planner", "critic", "reviewer", "librarian"]) {
      const rows = new RegExp(
        `^ {2}${role} +pulled unasked +${cell} +${cell} +${cell}\\n {2} +fetched +${cell} +${cell} +${cell}$`,
        "m",
      ).exec(out);
      expect(rows, role).not.toBeNull();
      const unasked = [rows?.[2], rows?.[4], rows?.[6]].map(Number);
      expect(unasked[2], role).toBeLessThan(unasked[0] ?? 0);
      expect(unasked[2], role).toBeLessThan(unasked[1] ?? 0);
      expect(unasked[1], role).toBeLessThan(unasked[0] ?? 0);
    }
    // Only the planner (and the librarian) fetched: their fetches show apart from what they pulled unasked.
    expect(out).toMatch(
      /^ {2}planner +pulled unasked .*\n {2} +fetched +[\d,]+ = \d+\.\d% +[\d,]+ = \d+\.\d% +[\d,]+ = \d+\.\d%$/m,
    );
    expect(out).toMatch(/^ {2}critic +pulled unasked .*\n {2} +fetched +— +— +—$/m);
    expect(out).toMatch(
      /^Share of the others' text pulled unasked \(pings \+ digests\) at 1× → 10× → 100×: planner [\d.]+% → /m,
    );
    expect(out).toMatch(
      /^The largest of all \d+ digests, beside its budget of 800: [\d,]+ characters \(the \w+'s\) = \d+ within the budget/m,
    );
    expect(out).toContain("Every digest kept that bound, whatever the room held.");
    expect(out).toMatch(
      /^ {7}librarian memory ingest "Webhook retries: the decision", from roundtable:webhook-retries#34$/m,
    );
    expect(out).toMatch(/^ {2}│ \[memory .*memory\.db\] hits 1–1 of 1 for "shadow mode gated decision"/m);
    expect(out).toMatch(/^ {2}│ \[#1\] Webhook retries: the decision · roundtable:webhook-retries#34$/m);
    expect(out).toMatch(/^ {2}│ {3}Decision: plan v2 with the per-shard nit/m);
    expect(out).toMatch(/exited by itself [\d.]+ s after the last agent disconnected/);
    expect(out).toMatch(/^Done in [\d.]+ s\./m);
  },
);
