import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  createLlmAdapter,
  createSessionContextAdapter,
  createTokenMasker,
  devBatchesCompleted,
  devImplementCompleted,
  NO_RULES,
  nextLaunch,
  runMainLoopTurn,
  type SessionContextPort,
} from "@orphus/orkeon-crew";
import { FakeCrewHost, FakeLlm, FakeSessionContext } from "@orphus/orkeon-crew/testing";

// Finding 1 of issue 16: messages were cut first and masked afterwards, so the masker never saw the whole token.
// The property: for any token and any surrounding text, no line the package lets out holds 8 characters of the token.

const SHOWN = 8;

/** Every run of {@link SHOWN} characters of the token. */
function pieces(token: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + SHOWN <= token.length; i++) out.push(token.slice(i, i + SHOWN));
  return out;
}

function leaked(line: string, token: string): string | undefined {
  return pieces(token).find((piece) => line.includes(piece));
}

/**
 * Tokens: GitHub's shapes, and any text of 8 to 64 characters. An asterisk is left out: it is the mask's own
 * character, so `***` beside surrounding asterisks could spell a run of an asterisk-laden token without leaking it.
 */
const alnum = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split(""));
const token = fc
  .oneof(
    fc.array(alnum, { minLength: 36, maxLength: 36 }).map((chars) => `ghp_${chars.join("")}`),
    fc.array(fc.constantFrom(..."0123456789abcdef".split("")), { minLength: 40, maxLength: 40 }).map((c) => c.join("")),
    fc.string({ minLength: SHOWN, maxLength: 64 }),
    fc.string({ minLength: SHOWN, maxLength: 24, unit: fc.constantFrom("a", "b", " ", '"', "\n") }),
  )
  .filter((t) => !t.includes("*"));

/** Surrounding text: anything, long runs that push the token across a cut, and fragments of the token itself. */
function surrounding(t: string): fc.Arbitrary<string> {
  const fragment = fc
    .tuple(fc.nat({ max: t.length }), fc.integer({ min: 1, max: SHOWN - 1 }))
    .map(([at, n]) => t.slice(at, at + n));
  return fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.integer({ min: 0, max: 300 }).map((n) => "y".repeat(n)),
    fragment,
  );
}

/** The token put anywhere in a text, any number of times (at least once). */
const case_ = token.chain((t) =>
  fc.tuple(
    fc.constant(t),
    fc.array(surrounding(t), { minLength: 2, maxLength: 4 }).map((parts) => parts),
  ),
);

const writing = { mode: "default", rules: NO_RULES, githubTool: true } as const;

/** Every line the package lets out in each path a text from outside can take, with the token's masker. */
async function linesFor(t: string, message: string): Promise<string[]> {
  const mask = createTokenMasker([t]).mask;
  const lines: string[] = [];
  const print = (line: string) => lines.push(line);
  const decisionLines = (d: Awaited<ReturnType<typeof nextLaunch>>) => {
    if (d.kind === "launch" && d.notice !== undefined) lines.push(d.notice);
    if (d.kind === "refused") lines.push(d.message, d.mode);
  };

  // A session read that fails, with an Error, a string, or an object carrying a message.
  for (const failure of [new Error(message), message, { message }]) {
    const session = new FakeSessionContext(writing).failWith(failure);
    decisionLines(await nextLaunch({ run: "r", hop: "audit" }, { session, mask }));
  }
  // A session read that answers a mode (or anything) carrying the text.
  const answering = (read: () => Promise<unknown>): SessionContextPort =>
    createSessionContextAdapter({ read: read as never });
  for (const snapshot of [{ mode: message }, { tools: message }, { rules: { allow: [message] } }, message]) {
    decisionLines(await nextLaunch({ run: "r", hop: "audit" }, { session: answering(async () => snapshot), mask }));
  }

  // A launch that fails; a hop input that is the text, or carries it.
  const failingLaunch = devImplementCompleted({
    host: new FakeCrewHost().failNext(new Error(message)),
    session: new FakeSessionContext(writing),
    print,
    mask,
  });
  await failingLaunch({ name: "dev-implement", input: { run: "r", hop: "implement" }, output: null });
  const hook = devBatchesCompleted({ host: new FakeCrewHost(), session: new FakeSessionContext(writing), print, mask });
  for (const input of [
    message,
    { run: message, hop: "audit", batches: 1 },
    { run: "r", hop: message },
    { run: "r".repeat(300) + message },
  ]) {
    await hook({ name: "dev-batches", input, output: null });
  }

  // The main loop: a finished answer and a wrap-up, printed and stored.
  for (const step of [{ text: message }, { text: message, budgetExhausted: true as const }]) {
    const stored: string[] = [];
    await runMainLoopTurn(
      { prompt: "p" },
      { llm: createLlmAdapter(new FakeLlm([step])), print, store: (a) => stored.push(a), mask },
    );
    lines.push(...stored);
  }
  return lines;
}

describe("no line holds a token's characters (finding 1)", () => {
  test("a read failing with 161 characters before a 40-character token shows none of it", async () => {
    const t = "0123456789abcdef0123456789abcdef01234567";
    const mask = createTokenMasker([t]).mask;
    const session = new FakeSessionContext(writing).failWith(new Error("y".repeat(161) + t));
    const decision = await nextLaunch({ run: "r", hop: "audit" }, { session, mask });
    const notice = decision.kind === "launch" ? (decision.notice ?? "") : "";
    expect(notice).toContain("the read failed: ");
    expect(leaked(notice, t)).toBeUndefined();
  });

  test("a failed launch and a hop input quoting a token show none of it", async () => {
    const t = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
    const mask = createTokenMasker([t]).mask;
    const printed: string[] = [];
    const host = new FakeCrewHost().failNext(new Error("y".repeat(170) + t));
    const hook = devImplementCompleted({
      host,
      session: new FakeSessionContext(writing),
      print: (l) => printed.push(l),
      mask,
    });
    await hook({ name: "dev-implement", input: { run: "r", hop: "implement" }, output: null });
    await hook({ name: "dev-implement", input: `run=${t}`, output: null });
    expect(printed).toHaveLength(2);
    for (const line of printed) expect(leaked(line, t)).toBeUndefined();
  });

  test("property: for any token and any surrounding text, no printed line holds 8 characters of the token", async () => {
    await fc.assert(
      fc.asyncProperty(case_, async ([t, parts]) => {
        // Surrounding text that spells part of the token by itself would be no leak of ours.
        fc.pre(parts.every((part) => leaked(part, t) === undefined));
        const message = parts.join(t);
        for (const line of await linesFor(t, message)) {
          const piece = leaked(line, t);
          if (piece !== undefined)
            expect.fail(`a line shows ${JSON.stringify(piece)} of the token: ${JSON.stringify(line)}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("text leaves through one function", () => {
  const src = join(import.meta.dirname, "..", "src");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
    );

  test("only src/outgoing.ts applies a mask or shortens a text", () => {
    const offenders = files(src)
      .filter((file) => !file.endsWith("outgoing.ts") && !file.endsWith(join("github-token", "mask.ts")))
      .filter((file) => /\bmask\(|\.slice\(0,|\.substring\(|\.substr\(/.test(readFileSync(file, "utf8")))
      .map((file) => relative(src, file));
    expect(offenders).toEqual([]);
  });
});
