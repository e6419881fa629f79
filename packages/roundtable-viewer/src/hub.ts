// The open tabs' event streams. Every tab is sent the same events from the one broker watch; a tab that reads too
// slowly is dropped once what waits for it passes its bound (its EventSource reconnects and starts from a snapshot),
// so a slow tab costs the server at most that bound, never a growing buffer, and never slows the others.
import type { ServerResponse } from "node:http";
import type { TimerHandle, Timers } from "@orphus/internal";

/** One event-stream frame: a named event whose data is one line of JSON (JSON.stringify writes no raw newline). */
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Counts the hub keeps, for the viewer's stats. */
export interface HubStats {
  /** Tabs connected now. */
  readonly clients: number;
  /** Bytes waiting to be written, per tab. */
  readonly bufferedBytes: readonly number[];
  /** Tabs dropped because their bound was passed, since start. */
  readonly dropped: number;
}

export class SseHub {
  readonly #clients = new Set<ServerResponse>();
  readonly #maxBufferBytes: number;
  readonly #timers: Timers;
  readonly #keepaliveMs: number;
  #keepalive: TimerHandle | undefined;
  #dropped = 0;
  /** Frames broadcast this turn, not yet written. */
  #pending = "";

  constructor(options: { maxBufferBytes: number; keepaliveMs: number; timers: Timers }) {
    this.#maxBufferBytes = options.maxBufferBytes;
    this.#timers = options.timers;
    this.#keepaliveMs = options.keepaliveMs;
    this.#schedule();
  }

  #schedule(): void {
    this.#keepalive = this.#timers.setTimeout(() => {
      this.#send(": keepalive\n\n");
      this.#schedule();
    }, this.#keepaliveMs);
  }

  get size(): number {
    return this.#clients.size;
  }

  /** Starts a tab's stream with its first frame (the whole view). */
  add(response: ServerResponse, first: string): void {
    // What this turn broadcast before the tab came is already in its first frame (the whole view).
    this.#flush();
    response.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    this.#clients.add(response);
    response.on("close", () => this.#clients.delete(response));
    this.#write(response, first);
  }

  /**
   * Sends one frame to every tab. Frames of one turn of the event loop (the events of every read from the broker it
   * handled) leave together, in one write per tab, once the turn's reads are done.
   */
  broadcast(event: string, data: unknown): void {
    if (this.#clients.size === 0) return;
    const first = this.#pending === "";
    this.#pending += sseFrame(event, data);
    if (first) setImmediate(() => this.#flush());
  }

  #flush(): void {
    const frames = this.#pending;
    this.#pending = "";
    if (frames !== "") this.#send(frames);
  }

  #send(frame: string): void {
    for (const client of this.#clients) this.#write(client, frame);
  }

  #write(client: ServerResponse, frame: string): void {
    // A tab with nothing waiting takes a turn's frames whatever their size (one read from the broker, itself bounded);
    // one with something waiting takes them only within its bound.
    const waiting = client.writableLength;
    if (waiting > 0 && waiting + Buffer.byteLength(frame) > this.#maxBufferBytes) {
      // Too far behind: what it missed is dropped with it; its reconnect is sent the view as it is then.
      this.#dropped++;
      this.#clients.delete(client);
      client.destroy();
      return;
    }
    client.write(frame);
  }

  stats(): HubStats {
    return {
      clients: this.#clients.size,
      bufferedBytes: [...this.#clients].map((c) => c.writableLength),
      dropped: this.#dropped,
    };
  }

  /** Ends every stream. */
  close(): void {
    if (this.#keepalive !== undefined) this.#timers.clearTimeout(this.#keepalive);
    this.#keepalive = undefined;
    this.#pending = "";
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}
