import { describe, expect, test } from "vitest";
import {
  DEFAULT_SESSION_READ_TIMEOUT_MS,
  devBatchesCompleted,
  nextLaunch,
  OrkeonCrewOptionError,
  type SessionContextPort,
} from "@orphus/orkeon-crew";
import { FakeCrewHost } from "@orphus/orkeon-crew/testing";
import { manualTimers } from "../../../test-support/manual-timers.js";

// Finding 3 of issue 16: a session read that never settles hung the completed hook, and the host awaits that hook
// before its next completion.

const never: SessionContextPort = { readPullRequestContext: () => new Promise(() => {}) };

/** Whether a promise has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe("the session read is bounded by a timeout", () => {
  test("the default is a named constant of 5 seconds", () => {
    expect(DEFAULT_SESSION_READ_TIMEOUT_MS).toBe(5_000);
  });

  test("a read that never settles launches the hop with the record's context when the timeout fires, and says so", async () => {
    const clock = manualTimers();
    const decision = nextLaunch({ run: "r", hop: "audit" }, { session: never, timers: clock });
    expect(await settled(decision)).toBe(false);
    expect(clock.pending().map((t) => t.ms)).toEqual([5_000]);
    clock.fire();
    await expect(decision).resolves.toEqual({
      kind: "launch",
      launch: { crew: "dev-implement", input: { run: "r", hop: "close" } },
      notice:
        "/dev-implement: the session context was not read again (the read did not answer within 5000 ms); " +
        "the close goes on with the context recorded when the run started.",
    });
  });

  test("a read that answers in time clears its timer", async () => {
    const clock = manualTimers();
    const session: SessionContextPort = {
      readPullRequestContext: async () => ({ mode: "default", rules: { allow: [], deny: [] }, githubTool: false }),
    };
    const decision = await nextLaunch({ run: "r", hop: "audit" }, { session, timers: clock, readTimeoutMs: 250 });
    expect(decision).toMatchObject({ kind: "launch", launch: { input: { context: { mode: "default" } } } });
    expect(clock.pending().length).toBe(0);
  });

  test("a read that rejects after its timeout fired changes nothing and is not left unhandled", async () => {
    const clock = manualTimers();
    let reject: (error: unknown) => void = () => {};
    const session: SessionContextPort = { readPullRequestContext: () => new Promise((_, r) => (reject = r)) };
    const decision = nextLaunch({ run: "r", hop: "audit" }, { session, timers: clock, readTimeoutMs: 10 });
    clock.fire();
    await expect(decision).resolves.toMatchObject({ notice: expect.stringContaining("did not answer within 10 ms") });
    reject(new Error("late"));
    await Promise.resolve();
  });

  test("the completed hook does not hang: it launches the next batch once the timeout fires", async () => {
    const clock = manualTimers();
    const host = new FakeCrewHost();
    const printed: string[] = [];
    const hook = devBatchesCompleted({
      host,
      session: never,
      print: (l) => printed.push(l),
      timers: clock,
      readTimeoutMs: 1_000,
    });
    const running = hook({
      name: "dev-batches",
      input: { run: "b", hop: "batch", batch: 1, batches: 2 },
      output: null,
    });
    expect(await settled(Promise.resolve(running))).toBe(false);
    clock.fire();
    await running;
    expect(host.launches).toEqual([
      { crew: "dev-batches", input: { run: "b", hop: "batch", batch: 2, batches: 2 }, options: { chain: "continue" } },
    ]);
    expect(printed).toEqual([
      "/dev-batches: the session context was not read again (the read did not answer within 1000 ms); batch 2 of 2 goes on with the context recorded when the run started.",
    ]);
  });

  test("refuses a timeout that is not a positive integer a timer can hold", async () => {
    for (const readTimeoutMs of [0, -1, 1.5, 2 ** 31]) {
      await expect(nextLaunch({ run: "r", hop: "audit" }, { session: never, readTimeoutMs })).rejects.toBeInstanceOf(
        OrkeonCrewOptionError,
      );
    }
  });
});
