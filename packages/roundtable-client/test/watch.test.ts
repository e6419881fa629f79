import { createServer } from "node:net";
import { join } from "node:path";
import { expect, test } from "vitest";
import { encodeFrame, attachFrameDecoder } from "@orphus/framing";
import { startBroker } from "@orphus/roundtable-broker";
import { watchBroker, type WatchEvent } from "@orphus/roundtable-client";
import { useAgentDir } from "../../../test-support/brokers.js";
import { until } from "../../../test-support/poll.js";
import { shortTempDir } from "../../../test-support/tmp.js";

const agent = useAgentDir();

test("a watch starts the broker, sees posts and reads, and changes nothing for the members", async () => {
  const planner = agent.client({ role: "planner" });
  const critic = agent.client({ role: "critic" });
  const watch = await watchBroker({ agentDir: agent.dir(), brokerCommand: agent.brokerCommand(), label: "critic" });
  expect(watch.snapshot.broker).toMatchObject({ store: "memory", protocol: 3 });
  expect(watch.snapshot.rooms).toEqual([]);
  const events: WatchEvent[] = [];
  watch.onEvent((event) => events.push(event));
  await planner.join("design");
  await critic.join("design");
  await planner.post("design", "Ship the ring first.\nThen cursors.");
  await until(() => events.some((e) => e.kind === "post"));
  expect(events.find((e) => e.kind === "post")).toEqual({
    kind: "post",
    room: "design",
    seq: 1,
    author: "planner",
    at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    headline: "Ship the ring first.",
    chars: 34,
  });
  const page = await watch.peek("design");
  expect(page).toEqual({
    room: "design",
    more: false,
    messages: [{ seq: 1, author: "planner", at: expect.any(String), text: "Ship the ring first.\nThen cursors." }],
  });
  // The watcher said hello as "critic": still critic's one unread message, its one member list entry.
  expect(await critic.members("design")).toEqual({ room: "design", members: ["critic", "planner"] });
  expect(await critic.rooms()).toMatchObject({ rooms: [{ room: "design", members: 2, unread: 1 }] });
  const digest = await critic.digest("design");
  await until(() => events.some((e) => e.kind === "served" && e.role === "critic" && e.digestChars > 0));
  expect(events.filter((e) => e.kind === "served" && e.role === "critic").at(-1)).toMatchObject({
    digestChars: digest.text.length,
  });
  const snapshot = await watch.resnapshot();
  expect(snapshot.rooms[0]).toMatchObject({
    room: "design",
    lastSeq: 1,
    held: { messages: 1, chars: 34 },
    members: [
      { role: "critic", unread: 0 },
      { role: "planner", unread: 0 },
    ],
  });
  let ended: unknown = "open";
  watch.onClose((error) => (ended = error));
  watch.close();
  await until(() => ended !== "open");
  expect(ended).toBeUndefined();
});

test("without startBroker nothing is started; a socketPath is only connected to", async () => {
  const dir = shortTempDir("rtw-");
  try {
    await expect(watchBroker({ agentDir: dir.dir, startBroker: false })).rejects.toMatchObject({
      code: "ERR_BROKER_NOT_RUNNING",
    });
    await expect(watchBroker({ socketPath: join(dir.dir, "none.sock") })).rejects.toMatchObject({
      code: "ERR_BROKER_NOT_RUNNING",
    });
  } finally {
    dir.remove();
  }
});

test("a broker that closes ends the watch with a coded error; an abort rejects the start", async () => {
  const dir = shortTempDir("rtw-");
  const start = await startBroker({ agentDir: dir.dir, registryDir: false });
  if (start.status !== "listening") throw new Error("expected a broker");
  try {
    const watch = await watchBroker({ socketPath: start.broker.socketPath });
    let ended: unknown;
    watch.onClose((error) => (ended = error));
    await start.broker.close();
    await until(() => ended !== undefined);
    expect(ended).toMatchObject({ code: "ERR_WATCH_ENDED" });
    await expect(watch.peek("r")).rejects.toMatchObject({ code: "ERR_CLIENT_CLOSED" });
    const aborted = new AbortController();
    aborted.abort(new Error("stop"));
    await expect(watchBroker({ socketPath: start.broker.socketPath, signal: aborted.signal })).rejects.toThrow("stop");
  } finally {
    await start.broker.close();
    dir.remove();
  }
});

test("a version-2 broker refuses the watcher's version-3 hello by code", async () => {
  const dir = shortTempDir("rtw-");
  const socketPath = join(dir.dir, "v2.sock");
  // A broker of version 2 as it answers a newer client: the mismatch refusal, then the close.
  const server = createServer((socket) => {
    attachFrameDecoder(socket, {
      onFrame: (value) => {
        const { id } = value as { id: number };
        socket.end(
          encodeFrame({
            id,
            ok: false,
            op: "hello",
            error: { code: "ERR_PROTOCOL_MISMATCH", message: "Protocol mismatch: the running broker speaks v2" },
          }),
        );
      },
      onError: () => socket.destroy(),
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  try {
    await expect(watchBroker({ socketPath })).rejects.toMatchObject({
      code: "ERR_WIRE_REFUSED",
      wireCode: "ERR_PROTOCOL_MISMATCH",
    });
  } finally {
    server.close();
    dir.remove();
  }
});
