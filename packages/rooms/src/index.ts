/**
 * @orphus/rooms — the roundtable's room state as a pure in-memory library: a ring buffer per room with sequence
 * numbers that are never reused, member roles joined from one or more connections, and a read cursor per role.
 *
 * ```ts
 * import { RoomRegistry } from "@orphus/rooms";
 *
 * const rooms = new RoomRegistry({ clock: () => Date.now() });
 * const room = rooms.getOrCreate("design-review");
 * room.join("planner", "conn-1"); // true: planner just became a member
 * room.join("critic", "conn-2");
 * room.post("planner", "Ship the ring buffer first.", "ship ring first");
 * const page = room.unread("critic"); // { messages: [{ seq: 1, author: "planner", … }], newestSeq: 1, … }
 * room.markRead("critic", page.newestSeq);
 * rooms.dropConnection("conn-2"); // [{ room: "design-review", role: "critic" }]
 * ```
 *
 * A broker holds its rooms through a `RoomStore`: `MemoryRoomStore` (the default, synchronous) keeps them here;
 * `@orphus/rooms-redis` shares them between brokers on several hosts. One contract, one property suite, both stores:
 *
 * ```ts
 * import { MemoryRoomStore, andThen } from "@orphus/rooms";
 *
 * const store = new MemoryRoomStore();
 * store.join("design-review", "planner");
 * andThen(store.post("design-review", "planner", "Ship it.", { key: "c0ffee" }), (posted) => posted.seq); // 1
 * ```
 *
 * Sequence numbers start at 1 and only grow, so `afterSeq` means the same thing however often the ring wraps; a
 * read that starts before the retained window says how many messages were evicted unread and which ones. Sizes
 * are UTF-8 bytes. Time comes from the injected clock. Nothing here does I/O: the broker is the glue.
 */
export { RoomRegistry } from "./registry.js";
export { MemoryRoomStore } from "./memory-store.js";
export { resolveRoomStoreOptions } from "./store-options.js";
export { andThen, isPromiseLike } from "./awaitable.js";
export { maskStoreUrl, MASK } from "./store-url.js";
export { checkMessageSize, checkPageLimit, checkPostKey, checkRoleName, checkRoomName, checkSeq } from "./checks.js";
export { Room } from "./room.js";
export { SeqRing } from "./ring.js";
export {
  DEFAULT_RING_CAPACITY,
  MAX_RING_CAPACITY,
  DEFAULT_MAX_ROOMS,
  DEFAULT_MAX_MEMBERS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_HEADLINE_BYTES,
  DEFAULT_MAX_ROLE_NAME_BYTES,
  DEFAULT_MAX_RETAINED_CURSORS,
  DEFAULT_ROOM_NAME_PATTERN,
  DEFAULT_MAX_POST_KEYS,
  MAX_POST_KEY_BYTES,
  DEFAULT_MAX_HELD_BYTES,
} from "./limits.js";
export {
  RoomsError,
  RoomNameInvalidError,
  RoomLimitError,
  MemberLimitError,
  RoleNameInvalidError,
  MessageTooLargeError,
  BodyTooLargeError,
  HeadlineTooLargeError,
  NotMemberError,
  SeqInvalidError,
  PageLimitInvalidError,
  RoomsOptionError,
  PostKeyInvalidError,
  PostKeyReusedError,
  StoreUnavailableError,
  StoreResetError,
  StoreClosedError,
} from "./errors.js";
export type { RoomRegistryOptions, RoomDeparture } from "./registry.js";
export type { ConnectionId, RoomMessage, RoomPage, RoomSummary } from "./room.js";
export type { EvictedRange, RingSlice } from "./ring.js";
export type { Clock, RoomLimits, RoomOptions } from "./options.js";
export type { Awaitable } from "./awaitable.js";
export type { MemoryRoomStoreOptions } from "./memory-store.js";
export type { RoomStoreOptions } from "./store-options.js";
export type {
  RoomActivity,
  RoomStore,
  RoomStoreEvent,
  RoomStoreLimits,
  StoreAvailabilityEvent,
  StoreDeparture,
  StoreHeldText,
  StoreJoin,
  StoreLeave,
  StorePost,
  StorePostOptions,
  StoreRead,
  StoreReadOptions,
  StoreResetEvent,
  StoreRoomListing,
  StoreRoomView,
  StorePeek,
  StorePeekOptions,
} from "./store.js";
export { peekEvicted } from "./store.js";
