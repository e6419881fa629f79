// The demo's deliberation at sizes its role processes would take minutes to play: every body grown to 10× and 100×
// its length with generated delivery-log lines (the evidence agents paste into rooms), posted in parts where it
// passes the broker's body limit, as an agent splits a long paste. One process seats the four roles, each through a
// client of its own and the shared roundtable tool, on a broker the first of them starts (in a directory of its own,
// so nothing of it reaches the run above), and plays the same turns: a digest within the same budget before each, the
// same fetches (one message whole), pings at the same quiet periods. It takes none of the pauses: a quiet period is
// the moment every seat has heard everything posted, and its ping goes out by flush, as the window's timer would send
// it. The memory steps are left out; the run above shows them.
import { DEFAULT_MAX_BODY_BYTES } from "@orphus/rooms";
import { DEMO_ROLES, DEMO_ROOM, deliveryLog, type Turn } from "./script.js";
import { Seat } from "./seat.js";
import type { ContextEntry } from "./shared.js";

/** The sizes the demo plays its deliberation at, as multiples of its bodies' length. */
export const DEMO_SIZES: readonly number[] = [1, 10, 100];

/** A ping window longer than any run: pings go out at the script's quiet periods, by flush. */
const HELD_PING_WINDOW_MS = 3_600_000;

/** One message of a grown deliberation: a turn's body, or one part of it. */
export interface GrownPost {
  readonly role: string;
  readonly headline: string;
  readonly body: string;
  /** The turn of the script it belongs to (its index). */
  readonly turn: number;
}

/** `body` grown to `factor` times its length (cut there): the body, then generated log lines it rests on. */
export function grownBody(body: string, factor: number, seed: number): string {
  if (factor <= 1) return body;
  const length = body.length * factor;
  // Every log line is longer than 100 characters, so this many always reach the length.
  const log = deliveryLog(Math.ceil(length / 100), seed);
  return `${body}\n\nThe delivery log this rests on:\n${log}`.slice(0, length);
}

/** `body` in parts of at most `maxBytes` UTF-8 bytes each, cut at line ends (the line break between two parts dropped). */
export function splitBody(body: string, maxBytes: number): string[] {
  const parts: string[] = [];
  let lines: string[] = [];
  let bytes = -1;
  for (const line of body.split("\n")) {
    const size = Buffer.byteLength(line) + 1;
    if (size - 1 > maxBytes) throw new Error(`a line of ${size - 1} bytes cannot go in a post of at most ${maxBytes}`);
    if (lines.length > 0 && bytes + size > maxBytes) {
      parts.push(lines.join("\n"));
      lines = [];
      bytes = -1;
    }
    lines.push(line);
    bytes += size;
  }
  parts.push(lines.join("\n"));
  return parts;
}

/** The posts of `script` with every body grown `factor` times, in parts within the broker's default body limit. */
export function grownPosts(script: readonly Turn[], factor: number, maxBytes = DEFAULT_MAX_BODY_BYTES): GrownPost[] {
  return script.flatMap(({ role, headline, body }, turn) => {
    const parts = splitBody(grownBody(body, factor, turn + 1), maxBytes);
    return parts.map((part, i) => ({
      role,
      headline: parts.length === 1 ? headline : `${headline} (${i + 1}/${parts.length})`,
      body: part,
      turn,
    }));
  });
}

/** One size played: its posts and what entered each role's context. */
export interface GrownRun {
  readonly factor: number;
  readonly room: string;
  readonly posts: readonly GrownPost[];
  readonly contexts: readonly { readonly role: string; readonly context: readonly ContextEntry[] }[];
  /** The broker the seats talked to. */
  readonly brokerPid: number | undefined;
}

/** Plays `script` grown `factor` times in a room of its own, on the broker of `agentDir` (started when none runs). */
export async function playGrown(script: readonly Turn[], factor: number, agentDir: string): Promise<GrownRun> {
  const room = `${DEMO_ROOM}-x${factor}`;
  const posts = grownPosts(script, factor);
  const seats = DEMO_ROLES.map(
    (role) => new Seat(role, room, { agentDir, store: "memory", pingWindowMs: HELD_PING_WINDOW_MS }),
  );
  const seatOf = (role: string): Seat => seats.find((seat) => seat.role === role) as Seat;
  /** The seq of each turn's first part, as the broker gave it. */
  const firstSeq: number[] = [];
  const quiet = async (seq: number): Promise<void> => {
    for (const seat of seats) {
      await seat.untilSeq(seq);
      seat.client.flushActivity();
    }
  };
  try {
    for (const seat of seats) await seat.use({ action: "join" }, "reply");
    let newest = 0;
    for (const [turn, { role, pauseBefore, fetchBefore }] of script.entries()) {
      const seat = seatOf(role);
      if (pauseBefore === true) await quiet(newest);
      await seat.digest();
      if (fetchBefore !== undefined) await seat.fetchWhole(firstSeq[fetchBefore - 1] ?? 0);
      for (const post of posts) {
        if (post.turn !== turn) continue;
        const reply = await seat.use({ action: "post", body: post.body, headline: post.headline }, "reply");
        newest = Number(/^Posted #(\d+) /.exec(reply)?.[1] ?? Number.NaN);
        if (!Number.isSafeInteger(newest)) throw new Error(`${role}: a post's reply names no seq: ${reply}`);
        firstSeq[turn] ??= newest;
        seat.heard(newest);
      }
    }
    // Everyone catches up on the conclusion, as each role process does before it leaves.
    await quiet(newest);
    for (const seat of seats) await seat.digest();
    return {
      factor,
      room,
      posts,
      contexts: seats.map(({ role, context }) => ({ role, context })),
      brokerPid: seats[0]?.client.broker?.brokerPid,
    };
  } finally {
    for (const seat of seats) seat.client.close();
  }
}

/** Plays `script` at each of `sizes`, one after another, on the broker of `agentDir`. */
export async function playSizes(
  script: readonly Turn[],
  sizes: readonly number[],
  agentDir: string,
): Promise<GrownRun[]> {
  const runs: GrownRun[] = [];
  for (const factor of sizes) runs.push(await playGrown(script, factor, agentDir));
  return runs;
}
