/**
 * @orphus/rooms-redis — a roundtable room store on Redis Streams, so brokers on several hosts share rooms. One
 * stream per room holds its ring (entry ID = seq, appended by one Lua script that allocates the seq and trims to the
 * capacity); cursors per role live in a hash, members per broker expire with its heartbeat, and other brokers'
 * activity arrives in its inbox, read by blocking reads on a dedicated connection. A Redis that lost its data is
 * detected by its epoch.
 *
 * ```ts
 * import { openRedisRoomStore } from "@orphus/rooms-redis";
 *
 * // The URL carries credentials: take it from the environment or a file, never from the command line.
 * const store = await openRedisRoomStore({ url: process.env["ORPHUS_ROUNDTABLE_STORE"] ?? "redis://127.0.0.1:6379" });
 * store.subscribe((event) => console.log(event.type)); // other brokers' activity, resets, availability
 * await store.join("design-review", "planner");
 * const { seq } = await store.post("design-review", "planner", "Ship the ring first.", { key: "c0ffee" });
 * console.log(store.description, seq); // redis://127.0.0.1:6379 1 — passwords are masked
 * await store.close();
 * ```
 */
export { openRedisRoomStore, RedisRoomStore } from "./store.js";
export { StoreUrlInvalidError, StoreLimitsMismatchError } from "./errors.js";
export {
  DEFAULT_STORE_TIMEOUT_MS,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MEMBER_TTL_MS,
  DEFAULT_WATCH_BLOCK_MS,
  DEFAULT_ACTIVITY_RETAINED,
  DEFAULT_KEY_PREFIX,
} from "./limits.js";
export type { RedisRoomStoreOptions } from "./store.js";
