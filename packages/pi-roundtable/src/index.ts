/**
 * @orphus/pi-roundtable — a pi coding-agent extension that seats pi sessions in roundtable rooms. Each session gets
 * the shared `roundtable` tool of @orphus/roundtable-client and the shared `memory` tool of @orphus/memory (their
 * schemas and runners, unchanged; memory is an optional peer), body-free activity pings as one-line session
 * messages, and `/roundtable` (status) and `/roundtable doctor`.
 *
 * ```sh
 * pi install npm:@orphus/pi-roundtable
 * pi --roundtable-role planner      # or /name planner in the session, or ORPHUS_ROUNDTABLE_ROLE=planner
 * ```
 *
 * Embedding pi through its SDK, pass the extension (or one built with options) to the resource loader:
 *
 * ```ts
 * import { DefaultResourceLoader } from "@mariozechner/pi-coding-agent";
 * import { createRoundtableExtension } from "@orphus/pi-roundtable";
 *
 * const loader = new DefaultResourceLoader({ extensionFactories: [createRoundtableExtension({ pingWindowMs: 1500 })] });
 * ```
 *
 * Nothing connects until the session's first roundtable call, and no database opens until its first memory call;
 * the session's shutdown lets both go. One client per agent directory and role in a process, however many times
 * the extension is loaded.
 */
import { roundtableExtension } from "./extension.js";

export { createRoundtableExtension, roundtableExtension } from "./extension.js";
export { ROUNDTABLE_MESSAGE_TYPE, ROUNDTABLE_COMMAND, ROLE_FLAG, MEMORY_TOOL } from "./names.js";
export { resolveSessionRole, ephemeralRoleWarning, ROLE_SOURCE_LABELS } from "./role.js";
export { mergeActivityNotices } from "./pings/merge.js";
export { SessionOutlet } from "./pings/outlet.js";
export { registerSharedTools, checkedBy } from "./tools/shared.js";
export { roundtableTool } from "./tools/roundtable.js";
export { memoryTool, memoryUnavailableText } from "./tools/memory.js";
export { MemorySeat } from "./memory/seat.js";
export { PiRoundtableError, MemorySeatClosedError, ToolArgumentsRefusedError } from "./errors.js";
export { loadMemoryPackage, findMemory } from "./memory/package.js";
export { RoundtableSeat } from "./seat.js";
export { statusText, COMMAND_USAGE, DOCTOR_PI_ROLE_HINT } from "./command.js";
export { sharedClientCount } from "./registry.js";
export { CLAIM_CHANNEL } from "./claim.js";
export { PING_RECHECK_MS, MAX_COMMAND_TEXT_CHARS } from "./limits.js";
export type { PiExtension } from "./extension.js";
export type { RoundtableExtensionOptions, SeatClientOptions, SeatHost, SeatEvents } from "./seat.js";
export type { RoleSource, SessionRole, RoleInputs } from "./role.js";
export type { RoundtableMessageDetails, SessionOutletHost, SessionOutletOptions } from "./pings/outlet.js";
export type { SharedTool, SharedToolResult, SharedToolDetails } from "./tools/shared.js";
export type { CommandOutput, MemoryStatus } from "./command.js";
export type {
  MemoryPackage,
  MemoryLoader,
  MemoryAvailability,
  MemoryOpenOptions,
  MemoryToolOutcome,
} from "./memory/package.js";
export type { MemorySeatOptions } from "./memory/seat.js";
export type {
  PiExtensionApi,
  PiContext,
  PiToolDefinition,
  PiToolResult,
  PiCommand,
  PiToolResultEvent,
  PiEventBus,
} from "./pi.js";

/** pi loads an extension from its module's default export. */
export default roundtableExtension;
