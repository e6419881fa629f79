/** The `customType` of every message this extension adds to a session: pings and its one-time role warning. */
export const ROUNDTABLE_MESSAGE_TYPE = "roundtable";

/** The command: `/roundtable` (status) and `/roundtable doctor`. */
export const ROUNDTABLE_COMMAND = "roundtable";

/** The CLI flag naming the session's role: `pi --roundtable-role planner`. */
export const ROLE_FLAG = "roundtable-role";

/** The memory tool's name (@orphus/memory's MEMORY_TOOL_NAME), also when that package is not installed. */
export const MEMORY_TOOL = "memory";
