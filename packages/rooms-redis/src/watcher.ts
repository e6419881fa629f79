import type { RoomActivity } from "@orphus/rooms";
import type { Redis } from "ioredis";
import { activityKey, joinsKey, wakeKey } from "./keys.js";
import { WATCH_BATCH } from "./limits.js";

/** Pause after a failed blocking read before the next, so a lost server is not asked in a tight loop. */
const RETRY_DELAY_MS = 250;

/** What the watcher needs from its store. */
export interface WatcherOptions {
  readonly keyPrefix: string;
  readonly brokerId: string;
  readonly blockMs: number;
  /** Whether a role has an open connection on this broker (then its joins elsewhere are watched too). */
  readonly isAttached: (role: string) => boolean;
  /** Appends to the wake-up stream through the store's command connection. */
  readonly wake: (key: string) => void;
  /** Hears activity of other brokers (and departures swept by anyone). */
  readonly hear: (activity: RoomActivity) => void;
}

/**
 * Reads the activity of the rooms this broker's roles are in, with blocking XREADs on a dedicated connection: the
 * store-wide joins stream, each watched room's activity stream, and this broker's wake-up stream (written when a
 * room is added, so the read in progress ends and the next one includes it). Entries caused by this broker's own
 * calls are skipped: their results already told the broker.
 */
export class ActivityWatcher {
  readonly #options: WatcherOptions;
  /** Room → ID of the last activity entry read. */
  readonly #rooms = new Map<string, string>();
  #joinsFrom: string;
  #connection: Redis | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(options: WatcherOptions, joinsFrom: string) {
    this.#options = options;
    this.#joinsFrom = joinsFrom;
  }

  /** Watches `room` from the entry after `since`; nothing changes when it is watched already. */
  watch(room: string, since: string): void {
    if (this.#rooms.has(room)) return;
    this.#rooms.set(room, since);
    if (this.#connection !== undefined) this.#options.wake(wakeKey(this.#options.keyPrefix, this.#options.brokerId));
  }

  /** After a reset every stream is new: read each from its start, the joins stream after `joinsFrom`. */
  restart(joinsFrom: string): void {
    this.#joinsFrom = joinsFrom;
    for (const room of this.#rooms.keys()) this.#rooms.set(room, "0-0");
    if (this.#connection !== undefined) this.#options.wake(wakeKey(this.#options.keyPrefix, this.#options.brokerId));
  }

  /** Rooms watched so far. */
  rooms(): string[] {
    return [...this.#rooms.keys()];
  }

  /**
   * Starts reading on `connection`, which the watcher then owns, from the given positions (where the joins stream and
   * each room's activity stood when the subscriber came) when known.
   */
  start(connection: Redis, from?: { readonly joins: string; readonly rooms: ReadonlyMap<string, string> }): void {
    if (this.#connection !== undefined || this.#stopped) {
      connection.disconnect();
      return;
    }
    if (from !== undefined) {
      this.#joinsFrom = from.joins;
      for (const [room, id] of from.rooms) if (this.#rooms.has(room)) this.#rooms.set(room, id);
    }
    this.#connection = connection;
    this.#running = this.#run(connection);
  }

  /** Ends the read in progress and closes the connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#connection?.disconnect();
    await this.#running;
  }

  async #run(connection: Redis): Promise<void> {
    const { keyPrefix, brokerId, blockMs } = this.#options;
    const joins = joinsKey(keyPrefix);
    const wake = wakeKey(keyPrefix, brokerId);
    while (!this.#stopped) {
      const rooms = [...this.#rooms];
      const keys = [joins, wake, ...rooms.map(([room]) => activityKey(keyPrefix, room))];
      const ids = [this.#joinsFrom, "$", ...rooms.map(([, id]) => id)];
      let reply: unknown;
      try {
        reply = await connection.call("XREAD", "COUNT", WATCH_BATCH, "BLOCK", blockMs, "STREAMS", ...keys, ...ids);
      } catch {
        if (this.#stopped) break;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS).unref());
        continue;
      }
      if (!Array.isArray(reply)) continue;
      for (const [key, entries] of reply as [string, [string, string[]][]][]) {
        if (key === wake) continue;
        const room = key === joins ? undefined : rooms[keys.indexOf(key) - 2]?.[0];
        for (const [id, fields] of entries) {
          if (room === undefined) this.#joined(id, fields);
          else this.#activity(room, id, fields);
        }
      }
    }
  }

  #joined(id: string, fields: readonly string[]): void {
    this.#joinsFrom = id;
    const entry = record(fields);
    const room = entry.get("r") ?? "";
    const role = entry.get("p") ?? "";
    if (entry.get("c") !== this.#options.brokerId) this.#hear("join", room, role, 0, entry);
    if (this.#options.isAttached(role) && !this.#rooms.has(room)) {
      // Joined elsewhere by a role this broker holds: watch the room from just before that join (the same server
      // clock numbers both streams), so nothing after it is missed; a ping of that very millisecond may come twice.
      const ms = Number.parseInt(id, 10);
      this.#rooms.set(room, `${Math.max(0, ms - 1)}-18446744073709551615`);
    }
  }

  #activity(room: string, id: string, fields: readonly string[]): void {
    if (this.#rooms.has(room)) this.#rooms.set(room, id);
    const entry = record(fields);
    if (entry.get("c") === this.#options.brokerId) return;
    const kind = entry.get("k");
    if (kind !== "post" && kind !== "leave" && kind !== "disconnect") return;
    this.#hear(kind, room, entry.get("p") ?? "", Number(entry.get("s") ?? 0), entry);
  }

  #hear(kind: RoomActivity["kind"], room: string, role: string, seq: number, entry: Map<string, string>): void {
    let recipients: string[];
    try {
      recipients = JSON.parse(entry.get("to") ?? "[]") as string[];
    } catch {
      recipients = [];
    }
    this.#options.hear({ type: "activity", kind, room, seq, role, recipients });
  }
}

function record(fields: readonly string[]): Map<string, string> {
  const entry = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) entry.set(fields[i] as string, fields[i + 1] as string);
  return entry;
}
