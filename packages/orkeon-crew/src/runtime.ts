// The surface of the Orkeon runtime this package targets: Orkeon main after #217, the surface the 1.0.0-rc.6 pin's
// successor tag will carry. These are the runtime's shapes, not this package's ports; the adapters read them.

/** What `ctx.llm.act` is asked: a prompt, plus whatever options the runtime takes, passed through untouched. */
export interface ActRequest {
  readonly prompt: string;
  readonly [option: string]: unknown;
}

/**
 * What `ctx.llm.act` resolves to. `budgetExhausted: true` marks the wrap-up of a spent token budget: the runtime ran
 * no further tool and made one last call that declared none. A failing or empty wrap-up rejects instead.
 */
export interface OrkeonActResult {
  readonly text: string;
  readonly budgetExhausted?: true;
}

/** `ctx.llm`: the runtime's model access. */
export interface OrkeonLlm {
  act(request: ActRequest): Promise<OrkeonActResult>;
}

/** The part of a crew's `ctx` this package reads. */
export interface OrkeonContext {
  readonly llm: OrkeonLlm;
}

/** Options of a crew launch (`CrewLaunchOptions` of orkeon-cli.d.ts). */
export interface CrewLaunchOptions {
  /**
   * `"continue"`: launched from a completed hook, the new instance takes the depth of the instance whose completed
   * runs, instead of climbing one level towards `MaxChainDepth`.
   */
  readonly chain?: "continue";
}

/**
 * The runtime's launcher. From a completed hook a climbing launch past `MaxChainDepth` rejects with the refusal
 * `chain depth <d> reached (MaxChainDepth <l>, /<command>)`.
 */
export interface OrkeonCrewRuntime {
  runCrewAsync(name: string, input: unknown, options?: CrewLaunchOptions): Promise<unknown>;
}

/** What the host hands a crew's completed hook. */
export interface OrkeonCompletedInstance {
  /** The crew's name. */
  readonly name: string;
  /** The input the instance was launched with. */
  readonly input: unknown;
  /** What the instance produced. */
  readonly output: unknown;
}

/**
 * A crew's completed hook. The host awaits a returned promise before the next completion; a rejection prints
 * `Error in completed('<name>')` and keeps the instance's state.
 */
export type OrkeonCompletedHook = (instance: OrkeonCompletedInstance) => void | Promise<void>;

/** What the runtime answers about the current session; every field may be missing. */
export interface OrkeonSessionSnapshot {
  /** The permission mode the operator set with /mode. */
  readonly mode?: string;
  /** The gate's rules: allow and deny only, there is no rule that asks. */
  readonly rules?: { readonly allow?: readonly string[]; readonly deny?: readonly string[] };
  /** Names of the tools the session offers. */
  readonly tools?: readonly string[];
}

/** The runtime's read of the current session. */
export interface OrkeonSession {
  read(): Promise<OrkeonSessionSnapshot>;
}
