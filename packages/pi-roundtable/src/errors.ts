/** Base class of the errors this package throws itself; `code` is stable across releases. */
export abstract class PiRoundtableError extends Error {
  abstract readonly code: string;
}

/** Thrown by a memory call made after its session shut down: the session's store is closed. */
export class MemorySeatClosedError extends PiRoundtableError {
  override readonly name = "MemorySeatClosedError";
  readonly code = "ERR_MEMORY_SEAT_CLOSED";
  constructor() {
    super("this session has shut down; its memory store is closed");
  }
}
