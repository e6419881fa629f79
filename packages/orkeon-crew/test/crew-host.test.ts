import { describe, expect, test } from "vitest";
import { createCrewHostAdapter, launchCrew, OrkeonCrewOptionError, type CrewLaunchOptions } from "@orphus/orkeon-crew";
import { FakeCrewHost, FakeMisuseError, FakeOrkeonRuntime } from "@orphus/orkeon-crew/testing";

describe("the CrewHost adapter over runCrewAsync", () => {
  function recordingRuntime() {
    const calls: unknown[][] = [];
    return {
      calls,
      runtime: {
        runCrewAsync: async (...args: [string, unknown, CrewLaunchOptions?]) => {
          calls.push(args);
          return "instance-1";
        },
      },
    };
  }

  test('hands { chain: "continue" } on', async () => {
    const { calls, runtime } = recordingRuntime();
    await createCrewHostAdapter(runtime).launch("dev-batches", { run: "r" }, { chain: "continue" });
    expect(calls).toEqual([["dev-batches", { run: "r" }, { chain: "continue" }]]);
  });

  test("a climbing launch calls with two arguments, as before #221", async () => {
    const { calls, runtime } = recordingRuntime();
    const host = createCrewHostAdapter(runtime);
    await host.launch("dev-implement", { run: "r" });
    await host.launch("dev-implement", { run: "r" }, {});
    expect(calls).toEqual([
      ["dev-implement", { run: "r" }],
      ["dev-implement", { run: "r" }],
    ]);
  });
});

describe("launchCrew", () => {
  test("carries the launch options to the host", async () => {
    const host = new FakeCrewHost();
    await expect(launchCrew(host, { crew: "c", input: 1, options: { chain: "continue" } })).resolves.toEqual({
      kind: "launched",
    });
    await launchCrew(host, { crew: "c", input: 2 });
    expect(host.launches).toEqual([
      { crew: "c", input: 1, options: { chain: "continue" } },
      { crew: "c", input: 2 },
    ]);
  });

  test("reads a chain refusal, giving depth, limit and command", async () => {
    const host = new FakeCrewHost().refuseNext({ depth: 3, limit: 3, command: "dev-implement" });
    await expect(launchCrew(host, { crew: "c", input: {} })).resolves.toEqual({
      kind: "chain-refused",
      refusal: { depth: 3, limit: 3, command: "dev-implement" },
    });
  });

  test("lets any other rejection through, the former wording included", async () => {
    const former = new Error("Maximum chain depth exceeded");
    const host = new FakeCrewHost().failNext(former);
    await expect(launchCrew(host, { crew: "c", input: {} })).rejects.toBe(former);
  });
});

describe("FakeCrewHost", () => {
  test("refuses to script a refusal the wording cannot carry", () => {
    expect(() => new FakeCrewHost().refuseNext({ depth: 1, limit: 1, command: "/bad" })).toThrow(OrkeonCrewOptionError);
  });
});

describe("FakeOrkeonRuntime", () => {
  function chainOf(runtime: FakeOrkeonRuntime, crew: string, hops: number, options?: CrewLaunchOptions) {
    runtime.defineCrew(crew, {
      run: (input) => input,
      completed: async ({ input }) => {
        const hop = input as number;
        if (hop < hops) await runtime.runCrewAsync(crew, hop + 1, options);
      },
    });
  }

  test("a climbing launch adds one level and is refused past MaxChainDepth, naming the typed command", async () => {
    const runtime = new FakeOrkeonRuntime({ maxChainDepth: 2 });
    chainOf(runtime, "climb", 5);
    await runtime.type("dev-implement", 1, "climb");
    expect(runtime.instances.map((i) => [i.input, i.depth])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    // The hook did not catch the refusal, so the host printed its own line.
    expect(runtime.log).toEqual(["Error in completed('climb')"]);
    const refusal = await runtime.runCrewAsync("climb", 0).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(FakeMisuseError);
  });

  test('chain: "continue" keeps the depth of the instance whose completed runs', async () => {
    const runtime = new FakeOrkeonRuntime({ maxChainDepth: 1 });
    chainOf(runtime, "batches", 7, { chain: "continue" });
    await runtime.type("dev-batches", 1, "batches");
    expect(runtime.instances.map((i) => i.depth)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(runtime.instances.every((i) => i.state === "completed")).toBe(true);
    expect(runtime.log).toEqual([]);
  });

  test("the refusal the fake makes is the runtime's wording", async () => {
    const runtime = new FakeOrkeonRuntime({ maxChainDepth: 1 });
    const seen: unknown[] = [];
    runtime.defineCrew("c", {
      completed: async () => {
        seen.push(await runtime.runCrewAsync("c", null).catch((e: unknown) => (e as Error).message));
      },
    });
    await runtime.type("dev-implement", null, "c");
    expect(seen).toEqual(["chain depth 1 reached (MaxChainDepth 1, /dev-implement)"]);
  });

  test("a failed run is logged and runs no completed hook", async () => {
    const runtime = new FakeOrkeonRuntime();
    let completed = 0;
    runtime.defineCrew("c", {
      run: () => {
        throw new Error("crew crashed");
      },
      completed: () => {
        completed++;
      },
    });
    await runtime.type("c", null);
    expect(runtime.log).toEqual(["Crew 'c' failed: crew crashed"]);
    expect(runtime.instances[0]?.state).toBe("failed");
    expect(completed).toBe(0);
  });

  test("bounds a runaway chain, and refuses what the runtime would not do", async () => {
    const runtime = new FakeOrkeonRuntime({ maxLaunches: 5 });
    chainOf(runtime, "loop", Number.POSITIVE_INFINITY, { chain: "continue" });
    await expect(runtime.type("loop", 1)).rejects.toThrow("FakeOrkeonRuntime: more than 5 launches from /loop");
    await expect(runtime.type("nope", 1)).rejects.toThrow('FakeOrkeonRuntime: no crew named "nope"');
    expect(() => new FakeOrkeonRuntime({ maxChainDepth: 0 })).toThrow(OrkeonCrewOptionError);
  });
});
