import type { Awaitable } from "./awaitable.js";
import type { RoomMessage, RoomPage, RoomSummary } from "./room.js";
import type { EvictedRange } from "./ring.js";
import type { RoomLimits } from "./options.js";
import type { StoreUnavailableError } from "./errors.js";

/** Every limit a room store enforces, defaults applied. The same for every broker sharing the store. */
export interface RoomStoreLimits extends RoomLimits {
  readonly maxRooms: number;
  /** Idempotency keys of recent posts remembered per room. */
  readonly maxPostKeys: number;
  readonly roomNamePattern: RegExp;
}

/** What `join` did. */
export interface StoreJoin {
  /** The room did not exist before this join. */
  readonly created: boolean;
  /** The role just became a member (false: it already was, and nothing changed). */
  readonly joined: boolean;
  /** Member roles after the join, sorted. */
  readonly members: readonly string[];
  readonly newestSeq: number;
  /** Messages the role has not read, counting those evicted before it could. */
  readonly unread: number;
  /** Roles whose connections hear the `join` event: the members (empty when nothing changed). */
  readonly recipients: readonly string[];
}

/** What `leave` did. */
export interface StoreLeave {
  /** The role was a member and now is not. */
  readonly left: boolean;
  /** Roles whose connections hear the `leave` event: the remaining members and the role that left (empty if none). */
  readonly recipients: readonly string[];
}

/** What `post` did. */
export interface StorePost {
  readonly seq: number;
  /** Epoch milliseconds when the message was stored. */
  readonly postedAt: number;
  /** True when the author's idempotency key named an earlier post: nothing was stored, `seq` is the earlier one. */
  readonly replayed: boolean;
  /** Roles whose connections hear the `post` event: the members (empty for a replay). */
  readonly recipients: readonly string[];
}

/** One read of a room for a member: the page, and where the member's cursor stood (reads never move it). */
export interface StoreRead extends RoomPage {
  readonly cursor: number;
}

/** A role that left a room for good because it has no open connection on any broker of the store. */
export interface StoreDeparture {
  readonly room: string;
  readonly role: string;
  /** Roles whose connections hear the `disconnect` event: the remaining members. */
  readonly recipients: readonly string[];
}

/** A room as listed for one role. */
export interface StoreRoomListing extends RoomSummary {
  readonly joined: boolean;
  /** Present when `joined`: the role's unread count. */
  readonly unread?: number;
}

/** Options of one read; the afterSeq defaults to the member's cursor, the limit to the room's capacity. */
export interface StoreReadOptions {
  readonly afterSeq?: number;
  readonly limit?: number;
}

/** One room as a watcher sees it: read without membership, nothing moved. */
export interface StoreRoomView {
  readonly name: string;
  readonly newestSeq: number;
  /** Messages the room retains. */
  readonly retained: number;
  /** UTF-16 code units of the retained messages' bodies and headlines (what a fetch page counts). */
  readonly retainedChars: number;
  /** Member roles, sorted, each with its unread count. */
  readonly members: readonly { readonly role: string; readonly unread: number }[];
}

/**
 * Options of one peek. With `afterSeq` it reads forward from it; otherwise back from `beforeSeq` (default: past the
 * newest), taking the newest `limit` below it. With both, forward from `afterSeq`, below `beforeSeq`.
 */
export interface StorePeekOptions {
  readonly afterSeq?: number;
  readonly beforeSeq?: number;
  readonly limit: number;
}

/** A peek: retained messages, oldest first, and where the window stands; `evicted` only reading forward. */
export interface StorePeek {
  readonly messages: readonly RoomMessage[];
  readonly newestSeq: number;
  /** Oldest retained seq; `newestSeq + 1` when nothing is retained. */
  readonly oldestSeq: number;
  readonly evicted?: EvictedRange;
}

/** Options of one post. */
export interface StorePostOptions {
  readonly headline?: string;
  /** Client-chosen idempotency key: the author's repeated key answers with the earlier post instead of storing. */
  readonly key?: string;
}

/**
 * Something that happened in a room and was not the result of this store's own call: a request served by another
 * broker, or a role that left because its broker was lost. Carries no body.
 */
export interface RoomActivity {
  readonly type: "activity";
  readonly kind: "post" | "join" | "leave" | "disconnect";
  readonly room: string;
  /** The post's seq; 0 for membership changes, so they cannot pass for content. */
  readonly seq: number;
  /** The author of a post, or the role that joined, left or disconnected. */
  readonly role: string;
  /** Roles whose connections on this broker hear it. */
  readonly recipients: readonly string[];
}

/**
 * The store lost its data (a server restarted without persistence) and took up a new epoch. Rooms this store knew
 * continue past their highest seq, so numbers are not reused; their history, members and cursors are gone.
 */
export interface StoreResetEvent {
  readonly type: "reset";
  readonly epoch: string;
  /** Each room this store knew, with the seq it continues after. */
  readonly rooms: readonly { readonly room: string; readonly continuesAfter: number }[];
}

/**
 * What a store that holds room text in this process holds against its budget (the memory store; a store whose rooms
 * live elsewhere, such as Redis, holds none and has no {@link RoomStore.heldText}).
 */
export interface StoreHeldText {
  /** Bytes of message text held now: two per UTF-16 code unit of each retained body and headline. */
  readonly heldBytes: number;
  /** The budget: a post that takes the total past it evicts the oldest messages of the largest rooms. */
  readonly maxHeldBytes: number;
  /** Messages evicted to keep under the budget since the store opened (the rings' own evictions not counted). */
  readonly evictedMessages: number;
}

/** The store stopped answering (`unavailable`, with the first error) or answers again (`available`). */
export type StoreAvailabilityEvent =
  { readonly type: "unavailable"; readonly error: StoreUnavailableError } | { readonly type: "available" };

/** What a store's subscribers hear. */
export type RoomStoreEvent = RoomActivity | StoreResetEvent | StoreAvailabilityEvent;

/**
 * Where a broker keeps its rooms: the ring with its never-reused seqs, the members, the cursors per role, the
 * idempotency keys of recent posts, and which broker holds which role. One broker holds one store; several brokers
 * (several hosts) may share one backend, each through its own store, and then see one set of rooms.
 *
 * Membership belongs to the role: a role is a member from a join on any broker until a leave on any broker, or until
 * it has no open connection on any broker (`detach` on the last broker that held it, or that broker lost). Every
 * method may answer synchronously or with a promise ({@link Awaitable}); chain results with `andThen`. Failures are
 * `RoomsError`s: the room's refusals (`ERR_NOT_MEMBER`, limits, sizes), `ERR_STORE_UNAVAILABLE` within the store's
 * timeout, `ERR_STORE_RESET` once when the backend lost its data, `ERR_STORE_CLOSED` after `close()`.
 */
export interface RoomStore {
  /** "memory", "redis", …: what holds the rooms. */
  readonly kind: string;
  /** Where the rooms are, with every secret masked: safe for logs, status and the doctor. */
  readonly description: string;
  /** This broker's identity among the store's brokers. */
  readonly brokerId: string;
  readonly limits: RoomStoreLimits;
  /** `role` has an open connection on this broker (its first). */
  attach(role: string): Awaitable<void>;
  /** `role`'s last connection on this broker closed; the rooms it thereby left for good, sorted by room. */
  detach(role: string): Awaitable<readonly StoreDeparture[]>;
  /** Makes `role` a member of `room`, creating the room when new; the role is attached here. */
  join(room: string, role: string): Awaitable<StoreJoin>;
  /** Takes `role` out of `room`, whichever broker it joined from; its cursor is kept for its return. */
  leave(room: string, role: string): Awaitable<StoreLeave>;
  /** Stores a message from member `author` under the room's next seq. */
  post(room: string, author: string, body: string, options?: StorePostOptions): Awaitable<StorePost>;
  /** Messages after `afterSeq` (default: the member's cursor), oldest first, saying what was evicted unread. */
  read(room: string, role: string, options?: StoreReadOptions): Awaitable<StoreRead>;
  /** Moves member `role`'s cursor up to `seq` (never backwards, never past the newest seq); the resulting cursor. */
  markRead(room: string, role: string, seq: number): Awaitable<number>;
  /** Every room, sorted by name, as `role` sees it. */
  list(role: string): Awaitable<readonly StoreRoomListing[]>;
  /** Member roles of `room`, sorted; undefined when there is no such room. */
  members(room: string): Awaitable<readonly string[] | undefined>;
  /** Every room sorted by name, or only `room` (none when it does not exist), as a watcher sees it. */
  view(room?: string): Awaitable<readonly StoreRoomView[]>;
  /** Retained messages of `room` without membership, moving nothing; undefined when there is no such room. */
  peek(room: string, options: StorePeekOptions): Awaitable<StorePeek | undefined>;
  /** The message text this store holds in this process against its budget; absent when the rooms live elsewhere. */
  heldText?(): StoreHeldText;
  /** Hears activity of other brokers, resets and availability; returns the unsubscribe function. */
  subscribe(listener: (event: RoomStoreEvent) => void): () => void;
  /** Detaches every role still attached here and releases the store's resources. */
  close(): Promise<void>;
}

/**
 * The evicted range a forward peek after `afterSeq` reports, given the room's newest seq and how many it retains:
 * the one rule for both stores.
 */
export function peekEvicted(afterSeq: number, newestSeq: number, retained: number): EvictedRange | undefined {
  const oldestSeq = newestSeq - retained + 1;
  if (oldestSeq <= afterSeq + 1) return undefined;
  return { count: oldestSeq - afterSeq - 1, fromSeq: afterSeq + 1, toSeq: oldestSeq - 1 };
}
