// The broker watch the viewer reads, as @orphus/roundtable-client's `watchBroker()` gives it: the shape the viewer
// codes against, written once here so that the viewer and its test double agree on it.
/** A watch on one broker: its snapshot, then its events, on one watcher connection that is no member of anything. */
export interface BrokerWatch {
  readonly snapshot: WatchSnapshot;
  onEvent(listener: (event: WatchEvent) => void): () => void;
  onClose(listener: (error?: Error) => void): () => void;
  resnapshot(): Promise<WatchSnapshot>;
  peek(
    room: string,
    options?: { beforeSeq?: number; afterSeq?: number; limit?: number; maxChars?: number },
  ): Promise<WatchPage>;
  close(): void;
}

/** The broker and its rooms when the watch began (or was taken again). */
export interface WatchSnapshot {
  broker: { pid: number; instance: string; store: string; protocol: number; startedAt: string };
  rooms: WatchRoom[];
}

/** One room as a snapshot holds it. */
export interface WatchRoom {
  room: string;
  lastSeq: number;
  held: { messages: number; chars: number };
  members: { role: string; unread: number }[];
  served: ServedCounts[];
  recent: WatchPost[];
}

/** Characters the broker served one role in one room, by kind, as running totals. */
export interface ServedCounts {
  role: string;
  digestChars: number;
  fetchChars: number;
  pingChars: number;
}

/** A post without its body. */
export interface WatchPost {
  seq: number;
  author: string;
  at: string;
  headline: string;
  chars: number;
}

/** What the broker pushes to a watcher. */
export type WatchEvent =
  | ({ kind: "post"; room: string } & WatchPost)
  | { kind: "members"; room: string; members: { role: string; unread: number }[] }
  | ({ kind: "served"; room: string; at: string } & ServedCounts)
  | { kind: "room"; room: string; held: { messages: number; chars: number }; lastSeq: number }
  | { kind: "gap" }
  | { kind: "reset"; room?: string };

/** A page of full message texts of a room, read without moving any cursor. */
export interface WatchPage {
  room: string;
  messages: { seq: number; author: string; at: string; text: string }[];
  more: boolean;
  evicted?: { from: number; to: number };
}
