// An in-memory BrokerWatch: the test double of @orphus/roundtable-client's watchBroker(). A test emits the events
// a broker would push; the rooms it holds answer peek in pages as the broker's watcher op does.
import type { BrokerWatch, WatchEvent, WatchPage, WatchSnapshot } from "@orphus/roundtable-viewer";

export interface FakeWatch extends BrokerWatch {
  emit(event: WatchEvent): void;
  /** Adds a message to a room's held texts (what peek reads) and emits its post event. */
  post(room: string, author: string, text: string, headline?: string): number;
  fail(error?: Error): void;
  readonly closed: boolean;
  readonly peeks: number;
  next: WatchSnapshot;
}

export const FAKE_STARTED_AT = "2026-12-05T00:00:00.000Z";

export function fakeSnapshot(rooms: WatchSnapshot["rooms"] = []): WatchSnapshot {
  return {
    broker: { pid: 4242, instance: "fake-instance", store: "memory", protocol: 3, startedAt: FAKE_STARTED_AT },
    rooms,
  };
}

/** `now`, when given, stamps each post (else post n is stamped n seconds after FAKE_STARTED_AT). */
export function fakeWatch(snapshot: WatchSnapshot = fakeSnapshot(), now?: () => number): FakeWatch {
  const listeners = new Set<(event: WatchEvent) => void>();
  const closers = new Set<(error?: Error) => void>();
  const texts = new Map<string, { seq: number; author: string; at: string; text: string }[]>();
  let closed = false;
  let peeks = 0;
  const watch: FakeWatch = {
    snapshot,
    next: snapshot,
    get closed() {
      return closed;
    },
    get peeks() {
      return peeks;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose(listener) {
      closers.add(listener);
      return () => closers.delete(listener);
    },
    resnapshot: () => Promise.resolve(watch.next),
    peek(room, options = {}): Promise<WatchPage> {
      peeks++;
      const held = texts.get(room) ?? [];
      const limit = options.limit ?? 20;
      let messages = held.filter(
        (m) =>
          (options.afterSeq === undefined || m.seq > options.afterSeq) &&
          (options.beforeSeq === undefined || m.seq < options.beforeSeq),
      );
      const more = messages.length > limit;
      messages = options.beforeSeq !== undefined ? messages.slice(-limit) : messages.slice(0, limit);
      return Promise.resolve({ room, messages, more });
    },
    close() {
      closed = true;
    },
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    post(room, author, text, headline) {
      const held = texts.get(room) ?? [];
      texts.set(room, held);
      const seq = (held[held.length - 1]?.seq ?? 0) + 1;
      const at = new Date(now?.() ?? Date.parse(FAKE_STARTED_AT) + seq * 1000).toISOString();
      held.push({ seq, author, at, text });
      const shown = headline ?? text.split("\n", 1)[0] ?? "";
      watch.emit({ kind: "post", room, seq, author, at, headline: shown, chars: text.length });
      return seq;
    },
    fail(error) {
      for (const closer of closers) closer(error);
    },
  };
  return watch;
}
