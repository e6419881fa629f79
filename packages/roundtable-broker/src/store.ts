import { MemoryRoomStore, maskStoreUrl, type RoomStore, type RoomStoreOptions } from "@orphus/rooms";
import { MEMORY_STORE } from "@orphus/roundtable-locator";
import { ROOM_NAME_PATTERN } from "@orphus/roundtable-protocol";
import { StoreOpenError, StorePackageMissingError } from "./errors.js";
import type { ResolvedBrokerOptions } from "./options.js";

/** The Redis store's module, loaded only when a broker is configured for it. */
type RedisStoreModule = typeof import("@orphus/rooms-redis");

/**
 * Opens the broker's room store: the one given, the memory store (synchronous, nothing to install), or a Redis
 * store through `@orphus/rooms-redis`, imported here and nowhere else, so a broker on the default store never loads
 * a Redis client. Throws StorePackageMissingError, or StoreOpenError (masked) when Redis cannot be opened within
 * its timeout: a broker configured for Redis never falls back to memory.
 */
export async function openBrokerStore(options: ResolvedBrokerOptions): Promise<RoomStore> {
  const { store } = options;
  if (typeof store !== "string") return store;
  const limits: RoomStoreOptions = {
    maxRooms: options.maxRooms,
    maxMembers: options.maxMembers,
    maxBodyBytes: options.maxBodyBytes,
    maxHeadlineBytes: options.maxHeadlineBytes,
    capacity: options.roomCapacity,
    maxPostKeys: options.postKeyWindow,
    // The protocol's pattern, so the broker and every caller that checks a room name first agree.
    roomNamePattern: ROOM_NAME_PATTERN,
  };
  if (store === MEMORY_STORE) {
    const { maxHeldBytes } = options;
    return new MemoryRoomStore(
      maxHeldBytes === undefined
        ? { ...limits, clock: options.clock }
        : { ...limits, clock: options.clock, maxHeldBytes },
    );
  }
  const description = maskStoreUrl(store);
  const redis = await importRedisStore(description);
  try {
    return await redis.openRedisRoomStore({ ...limits, url: store });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // The store's errors quote its URL masked and are scrubbed of the password; nothing else is added here.
    throw new StoreOpenError(description, typeof code === "string" ? code : undefined, (error as Error).message, {
      cause: error,
    });
  }
}

async function importRedisStore(description: string): Promise<RedisStoreModule> {
  try {
    return await import("@orphus/rooms-redis");
  } catch (error) {
    const missing =
      (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" &&
      String((error as Error).message).includes("rooms-redis");
    if (missing) throw new StorePackageMissingError(description, { cause: error });
    throw new StoreOpenError(
      description,
      undefined,
      `@orphus/rooms-redis failed to load: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
