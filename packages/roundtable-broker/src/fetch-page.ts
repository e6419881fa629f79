import type { RoomMessage } from "@orphus/rooms";
import {
  DEFAULT_FETCH_CHARS,
  MAX_FETCH_CHARS,
  fetchCapTooLargeMessage,
  fetchMessageChars,
  type FetchedMessage,
} from "@orphus/roundtable-protocol";
import { RefusalError } from "./errors.js";

/** Where a fetch page stops besides its message limit. */
export interface FetchPageCaps {
  /** Characters of message text, counted by `fetchMessageChars`. */
  readonly maxChars: number;
  /** Bytes of the messages' JSON: keeps the reply inside one frame whatever the characters encode to. */
  readonly maxBytes: number;
}

/** The largest character cap a broker serves: its byte limit, since every character takes at least one byte. */
export function largestFetchChars(maxFetchBytes: number): number {
  return Math.min(MAX_FETCH_CHARS, maxFetchBytes);
}

/**
 * The cap a fetch is cut at: the request's, else the protocol default (lowered to what the broker serves). Throws
 * a RefusalError (ERR_INVALID_REQUEST, naming the largest it serves) for a cap above the broker's reply limit.
 */
export function fetchCharCap(requested: number | undefined, maxFetchBytes: number): number {
  const largest = largestFetchChars(maxFetchBytes);
  if (requested === undefined) return Math.min(DEFAULT_FETCH_CHARS, largest);
  if (requested <= largest) return requested;
  throw new RefusalError({
    code: "ERR_INVALID_REQUEST",
    message: fetchCapTooLargeMessage(requested, largest),
    details: { maxChars: requested, maxFetchChars: largest },
  });
}

function toFetched(message: RoomMessage): FetchedMessage {
  const { seq, author, body, postedAt } = message;
  return message.headline === undefined
    ? { seq, author, body, postedAt }
    : { seq, author, body, headline: message.headline, postedAt };
}

/**
 * The longest run of `messages` (oldest first, already cut at the request's limit) within both caps, and never
 * fewer than one: the first message goes whole whatever its size, because reading it in full is what fetch is for.
 */
export function cutFetchPage(messages: readonly RoomMessage[], caps: FetchPageCaps): FetchedMessage[] {
  const page: FetchedMessage[] = [];
  let chars = 0;
  let bytes = 0;
  for (const message of messages) {
    const fetched = toFetched(message);
    const messageChars = fetchMessageChars(fetched);
    if (page.length > 0 && chars + messageChars > caps.maxChars) break;
    const messageBytes = Buffer.byteLength(JSON.stringify(fetched), "utf8");
    if (page.length > 0 && bytes + messageBytes > caps.maxBytes) break;
    page.push(fetched);
    chars += messageChars;
    bytes += messageBytes;
  }
  return page;
}
