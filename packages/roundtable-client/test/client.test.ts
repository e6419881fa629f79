import type { Socket } from "node:net";
import { expect, test } from "vitest";
import {
  ClientClosedError,
  ConnectionLostError,
  RoundtableClient,
  connectBrokerSocket,
  runRoundtableTool,
  type ActivityNotice,
  type Connector,
} from "@orphus/roundtable-client";
import { useFramedServer, type Script } from "../../../test-support/framed-server.js";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { until } from "../../../test-support/poll.js";

const fixture = useFramedServer();

const ok = (request: Record<string, unknown>, result: unknown) => ({
  id: request["id"],
  ok: true,
  op: request["op"],
  result,
});

/** A tiny broker stand-in: answers join, post and rooms; enough to watch the client's connection behaviour. */
const script: Script = (request) => {
  switch (request["op"]) {
    case "join":
      return ok(request, { room: request["room"], created: true, members: ["planner"], newestSeq: 0, unread: 0 });
    case "post":
      return ok(request, { room: request["room"], seq: 1, postedAt: 1 });
    case "rooms":
      return ok(request, { rooms: [] });
    default:
      return undefined;
  }
};

async function countingConnector(): Promise<{ connector: Connector; calls: () => number }> {
  const path = (await fixture.start(script)).socketPath;
  let calls = 0;
  return {
    connector: () => {
      calls++;
      return connectBrokerSocket(path, 2000);
    },
    calls: () => calls,
  };
}

/** A client of role "planner" that joined "design" through the scripted server, and a way to push frames to it. */
async function joinedPlanner(
  options: Omit<ConstructorParameters<typeof RoundtableClient>[0], "connector" | "role"> = {},
): Promise<{ client: RoundtableClient; send: (value: unknown) => void; socket: Socket }> {
  const { connector } = await countingConnector();
  const client = new RoundtableClient({ connector, role: "planner", ...options });
  await client.join("design");
  const socket = [...fixture.current().sockets][0];
  if (socket === undefined) throw new Error("no connection");
  return { client, socket, send: (value) => fixture.current().send(socket, value) };
}

test("constructing a client connects to nothing and warns about nothing", async () => {
  const { connector, calls } = await countingConnector();
  const warnings: string[] = [];
  // Anything a client deferred would run on its timers or in a later turn: an hour of its clock passes, then a turn.
  const timers = manualTimers();
  const client = new RoundtableClient({
    connector,
    timers,
    onWarning: (w) => warnings.push(w),
    onActivity: () => undefined,
  });
  expect(timers.pending()).toEqual([]);
  timers.advance(3_600_000);
  await new Promise((resolve) => setImmediate(resolve));
  expect(calls()).toBe(0);
  expect(fixture.current().requests).toEqual([]);
  expect(warnings).toEqual([]);
  expect(client.connected).toBe(false);
  client.close();
});

test("fifty concurrent first calls share one connect", async () => {
  const { connector, calls } = await countingConnector();
  const client = new RoundtableClient({ connector, role: "planner" });
  const results = await Promise.all(Array.from({ length: 50 }, () => client.rooms()));
  expect(results).toHaveLength(50);
  expect(calls()).toBe(1);
  expect(client.connectCount).toBe(1);
  expect(fixture.current().requests.filter((r) => r["op"] === "hello")).toHaveLength(1);
  client.close();
});

test("with no role name the client speaks as session-<pid> and warns once, at first use", async () => {
  const { connector } = await countingConnector();
  const warnings: string[] = [];
  const client = new RoundtableClient({ connector, pid: 4242, onWarning: (w) => warnings.push(w) });
  expect(client.role).toBe("session-4242");
  expect(client.ephemeralRole).toBe(true);
  await client.rooms();
  await client.rooms();
  expect(warnings).toEqual([
    'roundtable: no role name given, speaking as "session-4242"; read positions key on the role name and will not ' +
      "survive a restart of this session (give a stable name, e.g. --as planner or ORPHUS_ROUNDTABLE_ROLE=planner)",
  ]);
  expect(fixture.current().requests[0]).toMatchObject({
    op: "hello",
    role: "session-4242",
    pid: 4242,
    protocol: "orphus-roundtable",
    version: 3,
  });
  client.close();
});

test("an invalid role name is refused at construction", () => {
  expect(
    () => new RoundtableClient({ connector: () => Promise.reject(new Error("unused")), role: "no spaces" }),
  ).toThrow(expect.objectContaining({ code: "ERR_CLIENT_INVALID_OPTION" }));
});

test("after a lost connection the next call reconnects, and joins are not replayed", async () => {
  const { connector, calls } = await countingConnector();
  const client = new RoundtableClient({ connector, role: "planner" });
  await client.join("design");
  for (const socket of fixture.current().sockets) socket.destroy();
  await until(() => !client.connected);
  await client.post("design", "hello again");
  expect(calls()).toBe(2);
  expect(fixture.current().requests.map((r) => r["op"])).toEqual(["hello", "join", "hello", "post"]);
  client.close();
});

test("a hello the broker refuses is not retried, and a closed client refuses calls", async () => {
  const server = await fixture.start((request) =>
    request["op"] === "hello"
      ? {
          id: request["id"],
          ok: false,
          op: "hello",
          error: { code: "ERR_PROTOCOL_MISMATCH", message: "Protocol mismatch: the running broker speaks v2" },
        }
      : undefined,
  );
  const path = server.socketPath;
  let calls = 0;
  const client = new RoundtableClient({
    role: "planner",
    connector: () => {
      calls++;
      return connectBrokerSocket(path, 2000);
    },
  });
  await expect(client.rooms()).rejects.toMatchObject({
    wireCode: "ERR_PROTOCOL_MISMATCH",
    message: "Protocol mismatch: the running broker speaks v2",
  });
  expect(calls).toBe(1);
  client.close();
  await expect(client.rooms()).rejects.toBeInstanceOf(ClientClosedError);
  expect(calls).toBe(1);
});

test("activity pings reach onActivity coalesced, without the client's own posts or churn", async () => {
  const notices: ActivityNotice[] = [];
  const { client, send } = await joinedPlanner({ onActivity: (n) => notices.push(n), pingWindowMs: 20 });
  send({ event: "join", room: "design", seq: 0, role: "critic" });
  send({ event: "post", room: "design", seq: 1, author: "planner" });
  send({ event: "post", room: "design", seq: 2, author: "critic" });
  send({ event: "post", room: "design", seq: 3, author: "critic" });
  await until(() => notices.length === 1);
  expect(notices[0]).toEqual({
    rooms: [{ room: "design", count: 2, authors: ["critic"], otherAuthors: 0, throughSeq: 3 }],
    otherMessages: 0,
    total: 2,
  });
  client.close();
});

test("a merged posts event reaches onActivity as every post it lists, the client's own left out", async () => {
  const notices: ActivityNotice[] = [];
  const { client, send } = await joinedPlanner({ onActivity: (n) => notices.push(n), pingWindowMs: 20 });
  // An entry with a count stands for that many posts in a row by its author.
  const posts = [
    { seq: 4, author: "critic" },
    { seq: 5, author: "planner", count: 2 },
    { seq: 7, author: "reviewer", count: 3 },
    { seq: 10, author: "critic" },
  ];
  send({ event: "posts", room: "design", posts });
  await until(() => notices.length === 1);
  expect(notices[0]).toEqual({
    rooms: [{ room: "design", count: 5, authors: ["reviewer", "critic"], otherAuthors: 0, throughSeq: 10 }],
    otherMessages: 0,
    total: 5,
  });
  client.close();
});

test("waitForPost finds another role's post inside a merged posts event", async () => {
  const { client, send } = await joinedPlanner();
  const waiting = client.waitForPost({ room: "design", timeoutMs: 5000 });
  const posts = [
    { seq: 8, author: "planner" },
    { seq: 9, author: "critic", count: 2 },
    { seq: 11, author: "reviewer" },
  ];
  send({ event: "posts", room: "other", posts: posts.slice(1) });
  send({ event: "posts", room: "design", posts });
  // The first post of the counted entry, as its own post event would have announced it.
  await expect(waiting).resolves.toEqual({ event: "post", room: "design", seq: 9, author: "critic" });
  client.close();
});

test("waitForPost resolves on another role's post, times out quietly, and rejects when the connection goes", async () => {
  const { client, send, socket } = await joinedPlanner();
  const waiting = client.waitForPost({ room: "design", timeoutMs: 5000 });
  send({ event: "post", room: "other", seq: 1, author: "critic" });
  send({ event: "post", room: "design", seq: 1, author: "planner" });
  send({ event: "post", room: "design", seq: 2, author: "critic" });
  await expect(waiting).resolves.toEqual({ event: "post", room: "design", seq: 2, author: "critic" });
  await expect(client.waitForPost({ timeoutMs: 10 })).resolves.toBeUndefined();
  const controller = new AbortController();
  const aborted = client.waitForPost({ timeoutMs: 5000, signal: controller.signal });
  controller.abort();
  await expect(aborted).resolves.toBeUndefined();
  const lost = client.waitForPost({ timeoutMs: 5000 });
  socket.destroy();
  await expect(lost).rejects.toBeInstanceOf(ConnectionLostError);
  // What was waited for is a post, not a reply to an op called "wait".
  await expect(lost).rejects.toThrow(
    "Lost the connection to the roundtable broker while waiting for another role's post (the broker closed the " +
      "connection); the next call reconnects, and rooms must be joined again",
  );
  client.close();
});

test("a post that a wait reported is not pinged again, and a later post still is", async () => {
  let newestSeq = 0;
  const server = await fixture.start((request) => {
    if (request["op"] === "join") {
      return ok(request, { room: "design", created: false, members: ["critic", "planner"], newestSeq, unread: 0 });
    }
    if (request["op"] !== "rooms") return undefined;
    return ok(request, {
      rooms: [{ room: "design", members: 2, newestSeq, joined: true, unread: newestSeq === 0 ? 0 : 1 }],
    });
  });
  const notices: ActivityNotice[] = [];
  const timers = manualTimers();
  const client = new RoundtableClient({
    connector: () => connectBrokerSocket(server.socketPath, 2000),
    role: "planner",
    onActivity: (n) => notices.push(n),
    timers,
  });
  await client.join("design");
  const socket = [...server.sockets][0] as Socket;
  const waiting = runRoundtableTool(client, { action: "wait", room: "design" }, { timers });
  await until(() => server.requests.some((r) => r["op"] === "rooms"));
  newestSeq = 1;
  server.send(socket, { event: "post", room: "design", seq: 1, author: "critic" });
  expect(await waiting).toEqual({ text: "design: 1 unread. Digest to read.", isError: false });
  // The quiet period passes: the wait said it all, so no ping repeats it.
  timers.advance(60_000);
  expect(notices).toEqual([]);
  // An event of the reported post that comes late is not counted either; the next post is.
  server.send(socket, { event: "post", room: "design", seq: 1, author: "critic" });
  server.send(socket, { event: "posts", room: "design", posts: [{ seq: 1, author: "critic", count: 2 }] });
  // A marker: the server wrote the events before its reply, so the client has read them once this answers.
  await client.rooms();
  timers.advance(60_000);
  expect(notices).toEqual([
    {
      rooms: [{ room: "design", count: 1, authors: ["critic"], otherAuthors: 0, throughSeq: 2 }],
      otherMessages: 0,
      total: 1,
    },
  ]);
  client.close();
});
