// Fetch pages are small in characters (issue 13): over raw frames, the default cap, a larger cap, a cap past the
// broker's reply limit, a version-1 peer, and paging to the end against a naive model.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { modelFetchPages } from "../../../test-support/fetch-pages-model.js";
import { RawPeer, hello, startTestBroker } from "./helpers.js";

interface Message {
  seq: number;
  author: string;
  body: string;
  headline?: string;
  postedAt: number;
}

interface Page {
  messages: Message[];
  more: boolean;
  nextAfterSeq: number;
  maxChars: number;
  newestSeq: number;
}

const KB32 = 32 * 1024;

function pageOf(reply: Record<string, unknown>): Page {
  if (reply["ok"] !== true) throw new Error(`expected a fetch result, got ${JSON.stringify(reply).slice(0, 300)}`);
  return reply["result"] as Page;
}

/** The characters a page counts: UTF-16 code units of body plus headline (stated here, not imported). */
function chars(message: { body: string; headline?: string | undefined }): number {
  return message.body.length + (message.headline?.length ?? 0);
}

async function roomWith(bodies: readonly string[], options: Parameters<typeof startTestBroker>[0] = {}) {
  const broker = await startTestBroker(options);
  const planner = await RawPeer.hello(broker.socketPath, "planner");
  const critic = await RawPeer.hello(broker.socketPath, "critic");
  await planner.request({ id: 2, op: "join", room: "r" });
  await critic.request({ id: 2, op: "join", room: "r" });
  let id = 100;
  for (const body of bodies) await planner.request({ id: id++, op: "post", room: "r", body });
  return { broker, planner, critic };
}

describe("the default cap", () => {
  test("ten 32 KB messages come one whole message a page, each page saying more and where to read on", async () => {
    const bodies = Array.from({ length: 10 }, (_, i) => String.fromCharCode(97 + i).repeat(KB32));
    const { critic } = await roomWith(bodies);
    let id = 10;
    const first = pageOf(await critic.request({ id: id++, op: "fetch", room: "r" }));
    expect(first.maxChars).toBe(8000);
    // 32,768 characters is over the cap, and still arrives whole: it is the first of its page.
    expect(first.messages.map((m) => [m.seq, m.body.length])).toEqual([[1, KB32]]);
    expect(first.messages[0]?.body).toBe(bodies[0]);
    expect(first).toMatchObject({ more: true, nextAfterSeq: 1, newestSeq: 10 });
    let after = first.nextAfterSeq;
    const seen = [1];
    for (;;) {
      const page = pageOf(await critic.request({ id: id++, op: "fetch", room: "r", afterSeq: after }));
      expect(page.messages).toHaveLength(1);
      seen.push(...page.messages.map((m) => m.seq));
      after = page.nextAfterSeq;
      if (!page.more) break;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(after).toBe(10);
  });

  test("small messages share a page up to 8,000 characters, and the first that would pass it waits", async () => {
    // 3,000 + 3,000 = 6,000 fit; a third would make 9,000. The headline counts too: 1,999 + 1 fits exactly.
    const { planner, critic } = await roomWith(["x".repeat(3000), "y".repeat(3000)]);
    await planner.request({ id: 50, op: "post", room: "r", body: "z".repeat(1999), headline: "h" });
    await planner.request({ id: 51, op: "post", room: "r", body: "w" });
    const first = pageOf(await critic.request({ id: 10, op: "fetch", room: "r", afterSeq: 0 }));
    expect(first.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(first.messages.reduce((sum, m) => sum + chars(m), 0)).toBe(8000);
    expect(first).toMatchObject({ more: true, nextAfterSeq: 3, maxChars: 8000 });
    const second = pageOf(await critic.request({ id: 11, op: "fetch", room: "r" }));
    expect(second.messages.map((m) => m.seq)).toEqual([4]);
    expect(second).toMatchObject({ more: false, nextAfterSeq: 4 });
  });

  test("characters are UTF-16 code units: an emoji counts two, an escaped control character one", async () => {
    // 4,000 emoji are 8,000 code units (16,000 UTF-8 bytes): exactly the cap, so a one-character message waits.
    const { critic } = await roomWith(["😀".repeat(4000), "\u0001"]);
    const first = pageOf(await critic.request({ id: 10, op: "fetch", room: "r", afterSeq: 0 }));
    expect(first.messages.map((m) => m.seq)).toEqual([1]);
    expect(first.more).toBe(true);
    const wider = pageOf(await critic.request({ id: 11, op: "fetch", room: "r", afterSeq: 0, maxChars: 8001 }));
    expect(wider.messages.map((m) => m.seq)).toEqual([1, 2]);
  });

  test("a version-1 peer is served: it names no cap, gets the default one, and pages on with more", async () => {
    const { broker, planner } = await roomWith(["a".repeat(5000), "b".repeat(5000)]);
    const old = new RawPeer(broker.socketPath);
    const helloReply = await old.request(hello(1, "old-critic", 1));
    expect(helloReply).toMatchObject({ ok: true, result: { version: 3, role: "old-critic" } });
    await old.request({ id: 2, op: "join", room: "r" });
    const page = pageOf(await old.request({ id: 3, op: "fetch", room: "r", afterSeq: 0, limit: 20 }));
    expect(page.messages.map((m) => m.seq)).toEqual([1]);
    expect(page.more).toBe(true);
    const rest = pageOf(await old.request({ id: 4, op: "fetch", room: "r", afterSeq: page.messages[0]?.seq }));
    expect(rest.messages.map((m) => m.seq)).toEqual([2]);
    expect(rest.more).toBe(false);
    // Versions past the broker's own are refused at hello, as before.
    const future = new RawPeer(broker.socketPath);
    expect(await future.request(hello(1, "future", 4))).toMatchObject({
      ok: false,
      error: { code: "ERR_PROTOCOL_MISMATCH", details: { brokerVersion: 3, peerVersion: 4 } },
    });
    await future.closed;
    expect(await planner.request({ id: 9, op: "status" })).toMatchObject({ ok: true });
  });
});

describe("a larger cap", () => {
  test("a caller may ask for more, up to the broker's reply limit", async () => {
    const bodies = Array.from({ length: 10 }, () => "m".repeat(KB32));
    const { critic } = await roomWith(bodies);
    const page = pageOf(await critic.request({ id: 10, op: "fetch", room: "r", afterSeq: 0, maxChars: 100_000 }));
    // Three make 98,304; a fourth would pass 100,000.
    expect(page.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(page).toMatchObject({ more: true, nextAfterSeq: 3, maxChars: 100_000 });
    // The largest cap a default broker serves: 512 Ki characters, so the rest of the room comes in one page.
    const largest = pageOf(await critic.request({ id: 11, op: "fetch", room: "r", afterSeq: 3, maxChars: 524_288 }));
    expect(largest.messages.map((m) => m.seq)).toEqual([4, 5, 6, 7, 8, 9, 10]);
    expect(largest).toMatchObject({ more: false, nextAfterSeq: 10, maxChars: 524_288 });
  });

  test("a cap above the broker's reply limit is refused with the largest it serves, and the connection stays", async () => {
    const { critic } = await roomWith(["one", "two"], { maxFetchBytes: 100_000 });
    expect(await critic.request({ id: 10, op: "fetch", room: "r", maxChars: 100_001 })).toEqual({
      id: 10,
      ok: false,
      op: "fetch",
      error: {
        code: "ERR_INVALID_REQUEST",
        message:
          "Invalid fetch request: maxChars 100001 is above this broker's largest page, 100000 characters (its " +
          "reply limit); ask for at most 100000",
        details: { maxChars: 100_001, maxFetchChars: 100_000 },
      },
    });
    // Above the protocol's own ceiling it is a schema refusal.
    expect(await critic.request({ id: 11, op: "fetch", room: "r", maxChars: 524_289 })).toMatchObject({
      ok: false,
      error: { code: "ERR_INVALID_REQUEST", message: expect.stringMatching(/^Invalid fetch request: maxChars: /) },
    });
    // Nothing was read by the refused requests; the largest served cap works.
    const page = pageOf(await critic.request({ id: 12, op: "fetch", room: "r", maxChars: 100_000 }));
    expect(page.messages.map((m) => m.body)).toEqual(["one", "two"]);
  });

  test("a broker whose reply limit is below the default cap serves that limit by default", async () => {
    const { critic } = await roomWith(["a".repeat(600), "b".repeat(600)], { maxFetchBytes: 1000 });
    const page = pageOf(await critic.request({ id: 10, op: "fetch", room: "r", afterSeq: 0 }));
    expect(page.maxChars).toBe(1000);
    expect(page.messages.map((m) => m.seq)).toEqual([1]);
  });
});

describe("property: paging to the end loses and repeats nothing", () => {
  // Units of different widths in UTF-16 and in UTF-8 JSON: ASCII, a two-byte letter, a surrogate pair, a newline
  // (escaped to two bytes), a quote, and a control character (escaped to six bytes).
  const unit = fc.constantFrom("a", "é", "😀", "\n", '"', "\u0001");
  // Round sizes and round caps too, so that pages often land exactly on the cap (the boundary an off-by-one misses).
  const round = [0, 1, 100, 500, 1000, 2000, 2500];
  const message = fc.record(
    {
      unit,
      count: fc.oneof(fc.nat({ max: 2500 }), fc.constantFrom(...round)),
      headline: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("h", "headline")),
    },
    { requiredKeys: ["unit", "count"] },
  );
  const cap = fc.oneof(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom(1, 100, 1000, 2000, 3000, 5000, 8000));
  const MAX_FETCH_BYTES = 24_000;
  const POSTED_AT = 1_800_000_000_000;

  test("over random message sizes, caps and limits, against the naive model", async () => {
    const broker = await startTestBroker({ maxRooms: 10_000, maxFetchBytes: MAX_FETCH_BYTES, clock: () => POSTED_AT });
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    let run = 0;
    let id = 1000;
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { maxLength: 24 }),
        fc.option(cap, { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
        fc.boolean(),
        async (messages, maxChars, limit, byCursor) => {
          const room = `p${run++}`;
          await planner.request({ id: id++, op: "join", room });
          const posted: Message[] = [];
          for (const [i, m] of messages.entries()) {
            const body = m.unit.repeat(m.count);
            const request = m.headline === undefined ? { body } : { body, headline: m.headline };
            const reply = await planner.request({ id: id++, op: "post", room, ...request });
            expect(reply).toMatchObject({ ok: true, result: { seq: i + 1 } });
            posted.push({ seq: i + 1, author: "planner", ...request, postedAt: POSTED_AT });
          }
          // A reader new to the room starts before its oldest message: by cursor or by nextAfterSeq, it reads all.
          const reader = await RawPeer.hello(broker.socketPath, `reader-${run}`);
          await reader.request({ id: 2, op: "join", room });
          const cap = maxChars ?? 8000;
          const pages: number[][] = [];
          let after = 0;
          for (let rid = 3; ; rid++) {
            const request = {
              id: rid,
              op: "fetch",
              room,
              ...(byCursor ? {} : { afterSeq: after }),
              ...(maxChars === undefined ? {} : { maxChars }),
              ...(limit === undefined ? {} : { limit }),
            };
            const page = pageOf(await reader.request(request));
            expect(page.maxChars).toBe(cap);
            const first = page.messages[0];
            const total = page.messages.reduce((sum, m) => sum + chars(m), 0);
            if (first !== undefined) expect(total).toBeLessThanOrEqual(Math.max(cap, chars(first)));
            for (const m of page.messages) expect(m).toEqual(posted[m.seq - 1]);
            if (page.messages.length > 0) pages.push(page.messages.map((m) => m.seq));
            expect(page.nextAfterSeq).toBe(page.messages.at(-1)?.seq ?? after);
            after = page.nextAfterSeq;
            if (!page.more) break;
            expect(page.messages.length).toBeGreaterThan(0);
          }
          const model = posted.map((m) => ({
            seq: m.seq,
            chars: chars(m),
            bytes: Buffer.byteLength(JSON.stringify(m)),
          }));
          expect(pages).toEqual(
            modelFetchPages(model, { limit: limit ?? 20, maxChars: cap, maxBytes: MAX_FETCH_BYTES }),
          );
          expect(pages.flat()).toEqual(posted.map((m) => m.seq));
          reader.socket.destroy();
        },
      ),
      { numRuns: 120 },
    );
  });
});
