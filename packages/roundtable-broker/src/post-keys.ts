import type { Room } from "@orphus/rooms";
import type { RequestFor, ResultFor } from "@orphus/roundtable-protocol";
import { RefusalError } from "./errors.js";

/** What a room remembers of a keyed post: enough to answer a repeat, and to tell a repeat from a reuse. */
interface KeyedPost {
  readonly author: string;
  readonly seq: number;
  readonly postedAt: number;
}

/**
 * The idempotency keys of each room's recent posts: the last `window` keyed posts per room, the oldest forgotten
 * first (a Map keeps insertion order, so forgetting is O(1)). Rooms are never removed, so neither are their
 * ledgers; the whole is bounded by the room limit times `window`.
 */
export class PostKeys {
  readonly #rooms = new Map<string, Map<string, KeyedPost>>();

  constructor(private readonly window: number) {}

  /**
   * The earlier post that `request`'s key names in `room`, as the post reply carries it, or undefined when the key
   * is new (or absent). A key the room holds for another author, or for other text while that message is still
   * retained, is refused with ERR_IDEMPOTENCY_KEY_REUSED: answering it with someone else's seq would be a lie.
   */
  repeatOf(room: Room | undefined, role: string, request: RequestFor<"post">): ResultFor<"post"> | undefined {
    const key = request.idempotencyKey;
    if (room === undefined || key === undefined) return undefined;
    const earlier = this.#rooms.get(room.name)?.get(key);
    if (earlier === undefined) return undefined;
    const [retained] = room.page(earlier.seq - 1, 1).messages;
    const same =
      earlier.author === role &&
      (retained?.seq !== earlier.seq || (retained.body === request.body && retained.headline === request.headline));
    if (!same) {
      throw new RefusalError({
        code: "ERR_IDEMPOTENCY_KEY_REUSED",
        message:
          `Room "${room.name}" already holds idempotency key "${key}" for another post (#${earlier.seq}); ` +
          "give every new post a fresh key, and repeat a key only to retry the same post",
        details: { room: room.name, idempotencyKey: key, seq: earlier.seq },
      });
    }
    return { room: room.name, seq: earlier.seq, postedAt: earlier.postedAt, repeated: true };
  }

  /**
   * Remembers the key of a post just stored, forgetting the room's oldest key past the window. Only the author,
   * seq and time are kept (a copy, so the body is not held once the ring lets it go).
   */
  remember(roomName: string, key: string | undefined, post: KeyedPost): void {
    if (key === undefined || this.window === 0) return;
    let keys = this.#rooms.get(roomName);
    if (keys === undefined) this.#rooms.set(roomName, (keys = new Map()));
    keys.set(key, { author: post.author, seq: post.seq, postedAt: post.postedAt });
    if (keys.size > this.window) keys.delete(keys.keys().next().value as string);
  }

  /** Keys remembered in `roomName`. */
  size(roomName: string): number {
    return this.#rooms.get(roomName)?.size ?? 0;
  }
}
