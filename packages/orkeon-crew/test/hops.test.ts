import { describe, expect, test } from "vitest";
import {
  batchesNextLaunch,
  createSessionContextAdapter,
  createTokenMasker,
  HopInputInvalidError,
  nextLaunch,
  NO_RULES,
  ORKEON_MODES,
  parseHopInput,
  parseSessionContextRead,
  SessionContextInvalidError,
  type HopInput,
  type SessionContextRead,
} from "@orphus/orkeon-crew";
import { FakeSessionContext } from "@orphus/orkeon-crew/testing";

const rules = { allow: ["github"], deny: ["http_api"] };
const writing: SessionContextRead = { mode: "default", rules, githubTool: true };

describe("nextLaunch: /dev-implement climbs", () => {
  test("after the implementation, the audit: it only reads, so the session is not read again", async () => {
    const session = new FakeSessionContext(writing);
    await expect(nextLaunch({ run: "r1", hop: "implement" }, { session })).resolves.toEqual({
      kind: "launch",
      launch: { crew: "dev-implement", input: { run: "r1", hop: "audit" } },
    });
    expect(session.reads).toBe(0);
  });

  test("before the close, which writes, the session is read again and the fresh context rides in the input", async () => {
    const session = new FakeSessionContext(writing);
    await expect(nextLaunch({ run: "r1", hop: "audit" }, { session })).resolves.toEqual({
      kind: "launch",
      launch: {
        crew: "dev-implement",
        input: { run: "r1", hop: "close", context: { mode: "default", rules, githubTool: true } },
      },
    });
    expect(session.reads).toBe(1);
  });

  test("no hop passes chain: continue", async () => {
    const session = new FakeSessionContext(writing);
    for (const hop of ["implement", "audit"] as const) {
      const decision = await nextLaunch({ run: "r", hop }, { session });
      expect(decision.kind === "launch" && decision.launch.options).toBeUndefined();
    }
  });

  test("after the close, the chain is done", async () => {
    await expect(nextLaunch({ run: "r", hop: "close" }, { session: new FakeSessionContext(writing) })).resolves.toEqual(
      {
        kind: "done",
      },
    );
  });

  test.each([
    ["plan", "a read-only mode"],
    ["dontAsk", "a read-only mode"],
    ["confirmWaves", "which asks before each parallel wave"],
    ["Plan", "a read-only mode"],
    ["DONTASK", "a read-only mode"],
  ])("a session in %s refuses the close, naming /mode and the command to type", async (mode, why) => {
    const session = new FakeSessionContext({ mode, rules: NO_RULES, githubTool: true });
    await expect(nextLaunch({ run: "r", hop: "audit" }, { session })).resolves.toEqual({
      kind: "refused",
      hop: { run: "r", hop: "close" },
      mode,
      message:
        `/dev-implement did not launch the close: the session is in ${mode} mode, ${why}. ` +
        "Switch to a writing mode with /mode (e.g. /mode default), then type /dev-implement to go on.",
    });
  });

  // Finding 4 of issue 16: a mode this package did not know refused the hop, so a runtime whose writing modes are
  // named otherwise would refuse every writing hop. Only the refusing modes refuse; every other mode launches.
  test.each(["auto", "yolo", "bypassPermissions", "acceptEdits", "default", "planned", "plan "])(
    "a session in %j launches the close with the fresh context",
    async (mode) => {
      const session = new FakeSessionContext({ mode, rules, githubTool: true });
      await expect(nextLaunch({ run: "r", hop: "audit" }, { session })).resolves.toEqual({
        kind: "launch",
        launch: {
          crew: "dev-implement",
          input: { run: "r", hop: "close", context: { mode, rules, githubTool: true } },
        },
      });
    },
  );

  test("a runtime that names its wave-asking mode otherwise passes its own table of modes", async () => {
    const modes = { ...ORKEON_MODES, askEachWave: { readOnly: false, asksBeforeWave: true } };
    const session = new FakeSessionContext({ mode: "askEachWave", rules, githubTool: true });
    await expect(nextLaunch({ run: "r", hop: "audit" }, { session, modes })).resolves.toMatchObject({
      kind: "refused",
      mode: "askEachWave",
    });
    await expect(nextLaunch({ run: "r", hop: "audit" }, { session })).resolves.toMatchObject({ kind: "launch" });
  });

  test("a read that fails launches the close as the crew named it, and says so", async () => {
    const session = new FakeSessionContext(writing).failWith(new Error("session store unavailable"));
    await expect(nextLaunch({ run: "r", hop: "audit" }, { session })).resolves.toEqual({
      kind: "launch",
      launch: { crew: "dev-implement", input: { run: "r", hop: "close" } },
      notice:
        "/dev-implement: the session context was not read again (the read failed: session store unavailable); " +
        "the close goes on with the context recorded when the run started.",
    });
  });

  test.each([undefined, ""])("a read that answers no mode (%j) launches the close and says so", async (mode) => {
    const session = new FakeSessionContext({ mode, rules: NO_RULES, githubTool: false });
    const decision = await nextLaunch({ run: "r", hop: "audit" }, { session });
    expect(decision).toEqual({
      kind: "launch",
      launch: { crew: "dev-implement", input: { run: "r", hop: "close" } },
      notice:
        "/dev-implement: the session context was not read again (the read answered no mode); " +
        "the close goes on with the context recorded when the run started.",
    });
  });

  test("a read of the wrong shape counts as a failed read", async () => {
    const session = new FakeSessionContext({ mode: "default", rules: "allow all" } as never);
    const decision = await nextLaunch({ run: "r", hop: "audit" }, { session });
    expect(decision).toMatchObject({ kind: "launch", launch: { input: { run: "r", hop: "close" } } });
    expect(decision.kind === "launch" && decision.notice).toContain(
      "the read failed: Invalid session context read: rules must be an object of allow and deny lists",
    );
  });

  test("the notice is masked", async () => {
    const session = new FakeSessionContext(writing).failWith(new Error("401 for token ghp_abc123"));
    const { mask } = createTokenMasker(["ghp_abc123"]);
    const decision = await nextLaunch({ run: "r", hop: "audit" }, { session, mask });
    expect(decision.kind === "launch" && decision.notice).toContain("(the read failed: 401 for token ***)");
  });

  test("refuses an input that is not a /dev-implement hop", async () => {
    const session = new FakeSessionContext(writing);
    await expect(nextLaunch({ run: "r", hop: "batch" }, { session })).rejects.toThrow(
      'Invalid /dev-implement hop input: hop must be one of implement, audit, close, got the string "batch"',
    );
  });
});

describe("batchesNextLaunch: /dev-batches relaunches every hop with chain: continue", () => {
  const continues = { chain: "continue" };

  test("after a batch, the next batch, read again, with continue", async () => {
    const session = new FakeSessionContext(writing);
    await expect(batchesNextLaunch({ run: "b", hop: "batch", batch: 1, batches: 3 }, { session })).resolves.toEqual({
      kind: "launch",
      launch: {
        crew: "dev-batches",
        input: { run: "b", hop: "batch", batch: 2, batches: 3, context: { mode: "default", rules, githubTool: true } },
        options: continues,
      },
    });
    expect(session.reads).toBe(1);
  });

  test("after the last batch, the audit, with continue and without a read", async () => {
    const session = new FakeSessionContext(writing);
    await expect(batchesNextLaunch({ run: "b", hop: "batch", batch: 3, batches: 3 }, { session })).resolves.toEqual({
      kind: "launch",
      launch: { crew: "dev-batches", input: { run: "b", hop: "audit", batches: 3 }, options: continues },
    });
    expect(session.reads).toBe(0);
  });

  test("the close keeps githubTool: false whatever the session offers", async () => {
    const session = new FakeSessionContext({ mode: "acceptEdits", rules, githubTool: true });
    await expect(batchesNextLaunch({ run: "b", hop: "audit", batches: 3 }, { session })).resolves.toEqual({
      kind: "launch",
      launch: {
        crew: "dev-batches",
        input: { run: "b", hop: "close", batches: 3, context: { mode: "acceptEdits", rules, githubTool: false } },
        options: continues,
      },
    });
  });

  test("after the close, done", async () => {
    const session = new FakeSessionContext(writing);
    await expect(batchesNextLaunch({ run: "b", hop: "close", batches: 2 }, { session })).resolves.toEqual({
      kind: "done",
    });
  });

  test("a mode switched to plan mid-run stops the next batch with the command to type", async () => {
    const session = new FakeSessionContext({ mode: "plan", rules: NO_RULES, githubTool: false });
    const decision = await batchesNextLaunch({ run: "b", hop: "batch", batch: 2, batches: 5 }, { session });
    expect(decision).toEqual({
      kind: "refused",
      hop: { run: "b", hop: "batch", batch: 3, batches: 5 },
      mode: "plan",
      message:
        "/dev-batches did not launch batch 3 of 5: the session is in plan mode, a read-only mode. " +
        "Switch to a writing mode with /mode (e.g. /mode default), then type /dev-batches to go on.",
    });
  });

  test("a failed read before the close launches it with continue, without a context, and says so", async () => {
    const session = new FakeSessionContext(writing).failWith("EIO");
    await expect(batchesNextLaunch({ run: "b", hop: "audit", batches: 1 }, { session })).resolves.toEqual({
      kind: "launch",
      launch: { crew: "dev-batches", input: { run: "b", hop: "close", batches: 1 }, options: continues },
      notice:
        "/dev-batches: the session context was not read again (the read failed: EIO); " +
        "the close goes on with the context recorded when the run started.",
    });
  });

  test("refuses a batch outside its plan, and a plan past the bound", async () => {
    const session = new FakeSessionContext(writing);
    await expect(batchesNextLaunch({ run: "b", hop: "batch", batch: 4, batches: 3 }, { session })).rejects.toThrow(
      HopInputInvalidError,
    );
    await expect(
      batchesNextLaunch({ run: "b", hop: "audit", batches: 11 }, { session, maxBatches: 10 }),
    ).rejects.toThrow("Invalid /dev-batches hop input: batches must be an integer from 1 to 10, got number 11");
  });
});

describe("hop inputs", () => {
  test.each<[unknown, string]>([
    [null, "the input must be an object, got null"],
    [{ hop: "audit" }, "run must be a string of 1 to 256 chars, got undefined"],
    [{ run: "", hop: "audit" }, 'run must be a string of 1 to 256 chars, got the string ""'],
    [{ run: "r", hop: "audit" }, "batches must be an integer from 1 to 10000, got undefined"],
    [{ run: "r", hop: "batch", batches: 2 }, "batch must be an integer from 1 to 2, got undefined"],
    [{ run: "r", hop: "batch", batch: 0, batches: 2 }, "batch must be an integer from 1 to 2, got number 0"],
    [{ run: "r", hop: "implement", batches: 2 }, 'hop must be one of batch, audit, close, got the string "implement"'],
  ])("a /dev-batches input %j is refused", (input, detail) => {
    expect(() => parseHopInput("dev-batches", input)).toThrow(`Invalid /dev-batches hop input: ${detail}`);
  });

  test("a finished hop's context is dropped: the next writing hop reads the session again", () => {
    const input: HopInput = { run: "r", hop: "audit", context: { mode: "plan", rules: NO_RULES, githubTool: false } };
    expect(parseHopInput("dev-implement", input)).toEqual({ run: "r", hop: "audit" });
  });
});

describe("the session context adapter over the runtime's session read", () => {
  test("reads mode, rules and whether github is offered", async () => {
    const adapter = createSessionContextAdapter({
      read: async () => ({ mode: "default", rules: { allow: ["a"] }, tools: ["github", "read_file"] }),
    });
    await expect(adapter.readPullRequestContext()).resolves.toEqual({
      mode: "default",
      rules: { allow: ["a"], deny: [] },
      githubTool: true,
    });
  });

  test("a snapshot with nothing in it answers no mode, no rules, no github", async () => {
    const adapter = createSessionContextAdapter({ read: async () => ({}) });
    await expect(adapter.readPullRequestContext()).resolves.toEqual({
      mode: undefined,
      rules: NO_RULES,
      githubTool: false,
    });
  });

  test("a snapshot of the wrong shape rejects", async () => {
    await expect(
      createSessionContextAdapter({ read: async () => null as never }).readPullRequestContext(),
    ).rejects.toThrow(SessionContextInvalidError);
    await expect(
      createSessionContextAdapter({ read: async () => ({ tools: "github" }) as never }).readPullRequestContext(),
    ).rejects.toThrow(
      'Invalid session context read: tools must be an array of at most 1000 tool names of at most 256 chars, got the string "github"',
    );
  });

  test("validation bounds every field", () => {
    expect(() => parseSessionContextRead({ mode: 3 })).toThrow(SessionContextInvalidError);
    expect(() => parseSessionContextRead({ mode: "x".repeat(65) })).toThrow(
      "mode must be a string of at most 64 chars",
    );
    expect(() => parseSessionContextRead({ githubTool: "yes" })).toThrow("githubTool must be a boolean");
    expect(() => parseSessionContextRead({ rules: { allow: [1] } })).toThrow("rules.allow.0 must be an array");
    expect(() => parseSessionContextRead({ rules: { deny: Array(1001).fill("x") } })).toThrow(
      "rules.deny must be an array of at most 1000 rules",
    );
    expect(() => parseSessionContextRead({ rules: { deny: ["x".repeat(1025)] } })).toThrow(SessionContextInvalidError);
  });
});
