// The broker's text budget as a client and the shared tool show it: messages of the largest room evicted for a post
// elsewhere reach its reader as an exact range, in the digest's marker and the fetch page's first line, sanitised and
// bounded like every other tool text; the broker's status carries the budget.
import { expect, test } from "vitest";
import { startBroker } from "@orphus/roundtable-broker";
import { runRoundtableTool } from "@orphus/roundtable-client";
import { useAgentDir } from "../../../test-support/brokers.js";

const agent = useAgentDir();

test("a reader of the largest room is told exactly which messages the budget evicted, in the tool's text", async () => {
  // 2 × (500 + 20) = 1040 is the least budget these limits allow; 2000 holds the history and little else.
  const start = await startBroker({
    agentDir: agent.dir(),
    idleMs: 60_000,
    maxBodyBytes: 500,
    maxHeadlineBytes: 20,
    maxHeldBytes: 2000,
  });
  if (start.status !== "listening") throw new Error(`broker did not start: ${start.status}`);
  try {
    const author = agent.client({ role: "author", spawnBroker: false });
    const reader = agent.client({ role: "reader", spawnBroker: false });
    for (const room of ["design", "ops"]) {
      await author.join(room);
      await reader.join(room);
    }
    // Four messages of 200 units (400 bytes each): 1600 in "design", their bodies carrying a terminal escape.
    for (let i = 1; i <= 4; i++) await author.post("design", `\u001b[31mpoint ${i} `.padEnd(200, "."));
    // 1000 bytes more in "ops": 2600, so "design" (the largest) gives its two oldest; the post itself stays.
    await author.post("ops", "o".repeat(500));
    expect((await reader.status()).heldText).toEqual({ heldBytes: 1800, maxHeldBytes: 2000, evictedMessages: 2 });

    const run = (input: Record<string, unknown>): Promise<string> =>
      runRoundtableTool(reader, input).then((result) => result.text);
    const digest = await run({ action: "digest", room: "design", budget: 300 });
    expect(digest).toContain("2 messages evicted before you read them (#1–#2), no longer retrievable");
    expect(digest).not.toContain("\u001b");
    expect(digest.length).toBeLessThanOrEqual(300 + 200);
    const fetched = await run({ action: "fetch", room: "design", afterSeq: 0 });
    expect(fetched.split("\n").slice(0, 2)).toEqual([
      "(2 messages #1–#2 left the room's buffer and cannot be fetched.)",
      `[#3 author] point 3 ${".".repeat(187)}`,
    ]);
    // The other room lost nothing.
    expect(await run({ action: "fetch", room: "ops", afterSeq: 0 })).toBe(`[#1 author] ${"o".repeat(500)}`);
  } finally {
    await start.broker.close();
  }
});
