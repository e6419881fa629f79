/**
 * @orphus/orkeon-crew/testing — in-memory fakes of the Orkeon runtime's surface, for tests of code written against
 * the adapter's ports: no runtime, no model, no session store.
 *
 * ```ts
 * import { createLlmAdapter, runMainLoopTurn } from "@orphus/orkeon-crew";
 * import { FakeLlm } from "@orphus/orkeon-crew/testing";
 *
 * const llm = createLlmAdapter(new FakeLlm([{ text: "Wrapped up: two of three files done.", budgetExhausted: true }]));
 * const history: string[] = [];
 * await runMainLoopTurn({ prompt: "refactor" }, { llm, print: console.log, store: (a) => history.push(a) });
 * ```
 *
 * `FakeLlm` scripts `ctx.llm.act`, `FakeCrewHost` records launches through the `CrewHost` port, `FakeOrkeonRuntime`
 * models `runCrewAsync` and the chain depth a runtime enforces, and `FakeSessionContext` answers the session read. A
 * fake driven outside the runtime's contract throws `FakeMisuseError`. They live apart from the main entry so that
 * test doubles are no part of what a runtime loads, and no release of theirs is a change of the adapter's API.
 */
export { FakeLlm, runtimeBudgetRejection } from "./budget/fake-llm.js";
export { FakeCrewHost } from "./chain/fake-crew-host.js";
export { FakeOrkeonRuntime } from "./chain/fake-runtime.js";
export { FakeSessionContext } from "./hops/fake-session.js";
export { DEFAULT_FAKE_MAX_CHAIN_DEPTH, DEFAULT_FAKE_MAX_LAUNCHES } from "./limits.js";
export { FakeMisuseError } from "./errors.js";
export type { FakeActStep } from "./budget/fake-llm.js";
export type { FakeCrewDefinition, FakeCrewInstance, FakeOrkeonRuntimeOptions } from "./chain/fake-runtime.js";
