import type { RoundtableToolClient } from "@orphus/roundtable-client";

type Result<K extends keyof RoundtableToolClient> = RoundtableToolClient[K] extends (...args: never[]) => infer R
  ? Awaited<R>
  : never;

/**
 * A deterministic stand-in for the broker client, for tests of the MCP layer alone: one role's view of rooms held
 * in memory. The tool's handlers and texts stay the shared ones; this only answers their requests. A room named
 * `boom` fails every request, to drive the error path; waits end only when aborted or when a post is injected.
 */
export class FakeToolClient implements RoundtableToolClient {
  readonly calls: string[] = [];
  readonly #rooms = new Map<
    string,
    { members: Set<string>; messages: { seq: number; author: string; body: string }[]; cursor: number }
  >();
  readonly #waiters = new Set<(room: string, author: string, seq: number) => void>();

  constructor(readonly role: string) {}

  #room(name: string) {
    if (name === "boom") throw new Error("the fake broker refuses room boom");
    let room = this.#rooms.get(name);
    if (room === undefined) {
      room = { members: new Set(), messages: [], cursor: 0 };
      this.#rooms.set(name, room);
    }
    return room;
  }

  #member(name: string) {
    const room = this.#room(name);
    if (!room.members.has(this.role)) throw new Error(`Not a member of room "${name}"; join it first`);
    return room;
  }

  async join(name: string): Promise<Result<"join">> {
    this.calls.push(`join ${name}`);
    const created = !this.#rooms.has(name);
    const room = this.#room(name);
    room.members.add(this.role);
    const newestSeq = room.messages.length;
    return { room: name, created, members: [...room.members].sort(), newestSeq, unread: newestSeq - room.cursor };
  }

  async leave(name: string): Promise<Result<"leave">> {
    this.calls.push(`leave ${name}`);
    return { room: name, left: this.#room(name).members.delete(this.role) };
  }

  async post(name: string, body: string, options: { headline?: string } = {}): Promise<Result<"post">> {
    this.calls.push(`post ${name} ${body.length}${options.headline === undefined ? "" : " headline"}`);
    const room = this.#member(name);
    const seq = room.messages.length + 1;
    room.messages.push({ seq, author: this.role, body });
    if (room.cursor === seq - 1) room.cursor = seq;
    return { room: name, seq, postedAt: 1_796_000_000_000 + seq };
  }

  /** Another role takes a seat in a room, as a join from another session would. */
  seat(name: string, role: string): void {
    this.#room(name).members.add(role);
  }

  /** A post by another role, as the broker would relay it. */
  inject(name: string, author: string, body: string): void {
    const room = this.#room(name);
    const seq = room.messages.length + 1;
    room.messages.push({ seq, author, body });
    for (const waiter of this.#waiters) waiter(name, author, seq);
  }

  async digest(name: string, options: { budget?: number } = {}): Promise<Result<"digest">> {
    this.calls.push(`digest ${name} ${options.budget ?? "-"}`);
    const room = this.#member(name);
    const unread = room.messages.filter((m) => m.seq > room.cursor);
    room.cursor = room.messages.length;
    const text = unread
      .map((m) => `[#${m.seq} ${m.author}] ${m.body}`)
      .join("\n")
      .slice(0, options.budget ?? 1500);
    return {
      room: name,
      text,
      full: unread.length,
      excerpted: 0,
      headlined: 0,
      collapsed: 0,
      evicted: 0,
      throughSeq: room.cursor,
      fetchAfterSeq: null,
    };
  }

  async fetch(
    name: string,
    options: { afterSeq?: number; limit?: number; maxChars?: number } = {},
  ): Promise<Result<"fetch">> {
    this.calls.push(`fetch ${name} ${options.afterSeq ?? "-"} ${options.limit ?? "-"}`);
    const room = this.#member(name);
    const after = options.afterSeq ?? room.cursor;
    const all = room.messages.filter((m) => m.seq > after);
    const page = all.slice(0, options.limit ?? 10);
    const last = page[page.length - 1];
    if (last !== undefined) room.cursor = Math.max(room.cursor, last.seq);
    return {
      room: name,
      messages: page.map((m) => ({ ...m, postedAt: 1_796_000_000_000 + m.seq })),
      newestSeq: room.messages.length,
      more: all.length > page.length,
      nextAfterSeq: last?.seq ?? after,
      maxChars: options.maxChars ?? 8000,
    };
  }

  async rooms(): Promise<Result<"rooms">> {
    this.calls.push("rooms");
    return {
      rooms: [...this.#rooms].map(([name, room]) => {
        const joined = room.members.has(this.role);
        return {
          room: name,
          members: room.members.size,
          newestSeq: room.messages.length,
          joined,
          ...(joined ? { unread: room.messages.length - room.cursor } : {}),
        };
      }),
    };
  }

  async members(name: string): Promise<Result<"members">> {
    this.calls.push(`members ${name}`);
    return { room: name, members: [...this.#room(name).members].sort() };
  }

  waitForPost(options: { room?: string; timeoutMs: number; signal?: AbortSignal }): Promise<Result<"waitForPost">> {
    this.calls.push(`wait ${options.room ?? "*"} ${options.timeoutMs}`);
    return new Promise((resolve) => {
      const done = (value: Result<"waitForPost">): void => {
        this.#waiters.delete(waiter);
        resolve(value);
      };
      const waiter = (room: string, author: string, seq: number): void => {
        if (author === this.role || (options.room !== undefined && options.room !== room)) return;
        done({ event: "post", room, author, seq });
      };
      this.#waiters.add(waiter);
      if (options.signal?.aborted === true) done(undefined);
      options.signal?.addEventListener("abort", () => done(undefined), { once: true });
    });
  }

  closed = false;

  /** The broker version the connect answer names. */
  brokerVersion = "0.0.0";

  /** What the server calls at start-up to ensure the broker. */
  async connect(): Promise<{
    protocol: string;
    version: number;
    role: string;
    brokerPid: number;
    brokerVersion: string;
    store: string;
  }> {
    this.calls.push("connect");
    return {
      protocol: "orphus-roundtable",
      version: 2,
      role: this.role,
      brokerPid: 4242,
      brokerVersion: this.brokerVersion,
      store: "memory",
    };
  }

  close(): void {
    this.closed = true;
  }

  readonly #lossListeners = new Set<(reason: string) => void>();

  /** What the server watches to say "broker lost" on stderr. */
  onConnectionLost(listener: (reason: string) => void): () => void {
    this.#lossListeners.add(listener);
    return () => this.#lossListeners.delete(listener);
  }

  /** Plays the broker going away. */
  loseConnection(reason: string): void {
    for (const listener of this.#lossListeners) listener(reason);
  }

  /** Waits currently blocked. */
  get waiting(): number {
    return this.#waiters.size;
  }
}
