// What one member of a loaded room read, message by message, and the checks that every digest keeps its bound and
// accounts for every message it covers. Used inside the driver processes (bundled) and by the test that audits them.
import type { RoundtableClient } from "@orphus/roundtable-client";

/** Longest marker line a digest may carry (@orphus/digest MAX_MARKER_LENGTH). */
export const MAX_MARKER_CHARS = 235;

/**
 * How a message reached the member: in full, as an excerpt (its opening) or as a headline in a digest, or fetched
 * after a digest collapsed it.
 */
export type Via = "full" | "excerpt" | "headline" | "fetched";

/** One member's record of a load run. Seq ranges are inclusive. */
export interface Ledger {
  readonly role: string;
  readonly room: string;
  readonly budget: number;
  readonly capacity: number;
  /** Newest seq accounted for so far. */
  through: number;
  /** [post index, seq the broker acknowledged]. */
  readonly acks: [number, number][];
  /** [seq, author, post index, how]: every message the member read. */
  readonly reads: [number, string, number, Via][];
  /** [from, to, newest seq of the room when it was reported]: messages reported evicted before they were read. */
  readonly evicted: [number, number, number][];
  /** [from, to]: seqs the cursor skipped because they were the member's own posts, counted read on posting. */
  readonly gaps: [number, number][];
  digests: number;
  fetches: number;
  maxDigestChars: number;
  /** Most characters outside the marker line in any digest: the bound says at most `budget`. */
  maxBudgetedChars: number;
  /** Anything that broke a rule, said in words; empty in a good run. */
  readonly problems: string[];
}

/** The body of post `index` by `role`: varied lengths, some multi-line, always starting `<role>:<index> `. */
export function bodyOf(role: string, index: number): string {
  const filler = "lorem ipsum dolor sit amet ".repeat(16).slice(0, 20 + ((index * 97) % 400));
  return index % 7 === 0 ? `${role}:${index} ${filler}\nsecond line\n\nthird paragraph` : `${role}:${index} ${filler}`;
}

/** `[author, index]` from a text that starts with `<author>:<index>`. */
export function parseAuthorIndex(text: string): [string, number] | undefined {
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]*):(\d+)\b/.exec(text);
  return match === null ? undefined : [match[1] as string, Number(match[2])];
}

const HEADER = /^\[#(\d+) ([^\],]+)(, headline|, excerpt)?\] (.*)$/;
const EVICTED = /(\d+) messages? evicted before you read them \(#(\d+)(?:–#(\d+))?\)/;
const COLLAPSED = /(\d+) messages? collapsed \(#(\d+)(?:–#(\d+))?\), fetch afterSeq=(\d+)/;

/** A `(#a–#b)` range of the marker as [from, to, count]; undefined when the marker names none. */
function range(match: RegExpExecArray | null): [number, number, number] | undefined {
  if (match === null) return undefined;
  const from = Number(match[2]);
  return [from, match[3] === undefined ? from : Number(match[3]), Number(match[1])];
}

/**
 * Takes one digest of the member's room, checks its bound and its accounting, records what it showed, and fetches
 * (in pages cut exactly at the collapsed range, so the read cursor never skips ahead) what it collapsed.
 */
export async function accountDigest(client: RoundtableClient, ledger: Ledger): Promise<void> {
  const { room, budget } = ledger;
  const digest = await client.digest(room, { budget });
  ledger.digests++;
  const problem = (text: string): void => void ledger.problems.push(`digest #${ledger.digests}: ${text}`);
  if (digest.throughSeq <= ledger.through) {
    if (digest.text !== "")
      problem(`nothing new past #${ledger.through}, yet text ${JSON.stringify(digest.text.slice(0, 80))}`);
    return;
  }
  const lines = digest.text.split("\n");
  const marker = lines[0]?.startsWith("[digest] ") === true ? lines[0] : undefined;
  const budgeted = marker === undefined ? digest.text.length : Math.max(0, digest.text.length - marker.length - 1);
  ledger.maxDigestChars = Math.max(ledger.maxDigestChars, digest.text.length);
  ledger.maxBudgetedChars = Math.max(ledger.maxBudgetedChars, budgeted);
  if (budgeted > budget) problem(`${budgeted} characters outside the marker, past the budget of ${budget}`);
  if (marker !== undefined && marker.length > MAX_MARKER_CHARS) problem(`marker of ${marker.length} characters`);

  const count = digest.full + digest.excerpted + digest.headlined + digest.collapsed + digest.evicted;
  const first = digest.throughSeq - count + 1;
  // Seqs between the last digest and this one's first were the member's own posts, read on posting.
  if (first - 1 > ledger.through) ledger.gaps.push([ledger.through + 1, first - 1]);
  if (first - 1 < ledger.through)
    problem(`covers #${first}..#${digest.throughSeq}, overlapping what was read through #${ledger.through}`);

  const covered: number[] = [];
  let shown = 0;
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header === null) continue;
    shown++;
    const seq = Number(header[1]);
    const author = header[2] as string;
    const parsed = parseAuthorIndex(header[4] as string);
    if (parsed === undefined || parsed[0] !== author)
      problem(`#${seq} by ${author} reads ${JSON.stringify(header[4]?.slice(0, 40))}`);
    else
      ledger.reads.push([
        seq,
        author,
        parsed[1],
        header[3] === undefined ? "full" : header[3] === ", excerpt" ? "excerpt" : "headline",
      ]);
    covered.push(seq);
  }
  const said = digest.full + digest.excerpted + digest.headlined;
  if (shown !== said) problem(`${shown} items shown, the result says ${said} (full, excerpts, headlines)`);

  const evicted = range(EVICTED.exec(marker ?? ""));
  if ((evicted?.[2] ?? 0) !== digest.evicted)
    problem(`marker says ${evicted?.[2] ?? 0} evicted, the result ${digest.evicted}`);
  if (evicted !== undefined) {
    ledger.evicted.push([evicted[0], evicted[1], digest.throughSeq]);
    for (let seq = evicted[0]; seq <= evicted[1]; seq++) covered.push(seq);
  }

  const collapsedMatch = COLLAPSED.exec(marker ?? "");
  const collapsed = range(collapsedMatch);
  if ((collapsed?.[2] ?? 0) !== digest.collapsed)
    problem(`marker says ${collapsed?.[2] ?? 0} collapsed, the result ${digest.collapsed}`);
  if (collapsed !== undefined) {
    const [from, to] = collapsed;
    if (digest.fetchAfterSeq !== from - 1 || Number(collapsedMatch?.[4]) !== from - 1) {
      problem(`collapsed #${from}..#${to} but fetchAfterSeq is ${digest.fetchAfterSeq}`);
    }
    let after = from - 1;
    // The collapsed range can hold messages the digest showed (one that fit between others that did not): those
    // are read already.
    const shownSeqs = new Set(covered);
    // Each page advances `after` or ends the loop, so this runs at most (to - from + 1) times.
    while (after < to) {
      const page = await client.fetch(room, { afterSeq: after, limit: Math.min(200, to - after) });
      ledger.fetches++;
      const before = after;
      if (page.evicted !== undefined) {
        const lost = Math.min(page.evicted.toSeq, to);
        ledger.evicted.push([page.evicted.fromSeq, lost, page.newestSeq]);
        for (let seq = page.evicted.fromSeq; seq <= lost; seq++) covered.push(seq);
        after = Math.max(after, lost);
      }
      for (const message of page.messages) {
        if (message.seq > to) break;
        if (shownSeqs.has(message.seq)) {
          after = message.seq;
          continue;
        }
        const parsed = parseAuthorIndex(message.body);
        if (parsed === undefined || parsed[0] !== message.author)
          problem(`fetched #${message.seq} reads ${JSON.stringify(message.body.slice(0, 40))}`);
        else ledger.reads.push([message.seq, message.author, parsed[1], "fetched"]);
        covered.push(message.seq);
        after = message.seq;
      }
      if (after === before) {
        problem(`fetch after #${after} returned nothing of #${after + 1}..#${to}`);
        break;
      }
    }
  }

  covered.sort((a, b) => a - b);
  const expected = Array.from({ length: count }, (_, i) => first + i);
  if (covered.join() !== expected.join()) {
    problem(`accounted for ${covered.length} seqs, expected #${first}..#${digest.throughSeq} each once`);
  }
  ledger.through = digest.throughSeq;
}
