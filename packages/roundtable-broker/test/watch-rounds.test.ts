// Watch rounds past the happy path: a store that answers with promises, its reset, a failed read, a watcher that
// cannot take a round's events (then a gap, then the retry), a watcher closing with events owed, and the bounds of the
// served ledger and of a headline. Real sockets in temporary directories; the broker's timers are driven by hand.
import { describe, expect, test } from "vitest";
import { MemoryRoomStore } from "@orphus/rooms";
import type { Broker } from "@orphus/roundtable-broker";
import { manualTimers, type ManualTimers } from "../../../test-support/manual-timers.js";
import { ServedLedger, watchHeadline, type ServedHolder } from "../src/watch.js";
import { HeldStore } from "./held-store.js";
import { RawPeer, capturingLogger, startTestBroker } from "./helpers.js";

type Frame = Record<string, unknown>;

const result = (reply: Frame): Frame => reply["result"] as Frame;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Lets the event loop run until `done` holds, at most 500 turns (bytes cross a local socket within a few). */
async function settle(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await turn();
}

describe("watching a store that answers with promises", () => {
  test("a reset reaches the watchers, and the served counts start again from nothing", async () => {
    const store = new HeldStore(new MemoryRoomStore({ clock: () => 7 }));
    const broker = await startTestBroker({ store, clock: () => 7 });
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "design" });
    await planner.request({ id: 3, op: "post", room: "design", body: "ring first" });
    await planner.request({ id: 4, op: "fetch", room: "design", afterSeq: 0 });
    const watcher = await RawPeer.watcher(broker.socketPath);
    const first = result(await watcher.request({ id: 2, op: "watch" }));
    expect(first["rooms"]).toEqual([
      {
        room: "design",
        lastSeq: 1,
        held: { messages: 1, chars: 10 },
        members: [{ role: "planner", unread: 0 }],
        served: [{ role: "planner", digestChars: 0, fetchChars: 10, pingChars: 0 }],
        recent: [{ seq: 1, author: "planner", postedAt: 7, headline: "ring first", chars: 10 }],
      },
    ]);
    store.emit({ type: "reset", epoch: "e2", rooms: [] });
    await watcher.until(() => watcher.watchEvents().some((e) => e["kind"] === "reset"));
    expect(watcher.watchEvents()).toEqual([{ kind: "reset" }]);
    // The rooms underneath were kept (the held store keeps them): what was served before the reset is forgotten.
    const again = result(await watcher.request({ id: 3, op: "watch" }));
    expect(again["rooms"]).toMatchObject([{ room: "design", lastSeq: 1, served: [] }]);
  });

  test("a failed read is logged and the next poll reads again, finding what changed meanwhile", async () => {
    const timers = manualTimers({ start: 1_000 });
    const store = new HeldStore(new MemoryRoomStore({ clock: timers.now }));
    const logger = capturingLogger();
    const broker = await startTestBroker({ store, clock: timers.now, timers, logger });
    const watcher = await RawPeer.watcher(broker.socketPath);
    expect(result(await watcher.request({ id: 2, op: "watch" }))["rooms"]).toEqual([]);
    store.fail();
    timers.advance(1_000);
    await settle(() => logger.lines.includes("warn a watch read of the room store failed"));
    expect(logger.lines.filter((line) => line.startsWith("warn"))).toEqual([
      "warn a watch read of the room store failed",
    ]);
    expect(watcher.watchEvents()).toEqual([]);
    store.heal();
    // A change this broker never made (as another broker's would be): only the poll finds it.
    await store.inner.join("design", "critic");
    await store.inner.post("design", "critic", "from elsewhere\nmore");
    timers.advance(1_000);
    await settle(() => watcher.watchEvents().length === 3);
    expect(watcher.watchEvents()).toEqual([
      {
        kind: "post",
        room: "design",
        seq: 1,
        author: "critic",
        postedAt: 2_000,
        headline: "from elsewhere",
        chars: 19,
      },
      { kind: "members", room: "design", members: [{ role: "critic", unread: 0 }] },
      { kind: "room", room: "design", lastSeq: 1, held: { messages: 1, chars: 19 } },
    ]);
  });
});

describe("a watcher that cannot take a round's events", () => {
  /** A broker with the smallest watch backlog, a watcher, and a member of "design" whose join went out. */
  async function crowded(): Promise<{
    timers: ManualTimers;
    broker: Broker;
    watcher: RawPeer;
    planner: RawPeer;
  }> {
    const timers = manualTimers({ start: 1_000 });
    const broker = await startTestBroker({ clock: timers.now, timers, maxWatchBacklogBytes: 1024 });
    const watcher = await RawPeer.watcher(broker.socketPath);
    await watcher.request({ id: 2, op: "watch" });
    const planner = await RawPeer.hello(broker.socketPath, "planner");
    await planner.request({ id: 2, op: "join", room: "design" });
    await settle(() => watcher.watchEvents().some((e) => e["kind"] === "room"));
    // Ten posts with 102-character headlines within the tick: one round of 11 events (ten posts and the room's; the
    // members are as they were), some 2,400 bytes.
    for (let id = 3; id < 13; id++) {
      await planner.request({ id, op: "post", room: "design", body: `${String(id).padStart(3, "0")}`.repeat(34) });
    }
    expect(timers.fire(50)).toBe(1);
    return { timers, broker, watcher, planner };
  }

  const postSeqs = (watcher: RawPeer): unknown[] =>
    watcher.watchEvents().flatMap((e) => (e["kind"] === "post" ? [e["seq"]] : []));

  test("gets what fits, then a gap when the retry finds room, and may watch again", async () => {
    const { timers, broker, watcher } = await crowded();
    await settle(() => postSeqs(watcher).length === 4);
    await turn();
    // Four post events (about 230 bytes each) fit in 1,024 bytes; the other seven events were dropped.
    expect(postSeqs(watcher)).toEqual([1, 2, 3, 4]);
    expect(broker.stats()).toMatchObject({ watchers: 1, watchEventsDropped: 7 });
    expect(timers.pending().filter((t) => t.ms === 100)).toHaveLength(1);
    expect(timers.fire(100)).toBe(1);
    await settle(() => watcher.watchEvents().some((e) => e["kind"] === "gap"));
    expect(watcher.watchEvents().at(-1)).toEqual({ kind: "gap", dropped: 7 });
    expect(postSeqs(watcher)).toEqual([1, 2, 3, 4]);
    expect(timers.pending().filter((t) => t.ms === 100)).toEqual([]);
    const again = result(await watcher.request({ id: 3, op: "watch" }));
    expect(again["rooms"]).toMatchObject([{ room: "design", lastSeq: 10, held: { messages: 10, chars: 1020 } }]);
  });

  test("closing with events owed, what it lost still counts; the last watcher out clears the retry", async () => {
    const { timers, broker, watcher, planner } = await crowded();
    // A second watcher that joins later and takes everything: it stays when the first one goes.
    const other = await RawPeer.watcher(broker.socketPath, "viewer-2");
    await other.request({ id: 2, op: "watch" });
    await settle(() => postSeqs(watcher).length === 4);
    await turn();
    expect(timers.pending().filter((t) => t.ms === 100)).toHaveLength(1);
    watcher.socket.destroy();
    await watcher.closed;
    await settle(() => broker.stats().watchers === 1);
    expect(broker.stats()).toMatchObject({ watchers: 1, watchEventsDropped: 7 });
    // The other watcher still hears the room, the retry still armed; once it goes too, the watch timers are cleared.
    await planner.request({ id: 20, op: "post", room: "design", body: "after" });
    timers.advance(50);
    await settle(() => postSeqs(other).includes(11));
    expect(postSeqs(other)).toEqual([11]);
    expect(timers.pending().filter((t) => t.ms === 100)).toHaveLength(1);
    other.socket.destroy();
    await other.closed;
    await settle(() => broker.stats().watchers === 0);
    expect(broker.stats()).toMatchObject({ watchers: 0, watchEventsDropped: 7, watchBacklogBytes: 0 });
    expect(timers.pending().filter((t) => t.ms === 100 || t.ms === 50)).toEqual([]);
  });
});

describe("the served ledger", () => {
  test("counts 1,024 rooms and 256 roles a room; past them new ones are not counted, known ones still are", () => {
    const ledger = new ServedLedger();
    for (let i = 0; i < 1024; i++) expect(ledger.counts(`room-${i}`, "planner")).toBeDefined();
    expect(ledger.counts("room-1024", "planner")).toBeUndefined();
    expect(ledger.roles("room-1024")).toBeUndefined();
    expect(ledger.list("room-1024")).toEqual([]);
    for (let i = 1; i < 256; i++) expect(ledger.counts("room-0", `role-${String(i).padStart(3, "0")}`)).toBeDefined();
    expect(ledger.counts("room-0", "role-256")).toBeUndefined();
    const counts = ledger.counts("room-0", "planner");
    if (counts === undefined) throw new Error("a known role is counted past the bound");
    counts.fetchChars += 12;
    const listed = ledger.list("room-0");
    expect(listed).toHaveLength(256);
    expect(listed[0]).toEqual({ role: "planner", digestChars: 0, fetchChars: 12, pingChars: 0 });
    expect(listed[1]).toEqual({ role: "role-001", digestChars: 0, fetchChars: 0, pingChars: 0 });
    ledger.clear();
    expect(ledger.list("room-0")).toEqual([]);
    expect(ledger.counts("room-1024", "planner")).toEqual({ digestChars: 0, fetchChars: 0, pingChars: 0 });
  });
});

describe("a connection's remembered counts", () => {
  test("are its role's counts of the room, kept for the same room, looked up again for another or after clear", () => {
    const ledger = new ServedLedger();
    const holder: ServedHolder = { role: "critic", servedMemo: undefined };
    const design = ledger.countsFor(holder, "design");
    expect(design).toBe(ledger.counts("design", "critic"));
    if (design === undefined) throw new Error("a first room is counted");
    design.pingChars += 50;
    expect(ledger.countsFor(holder, "design")).toBe(design);
    const review = ledger.countsFor(holder, "review");
    expect(review).not.toBe(design);
    expect(ledger.list("review")).toEqual([{ role: "critic", digestChars: 0, fetchChars: 0, pingChars: 0 }]);
    expect(ledger.countsFor(holder, "design")).toBe(design);
    // The store lost its rooms: the memo is stale, and what is counted next lands in the new counts.
    ledger.clear();
    const fresh = ledger.countsFor(holder, "design");
    expect(fresh).not.toBe(design);
    expect(fresh).toEqual({ digestChars: 0, fetchChars: 0, pingChars: 0 });
    expect(ledger.list("design")).toEqual([{ role: "critic", digestChars: 0, fetchChars: 0, pingChars: 0 }]);
  });

  test("past the room bound, none are kept for a new room until clear", () => {
    const ledger = new ServedLedger();
    for (let i = 0; i < 1024; i++) ledger.counts(`room-${i}`, "planner");
    const holder: ServedHolder = { role: "planner", servedMemo: undefined };
    expect(ledger.countsFor(holder, "room-1024")).toBeUndefined();
    expect(ledger.countsFor(holder, "room-1024")).toBeUndefined();
    ledger.clear();
    expect(ledger.countsFor(holder, "room-1024")).toEqual({ digestChars: 0, fetchChars: 0, pingChars: 0 });
  });
});

describe("a watch headline", () => {
  test("is cut to 200 characters with an ellipsis, never on half of a surrogate pair", () => {
    expect(watchHeadline({ body: `\n  \n  ${"a".repeat(199)}  \nnext` })).toBe("a".repeat(199));
    expect(watchHeadline({ body: "a".repeat(201) })).toBe(`${"a".repeat(199)}…`);
    // The 199th unit is the high half of 😀: the cut falls before the pair.
    expect(watchHeadline({ body: `${"a".repeat(198)}😀😀` })).toBe(`${"a".repeat(198)}…`);
    expect(watchHeadline({ body: "body", headline: "the headline" })).toBe("the headline");
    expect(watchHeadline({ body: "  \n " })).toBe("");
  });
});
