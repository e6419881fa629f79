import { MAX_PING_AUTHORS, MAX_PING_ROOMS, type ActivityNotice, type RoomActivity } from "@orphus/roundtable-client";

interface RoomTally {
  count: number;
  authors: string[];
  otherAuthors: number;
  /** The newest seq counted; undefined once a notice without one is folded in (it could hold newer posts). */
  throughSeq: number | undefined;
}

/**
 * Folds two activity notices into one, within the coalescer's limits: per room the counts add up and the named
 * authors are kept in order of first mention (the older notice's most active first), the rest counted; rooms past
 * MAX_PING_ROOMS (by name) are counted in `otherMessages`. Counts stay exact. An author left unnamed in both notices
 * is counted twice, so `otherAuthors` is an upper bound; it only arises past MAX_PING_AUTHORS authors in one room.
 * Used when a session was busy across more than one notice, so it still gets one line.
 */
export function mergeActivityNotices(older: ActivityNotice, newer: ActivityNotice): ActivityNotice {
  const tallies = new Map<string, RoomTally>();
  for (const notice of [older, newer]) {
    for (const room of notice.rooms) {
      let tally = tallies.get(room.room);
      if (tally === undefined) {
        tally = { count: 0, authors: [], otherAuthors: 0, throughSeq: room.throughSeq };
        tallies.set(room.room, tally);
      }
      tally.count += room.count;
      tally.otherAuthors += room.otherAuthors;
      const known = tally.throughSeq !== undefined && room.throughSeq !== undefined;
      tally.throughSeq = known ? Math.max(tally.throughSeq as number, room.throughSeq as number) : undefined;
      for (const author of room.authors) if (!tally.authors.includes(author)) tally.authors.push(author);
    }
  }
  const named = [...tallies].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const rooms = named.slice(0, MAX_PING_ROOMS).map(([room, tally]): RoomActivity => {
    const authors = tally.authors.slice(0, MAX_PING_AUTHORS);
    const otherAuthors = tally.otherAuthors + tally.authors.length - authors.length;
    const through = tally.throughSeq === undefined ? {} : { throughSeq: tally.throughSeq };
    return { room, count: tally.count, authors, otherAuthors, ...through };
  });
  const spilled = named.slice(MAX_PING_ROOMS).reduce((sum, [, tally]) => sum + tally.count, 0);
  return {
    rooms,
    otherMessages: older.otherMessages + newer.otherMessages + spilled,
    total: older.total + newer.total,
  };
}

/**
 * `notice` without the rooms whose posts were all reported another way meanwhile (a wait's answer: `reported(room)`
 * is the newest seq it covered), or undefined when nothing is left. A room of a notice that names no `throughSeq`
 * stays, and so does a room with posts past the report: those are news.
 */
export function withoutReported(
  notice: ActivityNotice,
  reported: (room: string) => number | undefined,
): ActivityNotice | undefined {
  const rooms = notice.rooms.filter((room) => {
    const mark = reported(room.room);
    return room.throughSeq === undefined || mark === undefined || room.throughSeq > mark;
  });
  if (rooms.length === notice.rooms.length) return notice;
  const total = rooms.reduce((sum, room) => sum + room.count, notice.otherMessages);
  return total === 0 ? undefined : { rooms, otherMessages: notice.otherMessages, total };
}
