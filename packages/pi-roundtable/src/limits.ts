/** How often a parked ping looks again for a point where it may enter the session, while the session is busy. */
export const PING_RECHECK_MS = 250;

/**
 * Longest text `/roundtable` shows (the status, the doctor's report, a failure), in characters after sanitising; a
 * longer one is cut with a note of how much was left out. The status with every room listed is under 6,000.
 */
export const MAX_COMMAND_TEXT_CHARS = 8_000;

/** One-off notes (the role warning) a session holds while it is busy; more are dropped, never queued without bound. */
export const MAX_PENDING_NOTES = 4;
