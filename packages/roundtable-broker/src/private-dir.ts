// Shared with the memory store: one rule for every private directory of an agent.
export { ensurePrivateDir } from "@orphus/agent-env";
