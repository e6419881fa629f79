import { checkRoomName } from "./checks.js";
import { RoomLimitError } from "./errors.js";
import { DEFAULT_MAX_ROOMS } from "./limits.js";
import { integerOption, resolveRoomOptions, roomNamePatternOption, type RoomOptions } from "./options.js";
import { Room, type ConnectionId, type RoomSummary } from "./room.js";

/** Options of a registry: its own limits, plus the options every room it creates gets. */
export interface RoomRegistryOptions extends RoomOptions {
  /** Rooms held at once; default {@link DEFAULT_MAX_ROOMS}. */
  readonly maxRooms?: number;
  /** Syntax a room name must match; default {@link DEFAULT_ROOM_NAME_PATTERN}. Flags `g` and `y` are ignored. */
  readonly roomNamePattern?: RegExp;
}

/** A role that left a room for good because its last connection was dropped. */
export interface RoomDeparture {
  readonly room: string;
  readonly role: string;
}

/**
 * The broker's rooms by name. Rooms are created on first use and never removed: a room recreated under the same
 * name would restart its sequence numbers, and readers holding an `afterSeq` would silently skip or repeat.
 */
export class RoomRegistry {
  readonly maxRooms: number;
  readonly roomNamePattern: RegExp;
  readonly #roomOptions: RoomOptions;
  readonly #rooms = new Map<string, Room>();

  /** Checks every option now, so a bad one fails at start-up rather than at the first room. */
  constructor(options?: RoomRegistryOptions) {
    this.maxRooms = integerOption("maxRooms", options?.maxRooms, DEFAULT_MAX_ROOMS, 1);
    this.roomNamePattern = roomNamePatternOption(options?.roomNamePattern);
    this.#roomOptions = resolveRoomOptions(options);
  }

  /** Rooms held. */
  get size(): number {
    return this.#rooms.size;
  }

  /** Whether `name` is a valid room name under this registry's pattern. */
  isValidName(name: string): boolean {
    return typeof name === "string" && this.roomNamePattern.test(name);
  }

  /** The room called `name`, created empty if new. Throws RoomNameInvalidError, or RoomLimitError when full. */
  getOrCreate(name: string): Room {
    const existing = this.#rooms.get(name);
    if (existing !== undefined) return existing;
    checkRoomName(name, this.roomNamePattern);
    if (this.#rooms.size >= this.maxRooms) throw new RoomLimitError(name, this.maxRooms);
    const room = new Room(name, this.#roomOptions);
    this.#rooms.set(name, room);
    return room;
  }

  /** The room called `name`, or undefined; never creates one. */
  get(name: string): Room | undefined {
    return this.#rooms.get(name);
  }

  /** A summary of every room, sorted by name. */
  list(): RoomSummary[] {
    return [...this.#rooms.values()].map((room) => room.summary()).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** Drops `connectionId` from every room it joined; returns each role that thereby left a room for good. */
  dropConnection(connectionId: ConnectionId): RoomDeparture[] {
    const departures: RoomDeparture[] = [];
    for (const room of this.#rooms.values()) {
      for (const role of room.dropConnection(connectionId)) departures.push({ room: room.name, role });
    }
    return departures;
  }
}
