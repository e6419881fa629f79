import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test-support/tmp.js";
import { RawPeer, frame, hello, startTestBroker } from "./helpers.js";

/**
 * Resolves once the event loop has polled for I/O again after this call: bytes written to a socket whose other end
 * is in this process (the embedded broker) have been read there by then, so the next write arrives as a read of its
 * own. Two check phases: the first may come before the next poll, the second comes after it.
 */
async function readByTheBroker(): Promise<void> {
  await nextTurn();
  await nextTurn();
}

const packageVersion = (
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
    version: string;
  }
).version;

// Stored vector: the hello example of docs/protocol.md, byte for byte.
const HELLO_VECTOR = Buffer.from(
  "0000005c" +
    Buffer.from(
      '{"id":1,"op":"hello","protocol":"orphus-roundtable","version":3,"role":"planner","pid":4242}',
    ).toString("hex"),
  "hex",
);

describe("hello", () => {
  test("the stored hello vector gets the broker's hello reply", async () => {
    const broker = await startTestBroker();
    const peer = new RawPeer(broker.socketPath);
    await peer.write(HELLO_VECTOR);
    expect(await peer.reply(1)).toEqual({
      id: 1,
      ok: true,
      op: "hello",
      result: {
        protocol: "orphus-roundtable",
        version: 3,
        role: "planner",
        brokerPid: process.pid,
        brokerVersion: packageVersion,
        store: "memory",
        brokerInstance: expect.stringMatching(/^[0-9a-f]{16}$/),
      },
    });
  });

  test("every start of a broker names a new instance in hello, the one its registry entry names", async () => {
    const instances: unknown[] = [];
    for (let start = 0; start < 2; start++) {
      const broker = await startTestBroker({ registryDir: tempDir() });
      const peer = new RawPeer(broker.socketPath);
      const reply = (await peer.request(hello(1, "planner"))) as { result: { brokerInstance: string } };
      expect(broker.registryEntry).toContain(`-${reply.result.brokerInstance}.json`);
      instances.push(reply.result.brokerInstance);
      await broker.close();
    }
    expect(new Set(instances).size).toBe(2);
  });

  test("any other request before hello is refused and the connection stays", async () => {
    const broker = await startTestBroker();
    const peer = new RawPeer(broker.socketPath);
    expect(await peer.request({ id: 5, op: "rooms" })).toMatchObject({
      id: 5,
      ok: false,
      op: "rooms",
      error: { code: "ERR_HELLO_REQUIRED" },
    });
    expect(await peer.request(hello(6, "critic"))).toMatchObject({ id: 6, ok: true });
    expect(await peer.request(hello(7, "critic"))).toMatchObject({
      id: 7,
      ok: false,
      error: { code: "ERR_HELLO_REPEATED" },
    });
    expect(await peer.request({ id: 8, op: "rooms" })).toEqual({ id: 8, ok: true, op: "rooms", result: { rooms: [] } });
  });

  test("a peer of another protocol version is refused by name and version, then disconnected", async () => {
    const broker = await startTestBroker({ idleMs: 5000 });
    const peer = new RawPeer(broker.socketPath);
    // A future hello this version cannot parse (an unknown shape) still gets the version refusal.
    await peer.write(frame({ id: 1, op: "hello", protocol: "orphus-roundtable", version: 4, name: "planner" }));
    const reply = await peer.reply(1);
    expect(reply).toEqual({
      id: 1,
      ok: false,
      op: "hello",
      error: {
        code: "ERR_PROTOCOL_MISMATCH",
        message:
          `Protocol mismatch: the running broker (pid ${process.pid}) speaks orphus-roundtable v3, this client speaks ` +
          "orphus-roundtable v4. The broker exits 5 s after its last session disconnects: close the sessions still " +
          `using it, or stop it with \`kill ${process.pid}\`, and the next session starts a broker of its own version.`,
        details: {
          brokerProtocol: "orphus-roundtable",
          brokerVersion: 3,
          brokerPid: process.pid,
          peerProtocol: "orphus-roundtable",
          peerVersion: 4,
        },
      },
    });
    await peer.closed;
  });
});

describe("framing on a real socket", () => {
  test("a header split across writes, and a payload split anywhere, reassemble", async () => {
    const broker = await startTestBroker();
    const peer = new RawPeer(broker.socketPath);
    await peer.connected;
    const bytes = Buffer.concat([frame(hello(1, "planner")), frame({ id: 2, op: "status" })]);
    // Two header bytes, then one, then the rest of the header with part of the payload, then byte by byte.
    const cuts = [2, 3, 9, 40];
    let from = 0;
    for (const cut of cuts) {
      await peer.write(bytes.subarray(from, cut));
      await readByTheBroker();
      from = cut;
    }
    for (; from < bytes.length; from++) await peer.write(bytes.subarray(from, from + 1));
    expect(await peer.reply(1)).toMatchObject({ ok: true, op: "hello" });
    expect(await peer.reply(2)).toMatchObject({ ok: true, op: "status", result: { connections: 1 } });
  });

  test("two requests in one write get two replies, in order", async () => {
    const broker = await startTestBroker();
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    await peer.write(Buffer.concat([frame({ id: 2, op: "join", room: "r" }), frame({ id: 3, op: "rooms" })]));
    await peer.reply(3);
    const replies = peer.frames.filter((f) => "ok" in f).map((f) => [f["id"], f["op"], f["ok"]]);
    expect(replies).toEqual([
      [1, "hello", true],
      [2, "join", true],
      [3, "rooms", true],
    ]);
  });

  test("garbage destroys that connection and no other", async () => {
    const broker = await startTestBroker();
    const bystander = await RawPeer.hello(broker.socketPath, "critic");
    const garbage = await RawPeer.hello(broker.socketPath, "planner");
    const notJson = Buffer.from("{not json", "utf8");
    const header = Buffer.alloc(4);
    header.writeUInt32BE(notJson.length, 0);
    await garbage.write(
      Buffer.concat([frame({ id: 2, op: "status" }), header, notJson, frame({ id: 3, op: "status" })]),
    );
    await garbage.closed;
    // The frame before the bad one was answered; the one behind it never is.
    expect(garbage.frames.map((f) => f["id"])).toEqual([1, 2]);
    expect(await bystander.request({ id: 2, op: "status" })).toMatchObject({ ok: true, result: { connections: 1 } });
    expect(broker.stats().framingCloses).toBe(1);
  });

  test("an oversize header is refused before its payload arrives", async () => {
    const broker = await startTestBroker({ maxFrameBytes: 4096 });
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    const header = Buffer.alloc(4);
    header.writeUInt32BE(4097, 0);
    await peer.write(header);
    await peer.closed;
    expect(broker.stats().framingCloses).toBe(1);
  });

  test("text that is not a frame at all (an HTTP request) reads as an oversize header", async () => {
    const broker = await startTestBroker();
    const peer = new RawPeer(broker.socketPath);
    await peer.write(Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    await peer.closed;
    expect(peer.frames).toEqual([]);
  });

  test("a schema-invalid request gets an error reply and the connection stays", async () => {
    const broker = await startTestBroker();
    const peer = await RawPeer.hello(broker.socketPath, "planner");
    const invalid = await peer.request({ id: 2, op: "post", room: "r", body: 42 });
    expect(invalid).toMatchObject({ id: 2, ok: false, op: "post", error: { code: "ERR_INVALID_REQUEST" } });
    expect((invalid["error"] as { message: string }).message).toMatch(/^Invalid post request: body: /);
    await peer.write(frame({ op: "status" }));
    expect(await peer.reply(null)).toMatchObject({ id: null, ok: false, error: { code: "ERR_INVALID_REQUEST" } });
    await peer.write(frame([1, 2, 3]));
    await peer.until((f) => f.filter((x) => x["id"] === null).length === 2);
    expect(await peer.request({ id: 3, op: "shout" })).toMatchObject({ id: 3, error: { code: "ERR_UNKNOWN_OP" } });
    expect(await peer.request({ id: 4, op: "status" })).toMatchObject({ id: 4, ok: true });
  });
});
