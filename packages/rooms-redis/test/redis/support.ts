import { randomBytes } from "node:crypto";
import type { RoomStoreEvent } from "@orphus/rooms";
import { openRedisRoomStore, type RedisRoomStore, type RedisRoomStoreOptions } from "@orphus/rooms-redis";

/** Opens a store on `url` under a key prefix of its own (unless one is given), closing it when the test ends. */
export async function openStore(
  url: string,
  options: Partial<RedisRoomStoreOptions> = {},
  opened: RedisRoomStore[] = [],
): Promise<RedisRoomStore> {
  const store = await openRedisRoomStore({ keyPrefix: `t:${randomBytes(6).toString("hex")}:`, ...options, url });
  opened.push(store);
  return store;
}

/** The code of what `action` threw or rejected with, or "ok". */
export async function codeOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
    return "ok";
  } catch (error) {
    return String((error as { code?: unknown }).code ?? (error as Error).message);
  }
}

/** Records a store's events. */
export function record(store: RedisRoomStore): RoomStoreEvent[] {
  const events: RoomStoreEvent[] = [];
  store.subscribe((event) => events.push(event));
  return events;
}
