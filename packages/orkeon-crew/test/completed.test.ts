import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  createCrewHostAdapter,
  createTokenMasker,
  devBatchesCompleted,
  devImplementCompleted,
  NO_RULES,
  type HopInput,
  type SessionContextRead,
} from "@orphus/orkeon-crew";
import { FakeCrewHost, FakeOrkeonRuntime, FakeSessionContext } from "@orphus/orkeon-crew/testing";

const writing: SessionContextRead = { mode: "default", rules: NO_RULES, githubTool: true };
const instance = (input: unknown) => ({ name: "dev-batches", input, output: undefined });

/** A runtime with both commands' crews, their hooks wired through this package. */
function world(options: { maxChainDepth: number; session?: FakeSessionContext; onRun?: (input: HopInput) => void }) {
  const runtime = new FakeOrkeonRuntime({ maxChainDepth: options.maxChainDepth });
  const session = options.session ?? new FakeSessionContext(writing);
  const printed: string[] = [];
  const deps = { host: createCrewHostAdapter(runtime), session, print: (line: string) => printed.push(line) };
  const run = (input: unknown) => options.onRun?.(input as HopInput);
  runtime.defineCrew("dev-implement", { run, completed: devImplementCompleted(deps) });
  runtime.defineCrew("dev-batches", { run, completed: devBatchesCompleted(deps) });
  const hops = () => runtime.instances.map((i) => ({ input: i.input as HopInput, depth: i.depth }));
  return { runtime, session, printed, hops };
}

describe("the chains end to end over the fake runtime", () => {
  test("/dev-batches closes a plan of five batches in one command under MaxChainDepth 3", async () => {
    const w = world({ maxChainDepth: 3 });
    await w.runtime.type("dev-batches", { run: "b", hop: "batch", batch: 1, batches: 5 });
    expect(w.hops().map(({ input, depth }) => [input.hop, input.batch, depth])).toEqual([
      ["batch", 1, 1],
      ["batch", 2, 1],
      ["batch", 3, 1],
      ["batch", 4, 1],
      ["batch", 5, 1],
      ["audit", undefined, 1],
      ["close", undefined, 1],
    ]);
    expect(w.hops().at(-1)?.input.context).toEqual({ mode: "default", rules: NO_RULES, githubTool: false });
    expect(w.printed).toEqual([]);
    expect(w.runtime.log).toEqual([]);
  });

  test("/dev-implement climbs: three hops at depths 1, 2, 3", async () => {
    const w = world({ maxChainDepth: 3 });
    await w.runtime.type("dev-implement", { run: "i", hop: "implement" });
    expect(w.hops().map(({ input, depth }) => [input.hop, depth])).toEqual([
      ["implement", 1],
      ["audit", 2],
      ["close", 3],
    ]);
    expect(w.hops()[2]?.input.context).toEqual({ mode: "default", rules: NO_RULES, githubTool: true });
  });

  test("/dev-implement started by hand still meets the operator's ceiling, and the line names the command", async () => {
    const w = world({ maxChainDepth: 2 });
    await w.runtime.type("dev-implement", { run: "i", hop: "implement" });
    expect(w.hops().map(({ input }) => input.hop)).toEqual(["implement", "audit"]);
    expect(w.printed).toEqual([
      "The chain of /dev-implement stopped: depth 2 reached MaxChainDepth 2. Type the next step by hand, or raise MaxChainDepth.",
    ]);
    expect(w.runtime.log).toEqual([]);
  });

  test("a mode switched to plan mid-run stops the next hop with the command to type", async () => {
    const session = new FakeSessionContext(writing);
    const w = world({
      maxChainDepth: 3,
      session,
      onRun: (input) => {
        if (input.batch === 2) session.set({ mode: "plan", rules: NO_RULES, githubTool: false });
      },
    });
    await w.runtime.type("dev-batches", { run: "b", hop: "batch", batch: 1, batches: 4 });
    expect(w.hops().map(({ input }) => input.batch)).toEqual([1, 2]);
    expect(w.printed).toEqual([
      "/dev-batches did not launch batch 3 of 4: the session is in plan mode, a read-only mode. " +
        "Switch to a writing mode with /mode (e.g. /mode default), then type /dev-batches to go on.",
    ]);
  });

  test("a failed read prints a line and the chain goes on; the host never prints Error in completed", async () => {
    const session = new FakeSessionContext(writing).failWith(new Error("store offline"));
    const w = world({ maxChainDepth: 3, session });
    await w.runtime.type("dev-batches", { run: "b", hop: "batch", batch: 1, batches: 2 });
    expect(w.hops().map(({ input }) => input.hop)).toEqual(["batch", "batch", "audit", "close"]);
    expect(w.hops().every(({ input }) => input.context === undefined)).toBe(true);
    expect(w.printed).toEqual([
      "/dev-batches: the session context was not read again (the read failed: store offline); batch 2 of 2 goes on with the context recorded when the run started.",
      "/dev-batches: the session context was not read again (the read failed: store offline); the close goes on with the context recorded when the run started.",
    ]);
    expect(w.runtime.log).toEqual([]);
  });

  test("property: a plan of any length closes in one command, whatever MaxChainDepth", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }), async (batches, depth) => {
        const w = world({ maxChainDepth: depth });
        await w.runtime.type("dev-batches", { run: "b", hop: "batch", batch: 1, batches });
        const hops = w.hops();
        expect(hops).toHaveLength(batches + 2);
        expect(hops.every((h) => h.depth === 1)).toBe(true);
        expect(hops.at(-1)?.input.hop).toBe("close");
        expect(w.printed).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe("the completed hooks are caught whole", () => {
  const deps = (host = new FakeCrewHost(), print: (line: string) => void = () => {}) => ({
    host,
    session: new FakeSessionContext(writing),
    print,
  });

  test("a malformed input prints one line and the hook resolves", async () => {
    const printed: string[] = [];
    const hook = devBatchesCompleted(deps(undefined, (l) => printed.push(l)));
    await expect(hook(instance({ run: "b" }))).resolves.toBeUndefined();
    expect(printed).toEqual([
      "/dev-batches: the next hop was not launched: Invalid /dev-batches hop input: hop must be one of batch, audit, close, got undefined",
    ]);
  });

  test("a launch that fails prints one line, masked", async () => {
    const printed: string[] = [];
    const host = new FakeCrewHost().failNext(new Error("spawn failed with GH_TOKEN=ghp_zzz"));
    const hook = devImplementCompleted({
      ...deps(host, (l) => printed.push(l)),
      mask: createTokenMasker(["ghp_zzz"]).mask,
    });
    await expect(hook(instance({ run: "i", hop: "implement" }))).resolves.toBeUndefined();
    expect(printed).toEqual(["/dev-implement: the next hop was not launched: spawn failed with GH_TOKEN=***"]);
  });

  test("a print that throws does not make the hook reject", async () => {
    const hook = devBatchesCompleted(
      deps(undefined, () => {
        throw new Error("terminal gone");
      }),
    );
    await expect(hook(instance(null))).resolves.toBeUndefined();
  });

  test("a refused hop and a done chain launch nothing", async () => {
    const host = new FakeCrewHost();
    const session = new FakeSessionContext({ mode: "dontAsk", rules: NO_RULES, githubTool: false });
    const printed: string[] = [];
    const hook = devImplementCompleted({ host, session, print: (l) => printed.push(l) });
    await hook(instance({ run: "i", hop: "audit" }));
    await hook(instance({ run: "i", hop: "close" }));
    expect(host.launches).toEqual([]);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain("the session is in dontAsk mode, a read-only mode");
  });
});
