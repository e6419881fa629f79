// A room store that answers like a networked one: the memory store underneath, every answer handed back as a
// promise that settles only when the test lets it (or at once, when the store is open). It stands in for Redis where
// a test must decide exactly when the store answers; the Redis store itself is tested against a real redis-server.
import {
  MemoryRoomStore,
  StoreResetError,
  StoreUnavailableError,
  type RoomStore,
  type RoomStoreEvent,
  type RoomStoreLimits,
  type StorePostOptions,
  type StoreReadOptions,
  type StorePeekOptions,
} from "@orphus/rooms";

export class HeldStore implements RoomStore {
  readonly kind = "held";
  readonly description = "held://test";
  readonly brokerId = "held";
  readonly limits: RoomStoreLimits;
  /** Calls in the order they were made: `op room role`. */
  readonly calls: string[] = [];
  readonly inner: MemoryRoomStore;
  #held: (() => void)[] = [];
  #open = true;
  #failing = false;
  #resetting = false;
  #listeners = new Set<(event: RoomStoreEvent) => void>();

  constructor(inner = new MemoryRoomStore()) {
    this.inner = inner;
    this.limits = inner.limits;
  }

  /** From now on, answers wait for `release()`. */
  hold(): void {
    this.#open = false;
  }

  /** Lets every held answer settle, in the order the calls were made, and answers at once from now on. */
  release(): void {
    this.#open = true;
    for (const settle of this.#held.splice(0)) settle();
  }

  /** Answers held so far. */
  get waiting(): number {
    return this.#held.length;
  }

  /** From now on every call fails with ERR_STORE_UNAVAILABLE (when it settles), until `heal()`. */
  fail(): void {
    this.#failing = true;
  }

  heal(): void {
    this.#failing = false;
  }

  /**
   * The next call finds the data lost, as the Redis store's first call after a reset does: the subscribers hear the
   * reset, then the call fails with ERR_STORE_RESET (the rooms underneath are kept; the broker is what is tested).
   */
  resetOnNextCall(): void {
    this.#resetting = true;
  }

  /** Tells the subscribers, as the store would. */
  emit(event: RoomStoreEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  #answer<T>(call: string, run: () => T): Promise<T> {
    this.calls.push(call);
    return new Promise<T>((resolve, reject) => {
      const settle = (): void => {
        if (this.#resetting) {
          this.#resetting = false;
          this.emit({ type: "reset", epoch: "e2", rooms: [] });
          reject(new StoreResetError(this.description, "e1", "e2"));
          return;
        }
        if (this.#failing) {
          reject(new StoreUnavailableError(this.description, call.split(" ")[0] ?? call, 2000, "held store failing"));
          return;
        }
        try {
          resolve(run());
        } catch (error) {
          reject(error);
        }
      };
      if (this.#open) queueMicrotask(settle);
      else this.#held.push(settle);
    });
  }

  attach(role: string) {
    return this.#answer(`attach ${role}`, () => this.inner.attach(role));
  }
  detach(role: string) {
    return this.#answer(`detach ${role}`, () => this.inner.detach(role));
  }
  join(room: string, role: string) {
    return this.#answer(`join ${room} ${role}`, () => this.inner.join(room, role));
  }
  leave(room: string, role: string) {
    return this.#answer(`leave ${room} ${role}`, () => this.inner.leave(room, role));
  }
  post(room: string, author: string, body: string, options?: StorePostOptions) {
    return this.#answer(`post ${room} ${author}`, () => this.inner.post(room, author, body, options));
  }
  read(room: string, role: string, options?: StoreReadOptions) {
    return this.#answer(`read ${room} ${role}`, () => this.inner.read(room, role, options));
  }
  markRead(room: string, role: string, seq: number) {
    return this.#answer(`markRead ${room} ${role}`, () => this.inner.markRead(room, role, seq));
  }
  list(role: string) {
    return this.#answer(`list ${role}`, () => this.inner.list(role));
  }
  members(room: string) {
    return this.#answer(`members ${room}`, () => this.inner.members(room));
  }
  view(room?: string) {
    return this.#answer(`view ${room ?? ""}`, () => this.inner.view(room));
  }
  peek(room: string, options: StorePeekOptions) {
    return this.#answer(`peek ${room}`, () => this.inner.peek(room, options));
  }
  subscribe(listener: (event: RoomStoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  async close(): Promise<void> {
    this.release();
    await this.inner.close();
  }
}
