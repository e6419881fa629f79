import { expect, test } from "vitest";
import type { BrokerLogger, LogFields } from "@orphus/roundtable-broker";
import { announcedPosts, parseServerFrame, type RoundtableEvent } from "@orphus/roundtable-protocol";
import { RawPeer, frame, hello, startTestBroker } from "./helpers.js";
import { stalledReaderTests } from "./stalled-reader.js";
import { until } from "../../../test-support/poll.js";

function capture(): BrokerLogger & { warnings: { message: string; fields?: LogFields }[] } {
  const warnings: { message: string; fields?: LogFields }[] = [];
  return { warnings, info() {}, warn: (message, fields) => void warnings.push({ message, fields }), error() {} };
}

test("a stalled reader loses pings, never replies, and is closed with a logged reason once its queue passes the mark", async () => {
  const logger = capture();
  const broker = await startTestBroker({
    logger,
    pingDropBytes: 1024,
    maxFrameBytes: 16 * 1024,
    maxOutboundBytes: 1024 * 1024,
  });
  const author = await RawPeer.hello(broker.socketPath, "author");
  // A version-1 peer, which gets one post event per post: a version-2 one would hear this burst of one author's
  // posts as a few entries with counts, too few bytes to fill anything (the next test).
  const stalled = new RawPeer(broker.socketPath);
  expect(await stalled.request(hello(1, "stalled", 1))).toMatchObject({ ok: true });
  await author.request({ id: 2, op: "join", room: "r" });
  await stalled.request({ id: 2, op: "join", room: "r" });
  stalled.socket.pause();

  // Thousands of pings: more than the kernel's socket buffer holds for a reader that takes nothing.
  const posts = 8000;
  await author.write(
    Buffer.concat(Array.from({ length: posts }, (_, i) => frame({ id: 100 + i, op: "post", room: "r", body: "p" }))),
  );
  await author.reply(100 + posts - 1);
  const dropped = broker.stats().pingsDropped;
  expect(dropped).toBeGreaterThan(0);
  expect(dropped).toBeLessThan(posts);
  // Dropping pings is not a reason to close: the stalled reader is still connected.
  expect(broker.stats().connections).toBe(2);
  expect(broker.stats().backpressureCloses).toBe(0);

  // Now it asks for replies it does not read: those are never dropped, so the connection goes instead.
  stalled.socket.write(
    Buffer.concat(
      Array.from({ length: 3000 }, (_, i) => frame({ id: 10 + i, op: "fetch", room: "r", afterSeq: 0, limit: 200 })),
    ),
  );
  await until(() => broker.stats().backpressureCloses === 1);
  expect(logger.warnings.map((w) => w.message)).toContain(
    "closing connection: outbound queue passed the high-water mark; the peer is not reading",
  );
  const warning = logger.warnings.find((w) => w.message.startsWith("closing connection: outbound"));
  expect(warning?.fields).toMatchObject({ role: "stalled", maxOutboundBytes: 1024 * 1024 });
  await until(() => broker.stats().connections === 1);

  // Everyone else is unaffected.
  expect(await author.request({ id: 3, op: "status" })).toMatchObject({
    ok: true,
    result: { connections: 1, pingsDropped: dropped },
  });
});

test("a stalled version-2 reader holds a burst of one author's posts in a few bytes, so it loses none of them", async () => {
  const broker = await startTestBroker({ pingDropBytes: 1024, maxFrameBytes: 16 * 1024 });
  const author = await RawPeer.hello(broker.socketPath, "author");
  const stalled = await RawPeer.hello(broker.socketPath, "stalled");
  await author.request({ id: 2, op: "join", room: "r" });
  await stalled.request({ id: 2, op: "join", room: "r" });
  stalled.socket.pause();

  // The burst the previous test drops pings of, in four writes, each read in turns of its own.
  const posts = 8000;
  for (let start = 0; start < posts; start += 2000) {
    await author.write(
      Buffer.concat(
        Array.from({ length: 2000 }, (_, i) => frame({ id: 100 + start + i, op: "post", room: "r", body: "p" })),
      ),
    );
  }
  await author.reply(100 + posts - 1);
  expect(broker.stats().pingsDropped).toBe(0);

  stalled.socket.resume();
  const heard = (): number[] =>
    stalled
      .events()
      .flatMap((event) => announcedPosts(parseServerFrame(event) as RoundtableEvent).map(({ seq }) => seq));
  await until(() => heard().length === posts);
  expect(heard()).toEqual(Array.from({ length: posts }, (_, i) => i + 1));
});

// The same scenarios run on Redis in redis/stalled-reader.test.ts; on the memory store a pipelined batch is served
// in one turn of the event loop.
stalledReaderTests((options) => startTestBroker(options), { numRuns: 25 });
