/** How often a parked ping looks again for a point where it may enter the session, while the session is busy. */
export const PING_RECHECK_MS = 250;

/** One-off notes (the role warning) a session holds while it is busy; more are dropped, never queued without bound. */
export const MAX_PENDING_NOTES = 4;
