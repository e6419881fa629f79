import { FakeMisuseError } from "../errors.js";
import { DEFAULT_FAKE_MAX_CHAIN_DEPTH, DEFAULT_FAKE_MAX_LAUNCHES } from "../limits.js";
import type { CrewLaunchOptions, OrkeonCompletedHook, OrkeonCrewRuntime } from "../runtime.js";
import { noMask, resolveInteger } from "../options.js";
import { reasonOf } from "../outgoing.js";
import { formatChainRefusal } from "./refusal.js";

/** A crew the fake runtime can run: what it produces, and its completed hook. */
export interface FakeCrewDefinition {
  readonly run?: (input: unknown) => unknown;
  readonly completed?: OrkeonCompletedHook;
}

/** Bounds of {@link FakeOrkeonRuntime}. */
export interface FakeOrkeonRuntimeOptions {
  /** The operator's `MaxChainDepth`; default {@link DEFAULT_FAKE_MAX_CHAIN_DEPTH}. */
  readonly maxChainDepth?: number;
  /** Most instances one typed command may start; default {@link DEFAULT_FAKE_MAX_LAUNCHES}. */
  readonly maxLaunches?: number;
}

/** One crew instance the fake runtime started. */
export interface FakeCrewInstance {
  readonly name: string;
  readonly input: unknown;
  /** 1 for the typed command's instance; a climbing launch adds one, `chain: "continue"` keeps its parent's. */
  readonly depth: number;
  /** The typed command the chain belongs to, without its slash. */
  readonly command: string;
  readonly options?: CrewLaunchOptions;
  /** queued, then completed (run and completed hook done) or failed (run threw). */
  state: "queued" | "completed" | "failed";
}

/**
 * An in-memory Orkeon runtime for end-to-end tests of chains: `type()` runs a typed command's crew at depth 1, then
 * every instance its completed hooks launch, one completion at a time, awaiting each hook as the host does. A
 * climbing launch past `maxChainDepth` rejects with the runtime's refusal; a rejected hook logs
 * `Error in completed('<name>')` and the chain goes on with the instances already queued.
 */
export class FakeOrkeonRuntime implements OrkeonCrewRuntime {
  readonly maxChainDepth: number;
  readonly maxLaunches: number;
  /** Every instance started, in launch order. */
  readonly instances: FakeCrewInstance[] = [];
  /** The host's own lines: failed runs and rejected completed hooks. */
  readonly log: string[] = [];
  readonly #crews = new Map<string, FakeCrewDefinition>();
  readonly #queue: FakeCrewInstance[] = [];
  #completing: FakeCrewInstance | undefined;
  #typing = false;

  constructor(options: FakeOrkeonRuntimeOptions = {}) {
    this.maxChainDepth = resolveInteger("maxChainDepth", options.maxChainDepth, DEFAULT_FAKE_MAX_CHAIN_DEPTH, 1);
    this.maxLaunches = resolveInteger("maxLaunches", options.maxLaunches, DEFAULT_FAKE_MAX_LAUNCHES, 1);
  }

  /** Registers a crew by name. */
  defineCrew(name: string, definition: FakeCrewDefinition): this {
    this.#crews.set(name, definition);
    return this;
  }

  /** Types a command: launches `crew` (default: the command's name) at depth 1 and runs the chain to its end. */
  async type(command: string, input: unknown, crew = command): Promise<void> {
    if (this.#typing) throw new FakeMisuseError("FakeOrkeonRuntime", "type() called while a command is running");
    this.#typing = true;
    try {
      this.#start(crew, input, 1, command, undefined);
      const started = this.instances.length;
      for (let instance = this.#queue.shift(); instance !== undefined; instance = this.#queue.shift()) {
        if (this.instances.length - started > this.maxLaunches) {
          throw new FakeMisuseError("FakeOrkeonRuntime", `more than ${this.maxLaunches} launches from /${command}`);
        }
        await this.#complete(instance);
      }
    } finally {
      this.#queue.length = 0;
      this.#typing = false;
    }
  }

  async runCrewAsync(name: string, input: unknown, options?: CrewLaunchOptions): Promise<unknown> {
    const parent = this.#completing;
    if (parent === undefined) {
      throw new FakeMisuseError("FakeOrkeonRuntime", "runCrewAsync called outside a completed hook; use type()");
    }
    const continues = options?.chain === "continue";
    if (!continues && parent.depth >= this.maxChainDepth) {
      throw new Error(formatChainRefusal({ depth: parent.depth, limit: this.maxChainDepth, command: parent.command }));
    }
    const instance = this.#start(name, input, continues ? parent.depth : parent.depth + 1, parent.command, options);
    return this.instances.indexOf(instance);
  }

  #start(
    name: string,
    input: unknown,
    depth: number,
    command: string,
    options: CrewLaunchOptions | undefined,
  ): FakeCrewInstance {
    if (!this.#crews.has(name)) throw new FakeMisuseError("FakeOrkeonRuntime", `no crew named ${JSON.stringify(name)}`);
    const instance: FakeCrewInstance =
      options === undefined
        ? { name, input, depth, command, state: "queued" }
        : { name, input, depth, command, options, state: "queued" };
    this.instances.push(instance);
    this.#queue.push(instance);
    return instance;
  }

  async #complete(instance: FakeCrewInstance): Promise<void> {
    const crew = this.#crews.get(instance.name);
    let output: unknown;
    try {
      output = await crew?.run?.(instance.input);
    } catch (error) {
      instance.state = "failed";
      this.log.push(`Crew '${instance.name}' failed: ${reasonOf(error, noMask)}`);
      return;
    }
    instance.state = "completed";
    this.#completing = instance;
    try {
      await crew?.completed?.({ name: instance.name, input: instance.input, output });
    } catch {
      this.log.push(`Error in completed('${instance.name}')`);
    } finally {
      this.#completing = undefined;
    }
  }
}
