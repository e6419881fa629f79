// One role seated twice: two hosts started with the same --as (or a restarted server while another seat still holds
// the role). Real servers over real stdio, a real broker, a native client for the other role. Membership belongs to
// the role (docs/protocol.md, "Membership"), so both seats are in the room the first one joined, and `wait` on
// either seat wakes when another role posts.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createRoundtableClient, TOOL_WAIT_POLL_MS, type RoundtableClient } from "@orphus/roundtable-client";
import { connectSdkStdio, endBroker, shortAgentDir } from "./support/stdio.js";

let agent: ReturnType<typeof shortAgentDir>;
let seatA: Client;
let seatB: Client;
let planner: RoundtableClient;
let brokerPid: number | undefined;

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { text: string }[];
    isError?: boolean;
  };
  return { text: result.content[0]?.text ?? "", isError: result.isError === true };
}

beforeAll(async () => {
  agent = shortAgentDir();
  planner = createRoundtableClient({ role: "planner", agentDir: agent.dir });
  brokerPid = (await planner.connect()).brokerPid;
  [{ client: seatA }, { client: seatB }] = await Promise.all([
    connectSdkStdio("codex", agent.dir),
    connectSdkStdio("codex", agent.dir),
  ]);
});

afterAll(async () => {
  planner?.close();
  await seatA?.close();
  await seatB?.close();
  if (agent !== undefined) {
    await endBroker(agent.dir, brokerPid);
    agent.remove();
  }
});

test("the seat that did not join is in the room too: rooms, digest and post work from it", async () => {
  await planner.join("council");
  expect(await call(seatA, "roundtable_join", { room: "council" })).toMatchObject({ isError: false });
  await planner.post("council", "agenda: one membership model");
  expect(await call(seatB, "roundtable_rooms")).toEqual({
    text: "council: 2 members, newest #1, joined, 1 unread",
    isError: false,
  });
  expect((await call(seatB, "roundtable_digest", { room: "council" })).text).toContain("agenda: one membership model");
  // The read position is the role's: seat A has nothing unread now.
  expect(await call(seatA, "roundtable_rooms")).toEqual({
    text: "council: 2 members, newest #1, joined, 0 unread",
    isError: false,
  });
  expect(await call(seatB, "roundtable_post", { room: "council", body: "seat B speaking" })).toEqual({
    text: 'Posted #2 to "council".',
    isError: false,
  });
});

test(`wait on either seat wakes when another role posts (within its poll interval, ${TOOL_WAIT_POLL_MS} ms, at worst)`, async () => {
  const waitingA = call(seatA, "roundtable_wait", { room: "council", timeoutSeconds: 60 });
  const waitingB = call(seatB, "roundtable_wait", { room: "council", timeoutSeconds: 60 });
  // Each wait listens before it looks; a round trip on each seat after starting them lets both subscribe first (and
  // a wait that had not would find the post unread when it looks, or at its next poll: the answer is the same).
  await Promise.all([call(seatA, "roundtable_rooms"), call(seatB, "roundtable_rooms")]);
  await planner.post("council", "decision: membership belongs to the role");
  // The test's own timeout (far below the 60 s wait) is what "wakes" is held to.
  expect(await waitingA).toEqual({ text: "council: 1 unread. Digest to read.", isError: false });
  expect(await waitingB).toEqual({ text: "council: 1 unread. Digest to read.", isError: false });
}, 20_000);

test("leave from the seat that never joined takes the role out; the other seat is out too", async () => {
  expect(await call(seatB, "roundtable_leave", { room: "council" })).toEqual({
    text: 'Left room "council".',
    isError: false,
  });
  expect(await call(seatA, "roundtable_rooms")).toEqual({
    text: "council: 1 member, newest #3, not joined",
    isError: false,
  });
  expect(await call(seatA, "roundtable_post", { room: "council", body: "still here?" })).toEqual({
    text: 'roundtable post: Not a member of room "council"; join it first',
    isError: true,
  });
  expect(await call(seatA, "roundtable_leave", { room: "council" })).toEqual({
    text: 'Not in room "council"; nothing to leave.',
    isError: false,
  });
  expect((await planner.members("council")).members).toEqual(["planner"]);
});
