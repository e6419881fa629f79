import { RoomsOptionError } from "./errors.js";
import { DEFAULT_MAX_POST_KEYS, DEFAULT_MAX_ROOMS, MAX_RING_CAPACITY } from "./limits.js";
import { integerOption, resolveRoomOptions, roomNamePatternOption, type Clock } from "./options.js";
import type { RoomRegistryOptions } from "./registry.js";
import type { RoomStoreLimits } from "./store.js";

/** Options every room store takes: the registry's limits, plus how many post keys a room remembers. */
export interface RoomStoreOptions extends RoomRegistryOptions {
  /** Idempotency keys of recent posts remembered per room; default {@link DEFAULT_MAX_POST_KEYS}. */
  readonly maxPostKeys?: number;
}

/** Checks every store option and applies the defaults; throws RoomsOptionError. */
export function resolveRoomStoreOptions(options: RoomStoreOptions | undefined): {
  readonly limits: RoomStoreLimits;
  readonly clock: Clock;
} {
  const { clock, ...roomLimits } = resolveRoomOptions(options);
  // Checked here as well as by the ring, so a store that keeps no ring in memory refuses the same capacities.
  if (roomLimits.capacity > MAX_RING_CAPACITY) {
    throw new RoomsOptionError("capacity", `an integer from 1 to ${MAX_RING_CAPACITY}`, roomLimits.capacity);
  }
  const limits: RoomStoreLimits = Object.freeze({
    ...roomLimits,
    maxRooms: integerOption("maxRooms", options?.maxRooms, DEFAULT_MAX_ROOMS, 1),
    maxPostKeys: integerOption("maxPostKeys", options?.maxPostKeys, DEFAULT_MAX_POST_KEYS, 0),
    roomNamePattern: roomNamePatternOption(options?.roomNamePattern),
  });
  return { limits, clock };
}
