// A broker restart as the model sees it: the client tells a restarted broker from the one it left by the instance in
// hello (by the pid for a broker that names none), and the tool's first call after it says what was lost and what to
// do, once; a join that creates a room lost in the restart says the room was recreated.
import { expect, test } from "vitest";
import { RoundtableClient, connectBrokerSocket, runRoundtableTool } from "@orphus/roundtable-client";
import { useAgentDir } from "../../../test-support/brokers.js";
import { useFramedServer, type Script } from "../../../test-support/framed-server.js";

const fixture = useFramedServer();
const agent = useAgentDir();

/** The broker the scripted server plays: its pid and instance (none: a broker before instances), and its rooms. */
interface Played {
  brokerPid: number;
  brokerInstance: string | undefined;
  store: string;
  rooms: Set<string>;
}

function playing(broker: Played): Script {
  return (request) => {
    const reply = (result: unknown) => ({ id: request["id"], ok: true, op: request["op"], result });
    switch (request["op"]) {
      case "hello": {
        const { brokerPid, brokerInstance, store } = broker;
        const instance = brokerInstance === undefined ? {} : { brokerInstance };
        return reply({
          protocol: "orphus-roundtable",
          version: 2,
          role: request["role"],
          brokerPid,
          brokerVersion: "0.0.0",
          store,
          ...instance,
        });
      }
      case "join": {
        const room = request["room"] as string;
        const created = !broker.rooms.has(room);
        broker.rooms.add(room);
        return reply({ room, created, members: ["planner"], newestSeq: 0, unread: 0 });
      }
      case "leave":
        return reply({ room: request["room"], left: true });
      case "post":
        if (broker.rooms.has(request["room"] as string)) return reply({ room: request["room"], seq: 1, postedAt: 1 });
        return {
          id: request["id"],
          ok: false,
          op: "post",
          error: {
            code: "ERR_NOT_MEMBER",
            message: `Not a member of room "${String(request["room"])}"; join it first`,
            details: { room: request["room"] },
          },
        };
      case "rooms":
        return reply({ rooms: [] });
      default:
        return undefined;
    }
  };
}

/** A planner in "design" and "review" through the scripted broker, and a way to restart that broker as `next`. */
async function seated(
  broker: Played,
): Promise<{ client: RoundtableClient; restart: (next: Partial<Played>) => Promise<void> }> {
  const server = await fixture.start(playing(broker));
  const client = new RoundtableClient({
    role: "planner",
    connector: () => connectBrokerSocket(server.socketPath, 2000),
  });
  await client.join("design");
  await client.join("review");
  const restart = async (next: Partial<Played>): Promise<void> => {
    const lost = new Promise<void>((resolve) => client.onConnectionLost(() => resolve()));
    Object.assign(broker, { rooms: new Set<string>() }, next);
    for (const socket of server.sockets) socket.destroy();
    await lost;
  };
  return { client, restart };
}

test("a restart is told once, on the first call after it, and a join names the room it recreated", async () => {
  // The same pid, as a restarted broker may get: the instance tells them apart.
  const { client, restart } = await seated({
    brokerPid: 4100,
    brokerInstance: "aaaa",
    store: "memory",
    rooms: new Set(),
  });
  expect(client.takeBrokerRestart()).toBeUndefined();
  await restart({ brokerInstance: "bbbb" });

  // A host's own status text leaves the restart for the model's next call.
  const status = await runRoundtableTool(client, { action: "rooms" }, { tellRestart: false });
  expect(status.text).toBe("No rooms yet: join one to create it.");
  const first = await runRoundtableTool(client, { action: "post", room: "design", body: "still there?" });
  expect(first).toEqual({
    text:
      "The roundtable broker restarted (pid 4100, started again) and kept its rooms in memory, so every room started " +
      "empty: your memberships and the rooms' history are gone. Join your rooms again: design, review.\n" +
      'roundtable post: Not a member of room "design"; join it first',
    isError: true,
  });
  const second = await runRoundtableTool(client, { action: "post", room: "design", body: "still there?" });
  expect(second.text).toBe('roundtable post: Not a member of room "design"; join it first');

  expect(await runRoundtableTool(client, { action: "join", room: "design" })).toEqual({
    text:
      'Joined "design" as planner (room recreated: the broker restarted, and its earlier history is gone). ' +
      "Members: planner. Nothing unread.",
    isError: false,
  });
  // Recreated once: left and joined again, the room is an ordinary one; a room never joined before is new.
  await client.leave("design");
  expect((await runRoundtableTool(client, { action: "join", room: "design" })).text).toBe(
    'Joined "design" as planner. Members: planner. Nothing unread.',
  );
  expect((await runRoundtableTool(client, { action: "join", room: "fresh" })).text).toContain(
    '"fresh" as planner (new room)',
  );
  client.close();
});

test("a lost connection to the same broker is no restart; a broker without an instance is told apart by its pid", async () => {
  const { client, restart } = await seated({
    brokerPid: 4100,
    brokerInstance: undefined,
    store: "memory",
    rooms: new Set(),
  });
  // Same pid, no instance: the broker the client left (its rooms kept, as the stand-in keeps none: joins are its own).
  await restart({ rooms: new Set(["design", "review"]) });
  await client.connect();
  expect(client.takeBrokerRestart()).toBeUndefined();

  await restart({ brokerPid: 4200 });
  await client.connect();
  const told = client.takeBrokerRestart();
  expect(told).toMatchObject({
    previous: { brokerPid: 4100 },
    current: { brokerPid: 4200 },
    rooms: ["design", "review"],
  });
  expect(client.takeBrokerRestart()).toBeUndefined();
  const joined = await client.join("review");
  expect(joined).toMatchObject({ created: true, recreated: true });
  client.close();
});

test("a broker on a shared store keeps its rooms: the notice says only that memberships ended", async () => {
  const store = "redis://orphus:***@10.0.0.5:6379/0";
  const { client, restart } = await seated({ brokerPid: 4100, brokerInstance: "aaaa", store, rooms: new Set() });
  await restart({ brokerPid: 4200, brokerInstance: "bbbb", rooms: new Set(["design", "review"]) });
  const rooms = await runRoundtableTool(client, { action: "join", room: "design" });
  expect(rooms.text).toBe(
    "The roundtable broker restarted (pid 4100 before, pid 4200 now) and keeps its rooms on a shared store, which " +
      "kept them, but your memberships ended with it. Join your rooms again: review.\n" +
      'Joined "design" as planner. Members: planner. Nothing unread.',
  );
  client.close();
});

test("the notice is one bounded line however many rooms were lost, and whatever their names", async () => {
  const { client, restart } = await seated({
    brokerPid: 4100,
    brokerInstance: "aaaa",
    store: "memory",
    rooms: new Set(),
  });
  const hostile = Array.from({ length: 40 }, (_, i) => `${"\u202e\n\u200b".repeat(40)}${i}`);
  for (const room of hostile) await client.join(room);
  await restart({ brokerPid: Number.MAX_SAFE_INTEGER, brokerInstance: "bbbb" });
  const { text } = await runRoundtableTool(client, { action: "rooms" });
  const [notice, rest] = text.split("\n");
  expect(notice?.length).toBeLessThanOrEqual(1000);
  expect(notice).toMatch(
    /^The roundtable broker restarted \(pid 4100 before, pid 9007199254740991 now\) .* and 34 more\.$/,
  );
  expect(notice).not.toMatch(/[\u202e\u200b]/);
  expect(rest).toBe("No rooms yet: join one to create it.");
  client.close();
});

test("after kill -9 of a real broker, the first call says it restarted and the join says the room was recreated", async () => {
  const planner = agent.client({ role: "planner" });
  expect(await runRoundtableTool(planner, { action: "join", room: "design" })).toMatchObject({ isError: false });
  await runRoundtableTool(planner, { action: "post", room: "design", body: "before the crash" });
  const first = planner.broker;
  const lost = new Promise<void>((resolve) => planner.onConnectionLost(() => resolve()));
  process.kill(first?.brokerPid as number, "SIGKILL");
  await lost;

  const after = await runRoundtableTool(planner, { action: "post", room: "design", body: "after the crash" });
  const second = planner.broker;
  expect(second?.brokerInstance).toMatch(/^[0-9a-f]{16}$/);
  expect(second?.brokerInstance).not.toBe(first?.brokerInstance);
  expect(after).toEqual({
    text:
      `The roundtable broker restarted (pid ${first?.brokerPid} before, pid ${second?.brokerPid} now) and kept its ` +
      "rooms in memory, so every room started empty: your memberships and the rooms' history are gone. Join your " +
      'rooms again: design.\nroundtable post: Not a member of room "design"; join it first',
    isError: true,
  });
  expect(await runRoundtableTool(planner, { action: "join", room: "design" })).toEqual({
    text:
      'Joined "design" as planner (room recreated: the broker restarted, and its earlier history is gone). ' +
      "Members: planner. Nothing unread.",
    isError: false,
  });
  expect(await runRoundtableTool(planner, { action: "post", room: "design", body: "after the rejoin" })).toEqual({
    text: 'Posted #1 to "design".',
    isError: false,
  });
});
