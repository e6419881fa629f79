// One role's seat in a room of `pnpm demo`: its client, the shared roundtable tool as the role uses it, and
// everything that entered its context (pings, digests, fetches, the tool's replies). A role process sits in one; the
// larger rooms (grown.ts) seat every role in one process, through the same client and tool.
import {
  createRoundtableClient,
  renderActivityNotice,
  runRoundtableTool,
  type CreateRoundtableClientOptions,
  type RoundtableClient,
} from "@orphus/roundtable-client";
import { announcedPosts } from "@orphus/roundtable-protocol";
import { DEMO_DIGEST_BUDGET, DEMO_IDLE_MS, type ContextEntry } from "./shared.js";

/** What a seat's client takes beyond the demo's own settings (the role, the pings, the broker's idle time). */
export type SeatClientOptions = Omit<CreateRoundtableClientOptions, "role" | "onActivity" | "brokerIdleMs">;

/** A role at the table: every tool result and ping it receives is kept, in order, as its context. */
export class Seat {
  readonly client: RoundtableClient;
  readonly context: ContextEntry[] = [];
  #newest = 0;
  #wake: (() => void) | undefined;

  constructor(
    readonly role: string,
    readonly room: string,
    options: SeatClientOptions = {},
  ) {
    this.client = createRoundtableClient({
      ...options,
      role,
      brokerIdleMs: DEMO_IDLE_MS,
      onActivity: (notice) => this.context.push({ kind: "ping", text: renderActivityNotice(notice) }),
    });
    // The newest sequence number heard of, from the raw events pings are made of (own posts come by heard()).
    this.client.onEvent((event) => {
      for (const { seq } of announcedPosts(event)) this.heard(seq);
    });
  }

  /** The shared tool once, in this seat's room; its text enters the context as `kind`. */
  async use(input: Record<string, unknown>, kind: ContextEntry["kind"]): Promise<string> {
    const result = await runRoundtableTool(this.client, { room: this.room, ...input });
    if (result.isError) throw new Error(`${this.role}: ${result.text}`);
    this.context.push({ kind, text: result.text });
    return result.text;
  }

  /** A digest within the demo's budget, as an agent reads before it speaks. */
  digest(): Promise<string> {
    return this.use({ action: "digest", budget: DEMO_DIGEST_BUDGET }, "digest");
  }

  /** Message `seq` whole: one message, asked for. */
  fetchWhole(seq: number): Promise<string> {
    return this.use({ action: "fetch", afterSeq: seq - 1, limit: 1 }, "fetch");
  }

  /** Notes that the room holds message `seq` (a post of this seat's own, which no event announces to it). */
  heard(seq: number): void {
    if (seq > this.#newest) {
      this.#newest = seq;
      this.#wake?.();
    }
  }

  /** Resolves once the seat has heard of message `seq`. */
  async untilSeq(seq: number): Promise<void> {
    while (this.#newest < seq) await new Promise<void>((resolve) => (this.#wake = resolve));
  }
}
