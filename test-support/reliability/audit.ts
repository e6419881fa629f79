// The audit of a load run, shared by every load scenario (one broker in memory, two brokers on Redis): per room, the
// acknowledged seqs are exactly 1..N, and each member accounts for every message of its room exactly once, as read
// (with the right author and post), its own, or reported evicted once it had truly left the ring.
import { expect } from "vitest";
import type { Ledger } from "./ledger.js";

/** What the audit counted over every member. */
export interface LoadAudit {
  readonly read: number;
  readonly fetched: number;
  readonly own: number;
  readonly evicted: number;
}

/** Audits the members' ledgers room by room; `perRoom` messages each, a ring of `ring`, digests within `budget`. */
export function auditLoad(
  results: readonly Ledger[],
  rooms: readonly string[],
  perRoom: number,
  ring: number,
  budget: number,
): LoadAudit {
  let read = 0;
  let fetched = 0;
  let evicted = 0;
  let own = 0;
  for (const room of rooms) {
    const members = results.filter((r) => r.room === room);
    const seqs = members.flatMap((m) => m.acks.map(([, seq]) => seq)).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: perRoom }, (_, i) => i + 1));
    const author = new Map<number, string>();
    for (const member of members) {
      expect(member.acks.map(([index]) => index)).toEqual(Array.from({ length: member.acks.length }, (_, i) => i + 1));
      for (const [index, seq] of member.acks) author.set(seq, `${member.role}:${index}`);
    }
    for (const member of members) {
      expect(member.problems).toEqual([]);
      expect(member.maxBudgetedChars).toBeLessThanOrEqual(budget);
      const seen = new Map<number, string>();
      const mark = (seq: number, how: string): void => {
        expect(seen.get(seq), `${member.role}: #${seq} accounted for twice`).toBeUndefined();
        seen.set(seq, how);
      };
      for (const [seq, role, index, via] of member.reads) {
        expect(`${role}:${index}`).toBe(author.get(seq));
        mark(seq, via);
        read++;
        if (via === "fetched") fetched++;
      }
      const mine = new Set(member.acks.map(([, seq]) => seq));
      for (const [from, to] of member.gaps) {
        for (let seq = from; seq <= to; seq++) {
          expect(mine.has(seq), `${member.role}: #${seq} skipped but not its own`).toBe(true);
          mark(seq, "own");
          own++;
        }
      }
      for (const [from, to, newest] of member.evicted) {
        // Reported evicted only when truly out of the ring window at that moment.
        expect(to).toBeLessThanOrEqual(newest - ring);
        for (let seq = from; seq <= to; seq++) {
          mark(seq, "evicted");
          evicted++;
        }
      }
      expect(seen.size).toBe(perRoom);
    }
  }
  return { read, fetched, own, evicted };
}
