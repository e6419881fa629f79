// The demo's accounting, apart from its processes: what reached each role's context by kind, set against what the
// room holds and against what the others wrote (a role's own posts are nothing it was spared), what was pulled
// unasked (pings, digests) apart from what was fetched on purpose, and each digest against its bound (the budget
// plus one marker line).
import { MARKER_PREFIX } from "@orphus/digest";
import type { ContextEntry } from "./shared.js";

/** Count and characters of one kind of context entry. */
export interface Tally {
  readonly count: number;
  readonly chars: number;
}

/** A message as the accounting reads it: who wrote it, and its body. */
export interface Posted {
  readonly role: string;
  readonly body: string;
}

/** What reached one role's context, and what the room held for it. */
export interface RoleIntake {
  readonly role: string;
  readonly byKind: Readonly<Record<ContextEntry["kind"], Tally>>;
  /** Pings and digests: what reaches the context whatever the room holds, without asking for any message. */
  readonly unasked: Tally;
  /** Characters of everything that entered the context. */
  readonly total: number;
  /** Characters of every post in the room. */
  readonly roomChars: number;
  /** Characters of the role's own posts: it wrote them, so no share of them was spared it. */
  readonly ownChars: number;
  /** total / roomChars. */
  readonly shareOfRoom: number;
  /** total / (roomChars - ownChars): the share of what the others wrote. */
  readonly shareOfOthers: number;
  /** unasked / (roomChars - ownChars). */
  readonly unaskedOfOthers: number;
  /** Fetched characters / (roomChars - ownChars): what the role asked for, message by message. */
  readonly fetchedOfOthers: number;
}

const KINDS: readonly ContextEntry["kind"][] = ["ping", "digest", "fetch", "memory", "reply"];

/** Sums one role's context by kind and sets it against the room, with and without the role's own posts. */
export function intakeOf(role: string, context: readonly ContextEntry[], script: readonly Posted[]): RoleIntake {
  const byKind = Object.fromEntries(
    KINDS.map((kind) => {
      const entries = context.filter((entry) => entry.kind === kind);
      return [kind, { count: entries.length, chars: entries.reduce((sum, entry) => sum + entry.text.length, 0) }];
    }),
  ) as Record<ContextEntry["kind"], Tally>;
  const total = KINDS.reduce((sum, kind) => sum + byKind[kind].chars, 0);
  const roomChars = script.reduce((sum, turn) => sum + turn.body.length, 0);
  const ownChars = script.filter((turn) => turn.role === role).reduce((sum, turn) => sum + turn.body.length, 0);
  const others = Math.max(1, roomChars - ownChars);
  const unasked = { count: byKind.ping.count + byKind.digest.count, chars: byKind.ping.chars + byKind.digest.chars };
  return {
    role,
    byKind,
    unasked,
    total,
    roomChars,
    ownChars,
    shareOfRoom: total / roomChars,
    shareOfOthers: total / others,
    unaskedOfOthers: unasked.chars / others,
    fetchedOfOthers: byKind.fetch.chars / others,
  };
}

/** A digest's text measured against its bound: characters within the budget, and its marker line. */
export interface DigestMeasure {
  /** Characters of the digest without its marker line (and that line's line break). */
  readonly budgeted: number;
  /** Characters of its marker line, 0 when it has none. */
  readonly marker: number;
  /** Marker lines found: at most one in any digest. */
  readonly markers: number;
}

/** Splits a digest into the part its budget bounds and its marker line. */
export function measureDigest(text: string): DigestMeasure {
  const lines = text.split("\n");
  const markerLines = lines.filter((line) => line.startsWith(MARKER_PREFIX));
  const budgeted = lines.filter((line) => !line.startsWith(MARKER_PREFIX)).join("\n").length;
  return { budgeted, marker: markerLines.reduce((sum, line) => sum + line.length, 0), markers: markerLines.length };
}

/** Whether a digest keeps its bound: at most `budget` characters plus one marker line. */
export function withinBound(measure: DigestMeasure, budget: number): boolean {
  return measure.budgeted <= budget && measure.markers <= 1;
}

/** `1,234`. */
export function n(value: number): string {
  return value.toLocaleString("en-US");
}

/** `12.3%`. */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** Rows of cells as aligned lines: the first `left` columns padded on the right, the others on the left. */
function grid(rows: readonly (readonly string[])[], left: number): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i < left ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

/**
 * The rows of the context table: a header, then one row per role. After the characters by kind, four shares: pulled
 * unasked and fetched on purpose, each of what the others wrote, then everything in context of that and of the room.
 */
export function contextTable(intakes: readonly RoleIntake[]): string[] {
  const tally = (t: Tally): string => (t.count === 0 ? "—" : `${t.count} = ${n(t.chars)}`);
  const header = ["role", "pings", "digests", "fetches", "memory", "replies", "in context", "others wrote"];
  header.push("pulled unasked", "fetched", "of others'", "of the room");
  const rows = intakes.map((intake) => [
    intake.role,
    tally(intake.byKind.ping),
    tally(intake.byKind.digest),
    tally(intake.byKind.fetch),
    tally(intake.byKind.memory),
    tally(intake.byKind.reply),
    n(intake.total),
    n(intake.roomChars - intake.ownChars),
    percent(intake.unaskedOfOthers),
    intake.byKind.fetch.count === 0 ? "—" : percent(intake.fetchedOfOthers),
    percent(intake.shareOfOthers),
    percent(intake.shareOfRoom),
  ]);
  return grid([header, ...rows], 1);
}

/** One size of the deliberation: its multiple, the messages posted, and what reached each role. */
export interface SizeIntake {
  readonly factor: number;
  readonly posts: readonly Posted[];
  readonly intakes: readonly RoleIntake[];
}

/**
 * The rows of the table of sizes: a header of multiples, the room's characters and posts at each, then two rows per
 * role, pulled unasked and fetched on purpose, each as characters and their share of what the others wrote.
 */
export function sizeTable(sizes: readonly SizeIntake[]): string[] {
  const share = (chars: number, of: number): string => (chars === 0 ? "—" : `${n(chars)} = ${percent(of)}`);
  const rows: string[][] = [
    ["", "", ...sizes.map((size) => `${size.factor}×`)],
    ["room", "characters", ...sizes.map((size) => n(size.posts.reduce((sum, post) => sum + post.body.length, 0)))],
    ["", "posts", ...sizes.map((size) => n(size.posts.length))],
  ];
  const roles = sizes[0]?.intakes.map((intake) => intake.role) ?? [];
  for (const role of roles) {
    const of = sizes.map((size) => size.intakes.find((intake) => intake.role === role));
    rows.push([
      role,
      "pulled unasked",
      ...of.map((i) => (i === undefined ? "?" : share(i.unasked.chars, i.unaskedOfOthers))),
    ]);
    rows.push([
      "",
      "fetched",
      ...of.map((i) => (i === undefined ? "?" : share(i.byKind.fetch.chars, i.fetchedOfOthers))),
    ]);
  }
  return grid(rows, 2);
}
