import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  createLlmAdapter,
  createSettingsReader,
  createTokenMasker,
  devBatchesCompleted,
  dockerTokenArgs,
  nextLaunch,
  resolveGitHubToken,
  runMainLoopTurn,
} from "@orphus/orkeon-crew";
import { FakeCrewHost, FakeLlm, FakeSessionContext } from "@orphus/orkeon-crew/testing";

/** Any token a masker accepts: not empty, not asterisks alone. Small alphabets make overlaps and joins likely. */
const token = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom("a", "b", "*", "_") }),
    fc.string({ minLength: 1, maxLength: 20 }),
  )
  .filter((t) => !/^\*+$/.test(t));
const text = fc.oneof(
  fc.string({ maxLength: 40, unit: fc.constantFrom("a", "b", "*", " ", "_") }),
  fc.string({ maxLength: 40 }),
);
/** Surrounding text with the token put in anywhere, any number of times. */
const around = (t: string) => fc.array(text, { minLength: 2, maxLength: 5 }).map((parts) => `wrap ${parts.join(t)}`);
/** Any token the resolver accepts from a variable: not blank, not a masked placeholder. */
const resolvable = token.filter((t) => t.trim() !== "" && !/^\*+$/.test(t.trim()));

describe("a token never appears unmasked", () => {
  test("property: in masked text, for arbitrary tokens and surrounding text", () => {
    fc.assert(
      fc.property(
        fc.array(token, { minLength: 1, maxLength: 3 }),
        fc.array(text, { minLength: 1, maxLength: 5 }),
        (tokens, parts) => {
          const { mask } = createTokenMasker(tokens);
          const masked = mask(parts.join(tokens[0] as string) + tokens.join(""));
          for (const t of tokens) expect(masked).not.toContain(t);
          // A second pass finds nothing left to mask.
          expect(mask(masked)).toBe(masked);
        },
      ),
      { numRuns: 1000 },
    );
  });

  test("property: text without the token is left as it was", () => {
    fc.assert(
      fc.property(token, text, (t, s) => {
        fc.pre(!s.includes(t));
        expect(createTokenMasker([t]).mask(s)).toBe(s);
      }),
    );
  });

  test("property: in every line the hooks, the decisions and the main loop produce", async () => {
    await fc.assert(
      fc.asyncProperty(
        resolvable.chain((t) => fc.tuple(fc.constant(t), around(t))),
        async ([t, message]) => {
          const env = { GITHUB_TOKEN: t };
          const { masker } = resolveGitHubToken({ settings: createSettingsReader({ env }), env });
          const outputs: string[] = [];
          const print = (line: string) => outputs.push(line);

          const failingRead = new FakeSessionContext({
            mode: "default",
            rules: { allow: [], deny: [] },
            githubTool: true,
          }).failWith(new Error(message));
          const decision = await nextLaunch({ run: "r", hop: "audit" }, { session: failingRead, mask: masker.mask });
          if (decision.kind === "launch" && decision.notice !== undefined) outputs.push(decision.notice);

          const refusing = new FakeSessionContext({
            mode: message.slice(0, 64),
            rules: { allow: [], deny: [] },
            githubTool: true,
          });
          const refused = await nextLaunch({ run: "r", hop: "audit" }, { session: refusing, mask: masker.mask });
          if (refused.kind === "refused") outputs.push(refused.message, refused.mode);

          const host = new FakeCrewHost().failNext(new Error(message));
          const hook = devBatchesCompleted({ host, session: failingRead, print, mask: masker.mask });
          await hook({ name: "dev-batches", input: { run: "b", hop: "batch", batch: 1, batches: 2 }, output: null });
          await hook({ name: "dev-batches", input: message, output: null });

          const llm = createLlmAdapter(new FakeLlm([{ text: message, budgetExhausted: true }]));
          const stored: string[] = [];
          await runMainLoopTurn({ prompt: "p" }, { llm, print, store: (a) => stored.push(a), mask: masker.mask });
          outputs.push(...stored);

          expect(outputs.length).toBeGreaterThan(4);
          for (const line of outputs) expect(line).not.toContain(t);
        },
      ),
      { numRuns: 200 },
    );
  });

  test("property: the Docker arguments name variables and never carry a token's value", () => {
    fc.assert(
      fc.property(token, token, fc.boolean(), (a, b, named) => {
        const env = {
          GITHUB_TOKEN: a,
          GH_TOKEN: b,
          ...(named ? { Orkeon__Tools__GitHub__TokenVariable: "MY_TOKEN", MY_TOKEN: a } : {}),
        };
        const args = dockerTokenArgs(env);
        const same = dockerTokenArgs({ ...env, GITHUB_TOKEN: "x", GH_TOKEN: "y", ...(named ? { MY_TOKEN: "z" } : {}) });
        expect(args).toEqual(same);
        expect(args.filter((_, i) => i % 2 === 1).every((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))).toBe(true);
      }),
    );
  });
});
