import type { Socket } from "node:net";
import { expect, test } from "vitest";
import { encodeFrame } from "@orphus/framing";
import { WireRefusalError, type RoundtableEvent } from "@orphus/roundtable-protocol";
import {
  BrokerConnection,
  ConnectionLostError,
  RequestTimeoutError,
  connectBrokerSocket,
} from "@orphus/roundtable-client";
import { useFramedServer, type Script } from "../../../test-support/framed-server.js";
import { until } from "../../../test-support/poll.js";

const fixture = useFramedServer();

async function open(script: Script, options: ConstructorParameters<typeof BrokerConnection>[1] = {}) {
  const server = await fixture.start(script);
  const socket = await connectBrokerSocket(server.socketPath, 2000);
  return new BrokerConnection(socket, options);
}

const membersReply = (request: Record<string, unknown>) => ({
  id: request["id"],
  ok: true,
  op: "members",
  result: { room: request["room"], members: ["critic"] },
});

test("replies are matched to requests by id, in whatever order they come", async () => {
  const held: [Record<string, unknown>, Socket][] = [];
  const connection = await open((request, socket) => {
    held.push([request, socket]);
    if (held.length === 2) for (const [r, s] of held.reverse()) s.write(encodeFrame(membersReply(r)));
    return undefined;
  });
  const [a, b] = await Promise.all([
    connection.request("members", { room: "a" }),
    connection.request("members", { room: "b" }),
  ]);
  expect(a).toEqual({ room: "a", members: ["critic"] });
  expect(b).toEqual({ room: "b", members: ["critic"] });
  expect(fixture.current().requests.map((r) => r["id"])).toEqual([1, 2]);
  connection.close();
});

test("a refusal rejects with the wire code and the broker's message", async () => {
  const connection = await open((request) => ({
    id: request["id"],
    ok: false,
    op: request["op"],
    error: { code: "ERR_NOT_MEMBER", message: 'Not a member of room "a"; join it first' },
  }));
  const error = await connection.request("post", { room: "a", body: "x" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WireRefusalError);
  expect(error).toMatchObject({
    wireCode: "ERR_NOT_MEMBER",
    message: 'Not a member of room "a"; join it first',
    op: "post",
  });
  connection.close();
});

test("a request with no reply times out, and its late reply is ignored", async () => {
  let late: (() => void) | undefined;
  const connection = await open((request, socket) => {
    late = () => socket.write(encodeFrame(membersReply(request)));
    return undefined;
  });
  const error = await connection.request("members", { room: "a" }, 30).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestTimeoutError);
  expect(error).toMatchObject({
    code: "ERR_REQUEST_TIMEOUT",
    message: "The roundtable broker did not answer members within 30 ms",
  });
  late?.();
  expect(connection.pendingCount).toBe(0);
  connection.close();
});

test("a lost connection rejects every pending request with a clear error", async () => {
  const connection = await open(() => undefined);
  const pending = Array.from({ length: 5 }, (_, i) =>
    connection.request("members", { room: `r${i}` }).catch((e: unknown) => e),
  );
  await until(() => (fixture.current().requests.length ?? 0) === 5);
  for (const socket of fixture.current().sockets ?? []) socket.destroy();
  const errors = await Promise.all(pending);
  for (const error of errors) {
    expect(error).toBeInstanceOf(ConnectionLostError);
    expect((error as Error).message).toBe(
      "Lost the connection to the roundtable broker while waiting for members (the broker closed the connection); " +
        "the next call reconnects, and rooms must be joined again",
    );
  }
  expect(connection.closed).toBe(true);
  await expect(connection.request("rooms", {})).rejects.toBeInstanceOf(ConnectionLostError);
});

test("a frame that is neither reply nor event drops the connection and says why", async () => {
  const connection = await open(() => ({ surprise: true }));
  const error = await connection.request("rooms", {}).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConnectionLostError);
  expect((error as Error).message).toContain("Invalid frame from the broker");
  expect((error as Error & { cause: unknown }).cause).toMatchObject({ code: "ERR_SERVER_FRAME_INVALID" });
});

test("a refusal of no particular request explains the close that follows", async () => {
  const connection = await open((_, socket) => {
    socket.end(
      encodeFrame({ id: null, ok: false, error: { code: "ERR_SHUTTING_DOWN", message: "The broker is closing" } }),
    );
    return undefined;
  });
  const error = await connection.request("rooms", {}).catch((e: unknown) => e);
  expect((error as Error).message).toContain("ERR_SHUTTING_DOWN: The broker is closing");
});

test("events (post, posts, join, reset) are validated and passed on; requests beyond the in-flight maximum are refused", async () => {
  const events: RoundtableEvent[] = [];
  const connection = await open(
    (_, socket) => {
      socket.write(encodeFrame({ event: "post", room: "a", seq: 3, author: "critic" }));
      socket.write(encodeFrame({ event: "join", room: "a", seq: 0, role: "critic" }));
      socket.write(
        encodeFrame({
          event: "posts",
          room: "a",
          posts: [
            { seq: 4, author: "critic" },
            { seq: 5, author: "planner" },
          ],
        }),
      );
      socket.write(encodeFrame({ event: "reset", seq: 0, store: "redis://h:6379" }));
      return undefined;
    },
    { onEvent: (event) => events.push(event), maxPending: 2 },
  );
  const first = connection.request("rooms", {}).catch(() => undefined);
  const second = connection.request("rooms", {}).catch(() => undefined);
  await expect(connection.request("rooms", {})).rejects.toMatchObject({
    code: "ERR_TOO_MANY_PENDING",
    message: "Cannot send rooms: 2 requests are already waiting for the broker, the maximum in flight",
  });
  await until(() => events.length === 8);
  expect(events[0]).toEqual({ event: "post", room: "a", seq: 3, author: "critic" });
  expect(events[1]).toEqual({ event: "join", room: "a", seq: 0, role: "critic" });
  // A merged posts event is an event like the others, passed on as the wire has it.
  expect(events[2]).toEqual({
    event: "posts",
    room: "a",
    posts: [
      { seq: 4, author: "critic" },
      { seq: 5, author: "planner" },
    ],
  });
  // The store's reset names no room: the frame parser takes it as it is, never as a membership event.
  expect(events[3]).toEqual({ event: "reset", seq: 0, store: "redis://h:6379" });
  connection.close();
  await Promise.all([first, second]);
});
