import { brandErrorClass } from "@orphus/internal";

/** Base class of the errors this package throws itself; `code` is stable across releases. */
export abstract class PiRoundtableError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/** Thrown by a memory call made after its session shut down: the session's store is closed. */
export class MemorySeatClosedError extends PiRoundtableError {
  override readonly name = "MemorySeatClosedError";
  readonly code = "ERR_MEMORY_SEAT_CLOSED";
  constructor() {
    super("this session has shut down; its memory store is closed");
  }
}

/**
 * Thrown by a shared tool's argument check inside pi (before pi's schema validation): its message is the tool's own
 * refusal text, which pi returns to the model as the call's error result.
 */
export class ToolArgumentsRefusedError extends PiRoundtableError {
  override readonly name = "ToolArgumentsRefusedError";
  readonly code = "ERR_TOOL_ARGUMENTS_REFUSED";
}
