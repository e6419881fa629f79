// What the viewer knows of the broker, kept from one snapshot and the events after it, bounded per room: the page's
// model, sent whole to a tab that connects and as events afterwards.
import {
  VIEWER_MAX_CHART_POINTS,
  VIEWER_MAX_POSTS_PER_ROOM,
  VIEWER_MAX_ROOMS,
  VIEWER_MAX_TEXT_CHARS,
} from "./limits.js";
import type { ServedCounts, WatchEvent, WatchPost, WatchRoom, WatchSnapshot } from "./watch-types.js";

/** One point of a room's chart: a role's served total, or (role null) what the room holds, at a time in ms. */
export interface ChartPoint {
  readonly at: number;
  readonly role: string | null;
  readonly chars: number;
}

/** One room as the page shows it. */
export interface ViewRoom {
  room: string;
  lastSeq: number;
  held: { messages: number; chars: number };
  members: { role: string; unread: number }[];
  served: ServedCounts[];
  posts: WatchPost[];
  chart: ChartPoint[];
}

/** The whole view, as a tab receives it first. */
export interface ViewState {
  broker: WatchSnapshot["broker"];
  rooms: ViewRoom[];
  /** Rooms of the snapshot left out past VIEWER_MAX_ROOMS. */
  roomsLeftOut: number;
  /** Whether a member may post from the page, and as whom. */
  postAs: string | null;
  /** Set once the broker watch closed: the view is what it was then. */
  closed: string | null;
}

/** A text cut to VIEWER_MAX_TEXT_CHARS. */
export function cut(text: string, max = VIEWER_MAX_TEXT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function boundedPost(post: WatchPost): WatchPost {
  return { seq: post.seq, author: cut(post.author), at: post.at, headline: cut(post.headline), chars: post.chars };
}

function servedTotal(counts: ServedCounts): number {
  return counts.digestChars + counts.fetchChars + counts.pingChars;
}

function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

/** The view, updated from the watch. Each apply returns the event to send every tab, or undefined for none. */
export class ViewModel {
  #state: ViewState;
  readonly #rooms = new Map<string, ViewRoom>();
  readonly #now: () => number;

  constructor(snapshot: WatchSnapshot, postAs: string | null, now: () => number) {
    this.#now = now;
    this.#state = { broker: snapshot.broker, rooms: [], roomsLeftOut: 0, postAs, closed: null };
    this.load(snapshot);
  }

  /** Replaces the view with a snapshot (the first one, or one taken again after a gap or a reset). */
  load(snapshot: WatchSnapshot): void {
    const at = this.#now();
    this.#rooms.clear();
    for (const room of snapshot.rooms.slice(0, VIEWER_MAX_ROOMS)) this.#rooms.set(room.room, this.#roomOf(room, at));
    this.#state = {
      ...this.#state,
      broker: snapshot.broker,
      rooms: [...this.#rooms.values()],
      roomsLeftOut: Math.max(0, snapshot.rooms.length - VIEWER_MAX_ROOMS),
    };
  }

  #roomOf(room: WatchRoom, at: number): ViewRoom {
    const chart: ChartPoint[] = [{ at, role: null, chars: room.held.chars }];
    for (const served of room.served) chart.push({ at, role: cut(served.role), chars: servedTotal(served) });
    return {
      room: room.room,
      lastSeq: room.lastSeq,
      held: { ...room.held },
      members: room.members.map((m) => ({ role: cut(m.role), unread: m.unread })),
      served: room.served.map((s) => ({ ...s, role: cut(s.role) })),
      posts: room.recent.slice(-VIEWER_MAX_POSTS_PER_ROOM).map(boundedPost),
      chart: chart.slice(-VIEWER_MAX_CHART_POINTS),
    };
  }

  /** The whole view now. */
  get state(): ViewState {
    return this.#state;
  }

  /** Marks the view closed (the watch ended), with the reason shown. */
  close(reason: string): void {
    this.#state = { ...this.#state, closed: cut(reason) };
  }

  #room(name: string): ViewRoom | undefined {
    const known = this.#rooms.get(name);
    if (known !== undefined || this.#rooms.size >= VIEWER_MAX_ROOMS) return known;
    const room: ViewRoom = {
      room: name,
      lastSeq: 0,
      held: { messages: 0, chars: 0 },
      members: [],
      served: [],
      posts: [],
      chart: [],
    };
    this.#rooms.set(name, room);
    this.#state = { ...this.#state, rooms: [...this.#rooms.values()] };
    return room;
  }

  /**
   * Applies one watch event; returns what the tabs are sent (the bounded form of the event), undefined when the
   * event needs a snapshot taken again (gap, reset) or concerns a room left out.
   */
  apply(event: WatchEvent): ViewEvent | undefined {
    if (event.kind === "gap" || event.kind === "reset") return undefined;
    const room = this.#room(event.room);
    if (room === undefined) return undefined;
    switch (event.kind) {
      case "post": {
        const post = boundedPost(event);
        pushBounded(room.posts, post, VIEWER_MAX_POSTS_PER_ROOM);
        room.lastSeq = Math.max(room.lastSeq, post.seq);
        return { kind: "post", room: room.room, post };
      }
      case "members": {
        room.members = event.members.map((m) => ({ role: cut(m.role), unread: m.unread }));
        return { kind: "members", room: room.room, members: room.members };
      }
      case "served": {
        const served: ServedCounts = {
          role: cut(event.role),
          digestChars: event.digestChars,
          fetchChars: event.fetchChars,
          pingChars: event.pingChars,
        };
        const index = room.served.findIndex((s) => s.role === served.role);
        if (index === -1) room.served.push(served);
        else room.served[index] = served;
        const point: ChartPoint = { at: timeOf(event.at, this.#now), role: served.role, chars: servedTotal(served) };
        pushBounded(room.chart, point, VIEWER_MAX_CHART_POINTS);
        return { kind: "served", room: room.room, served, point };
      }
      case "room": {
        room.held = { ...event.held };
        room.lastSeq = Math.max(room.lastSeq, event.lastSeq);
        const point: ChartPoint = { at: this.#now(), role: null, chars: event.held.chars };
        pushBounded(room.chart, point, VIEWER_MAX_CHART_POINTS);
        return { kind: "room", room: room.room, held: room.held, lastSeq: room.lastSeq, point };
      }
    }
  }
}

function timeOf(iso: string, now: () => number): number {
  const at = Date.parse(iso);
  return Number.isFinite(at) ? at : now();
}

/** An event as a tab receives it, after the view applied it. */
export type ViewEvent =
  | { kind: "post"; room: string; post: WatchPost }
  | { kind: "members"; room: string; members: { role: string; unread: number }[] }
  | { kind: "served"; room: string; served: ServedCounts; point: ChartPoint }
  | { kind: "room"; room: string; held: { messages: number; chars: number }; lastSeq: number; point: ChartPoint };
