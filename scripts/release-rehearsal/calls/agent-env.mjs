// Import-and-call check of @orphus/agent-env as installed from the registry: the agent and memory directories
// resolve from the variables, one under the other, and the role comes from its variable. Prints one line; throws
// otherwise.
import assert from "node:assert/strict";
import { resolveAgentDir, resolveMemoryDir, roleFromEnv } from "@orphus/agent-env";

const env = { ORPHUS_CODING_AGENT_DIR: "/srv/agents/a", ORPHUS_ROUNDTABLE_ROLE: " planner " };
const agentDir = resolveAgentDir(env);
assert.equal(agentDir, "/srv/agents/a");
const memory = resolveMemoryDir(env);
assert.ok(memory.dir.startsWith(agentDir), `memory directory ${memory.dir} is not under ${agentDir}`);
assert.equal(roleFromEnv(env), "planner");
console.log(`agent-env: agent directory ${agentDir}, memory ${memory.dir}, role planner`);
