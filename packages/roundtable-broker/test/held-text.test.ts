// The broker's memory ceiling for message text (maxHeldBytes): reported in status, enforced across rooms by evicting
// the oldest messages of the largest rooms, and told to their readers exactly as the ring's own evictions are.
import { describe, expect, test } from "vitest";
import { startBroker } from "@orphus/roundtable-broker";
import { RawPeer, startTestBroker } from "./helpers.js";
import { tempDir } from "../../../test-support/tmp.js";

type Frame = Record<string, unknown>;
const result = (reply: Frame): Record<string, unknown> => reply["result"] as Record<string, unknown>;

describe("the text budget", () => {
  test("status reports the default budget, 128 MiB, and what the rooms hold", async () => {
    const broker = await startTestBroker();
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    await peer.request({ id: 2, op: "join", room: "r" });
    await peer.request({ id: 3, op: "post", room: "r", body: "é".repeat(10), headline: "abc" });
    expect(result(await peer.request({ id: 4, op: "status" }))["heldText"]).toEqual({
      heldBytes: 26,
      maxHeldBytes: 134_217_728,
      evictedMessages: 0,
    });
  });

  test("a post past the budget evicts the oldest of the largest room; its reader is told, the others lose nothing", async () => {
    // 2 × (1000 + 0) = 2000 is the least budget these limits allow; 4000 holds four of the largest posts.
    const broker = await startTestBroker({ maxBodyBytes: 1000, maxHeadlineBytes: 0, maxHeldBytes: 4000 });
    const writer = await RawPeer.hello(broker.socketPath, "writer");
    const reader = await RawPeer.hello(broker.socketPath, "reader");
    for (const room of ["big", "small"]) {
      await writer.request({ id: 2, op: "join", room });
      await reader.request({ id: 2, op: "join", room });
    }
    await writer.request({ id: 3, op: "post", room: "small", body: "s".repeat(100) }); // 200 bytes
    for (let i = 0; i < 4; i++) {
      await writer.request({ id: 10 + i, op: "post", room: "big", body: String(i).repeat(900) }); // 1800 each
    }
    // 200 + 4 × 1800 = 7400: big's seqs 1 and 2 go (3800), leaving 200 + 3600 = 3800.
    expect(result(await reader.request({ id: 3, op: "status" }))["heldText"]).toEqual({
      heldBytes: 3800,
      maxHeldBytes: 4000,
      evictedMessages: 2,
    });
    const digest = result(await reader.request({ id: 4, op: "digest", room: "big", budget: 500 }));
    expect(digest).toMatchObject({ evicted: 2, throughSeq: 4 });
    expect(digest["text"]).toContain("2 messages evicted");
    // A fetch from before the eviction names the range exactly and delivers what is left.
    const fetched = result(await reader.request({ id: 5, op: "fetch", room: "big", afterSeq: 0, maxChars: 10_000 }));
    expect(fetched["evicted"]).toEqual({ count: 2, fromSeq: 1, toSeq: 2 });
    expect((fetched["messages"] as { seq: number; body: string }[]).map((m) => [m.seq, m.body.slice(0, 3)])).toEqual([
      [3, "222"],
      [4, "333"],
    ]);
    // The small room kept its message; the reader's cursor there never moved.
    const small = result(await reader.request({ id: 6, op: "fetch", room: "small" }));
    expect(small).toMatchObject({ nextAfterSeq: 1 });
    expect(small["evicted"]).toBeUndefined();
    expect((small["messages"] as { seq: number }[]).map((m) => m.seq)).toEqual([1]);
  });

  test("a budget below twice the largest message, or one for a Redis store, is refused before anything starts", async () => {
    await expect(
      startBroker({ agentDir: tempDir(), maxBodyBytes: 1000, maxHeadlineBytes: 24, maxHeldBytes: 2047 }),
    ).rejects.toMatchObject({
      code: "ERR_BROKER_INVALID_OPTION",
      message: "Invalid broker option maxHeldBytes: expected an integer from 2048 to 9007199254740991, got 2047",
    });
    await expect(
      startBroker({ agentDir: tempDir(), store: "redis://127.0.0.1:1/0", maxHeldBytes: 1 << 30 }),
    ).rejects.toMatchObject({
      code: "ERR_BROKER_INVALID_OPTION",
      message:
        "Invalid broker option maxHeldBytes: expected to be left out with a Redis store (its rooms are held in " +
        "Redis, not in the broker: bound Redis with maxmemory), got 1073741824",
    });
  });
});
