import { RoomsOptionError } from "./errors.js";
import {
  DEFAULT_ROOM_NAME_PATTERN,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_HEADLINE_BYTES,
  DEFAULT_MAX_MEMBERS,
  DEFAULT_MAX_RETAINED_CURSORS,
  DEFAULT_MAX_ROLE_NAME_BYTES,
  DEFAULT_RING_CAPACITY,
} from "./limits.js";

/** Milliseconds since the epoch; injected so tests decide what time it is. */
export type Clock = () => number;

/** Options of one room; every limit has a default named in limits.ts. */
export interface RoomOptions {
  /** Messages retained; default {@link DEFAULT_RING_CAPACITY}. */
  readonly capacity?: number;
  /** Distinct member roles at once; default {@link DEFAULT_MAX_MEMBERS}. */
  readonly maxMembers?: number;
  /** Largest body in UTF-8 bytes; default {@link DEFAULT_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** Largest headline in UTF-8 bytes; default {@link DEFAULT_MAX_HEADLINE_BYTES}. */
  readonly maxHeadlineBytes?: number;
  /** Largest role name in UTF-8 bytes; default {@link DEFAULT_MAX_ROLE_NAME_BYTES}. */
  readonly maxRoleNameBytes?: number;
  /** Cursors of departed roles kept for their return (0 keeps none); default {@link DEFAULT_MAX_RETAINED_CURSORS}. */
  readonly maxRetainedCursors?: number;
  /** Source of `postedAt`; default `Date.now`. */
  readonly clock?: Clock;
}

/** A room's limits, every default applied and every value checked. */
export interface RoomLimits {
  readonly capacity: number;
  readonly maxMembers: number;
  readonly maxBodyBytes: number;
  readonly maxHeadlineBytes: number;
  readonly maxRoleNameBytes: number;
  readonly maxRetainedCursors: number;
}

/** RoomOptions with every default applied and every value checked. */
export interface ResolvedRoomOptions extends RoomLimits {
  readonly clock: Clock;
}

/** Returns `value ?? fallback` after checking it is an integer of at least `min`; throws RoomsOptionError. */
export function integerOption(option: string, value: number | undefined, fallback: number, min: number): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved < min) {
    throw new RoomsOptionError(option, `an integer of at least ${min}`, resolved);
  }
  return resolved;
}

export function resolveRoomOptions(options: RoomOptions | undefined): ResolvedRoomOptions {
  const clock = options?.clock ?? Date.now;
  if (typeof clock !== "function") {
    throw new RoomsOptionError("clock", "a function returning epoch milliseconds", clock);
  }
  return {
    // The ring checks its own upper bound.
    capacity: integerOption("capacity", options?.capacity, DEFAULT_RING_CAPACITY, 1),
    maxMembers: integerOption("maxMembers", options?.maxMembers, DEFAULT_MAX_MEMBERS, 1),
    maxBodyBytes: integerOption("maxBodyBytes", options?.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 0),
    maxHeadlineBytes: integerOption("maxHeadlineBytes", options?.maxHeadlineBytes, DEFAULT_MAX_HEADLINE_BYTES, 0),
    maxRoleNameBytes: integerOption("maxRoleNameBytes", options?.maxRoleNameBytes, DEFAULT_MAX_ROLE_NAME_BYTES, 1),
    maxRetainedCursors: integerOption(
      "maxRetainedCursors",
      options?.maxRetainedCursors,
      DEFAULT_MAX_RETAINED_CURSORS,
      0,
    ),
    clock,
  };
}

/** The room-name pattern, default applied, copied without `g` and `y` flags; throws RoomsOptionError. */
export function roomNamePatternOption(pattern: RegExp | undefined): RegExp {
  const resolved = pattern ?? DEFAULT_ROOM_NAME_PATTERN;
  if (!(resolved instanceof RegExp)) throw new RoomsOptionError("roomNamePattern", "a RegExp", resolved);
  // A global or sticky RegExp keeps lastIndex between tests, which would make validation depend on history.
  return new RegExp(resolved.source, resolved.flags.replace(/[gy]/g, ""));
}
