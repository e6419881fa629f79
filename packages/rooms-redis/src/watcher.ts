import type { RoomActivity } from "@orphus/rooms";
import type { Redis } from "ioredis";
import { inboxKey } from "./keys.js";
import { WATCH_BATCH } from "./limits.js";

/** Pause after a failed blocking read before the next, so a lost server is not asked in a tight loop. */
const RETRY_DELAY_MS = 250;

/** What the watcher needs from its store. */
export interface WatcherOptions {
  readonly keyPrefix: string;
  readonly brokerId: string;
  readonly blockMs: number;
  /** Hears activity of other brokers (and departures swept by anyone). */
  readonly hear: (activity: RoomActivity) => void;
}

/**
 * Reads this broker's inbox with blocking XREADs on a dedicated connection. The store's script writes there
 * whatever another broker's call (or a sweep of an expired broker) did in a room where this broker holds a
 * recipient, so the watcher reads one stream, only what its broker must deliver, and never its own broker's posts.
 */
export class ActivityWatcher {
  readonly #options: WatcherOptions;
  /** ID of the last inbox entry read. */
  #from: string;
  #connection: Redis | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(options: WatcherOptions, from: string) {
    this.#options = options;
    this.#from = from;
  }

  /** After a reset the inbox is new: read it from its start. */
  restart(): void {
    this.#from = "0-0";
  }

  /** Starts reading on `connection`, which the watcher then owns, after entry `from` (where the inbox stood) if given. */
  start(connection: Redis, from?: string): void {
    if (this.#connection !== undefined || this.#stopped) {
      connection.disconnect();
      return;
    }
    if (from !== undefined) this.#from = from;
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
    const inbox = inboxKey(this.#options.keyPrefix, this.#options.brokerId);
    while (!this.#stopped) {
      let reply: unknown;
      try {
        reply = await connection.call(
          "XREAD",
          "COUNT",
          WATCH_BATCH,
          "BLOCK",
          this.#options.blockMs,
          "STREAMS",
          inbox,
          this.#from,
        );
      } catch {
        if (this.#stopped) break;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS).unref());
        continue;
      }
      if (!Array.isArray(reply)) continue;
      for (const [, entries] of reply as [string, [string, string[]][]][]) {
        for (const [id, fields] of entries) {
          this.#from = id;
          this.#entry(fields);
        }
      }
    }
  }

  #entry(fields: readonly string[]): void {
    const entry = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) entry.set(fields[i] as string, fields[i + 1] as string);
    const kind = entry.get("k");
    if (kind !== "post" && kind !== "join" && kind !== "leave" && kind !== "disconnect") return;
    let recipients: string[];
    try {
      recipients = JSON.parse(entry.get("to") ?? "[]") as string[];
    } catch {
      recipients = [];
    }
    this.#options.hear({
      type: "activity",
      kind,
      room: entry.get("r") ?? "",
      seq: Number(entry.get("s") ?? 0),
      role: entry.get("p") ?? "",
      recipients,
    });
  }
}
