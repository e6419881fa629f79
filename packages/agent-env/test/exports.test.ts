import { expect, it } from "vitest";
import * as api from "@orphus/agent-env";

it("exports exactly its public names", () => {
  expect(Object.keys(api).sort()).toEqual([
    "AGENT_DIR_ENV",
    "MEMORY_DIR_ENV",
    "MEMORY_DIR_NAME",
    "ROLE_ENV",
    "ensurePrivateDir",
    "resolveAgentDir",
    "resolveMemoryDir",
    "roleFromEnv",
  ]);
});
