// Posts are safe to retry: every post carries an idempotency key, and the client sends it again with the same key
// after a timeout or a lost connection to the same broker. A model test drives a real broker through a relay that
// loses posts, loses replies and holds replies past their timeout, with cuts, rejoins and manual retries in between,
// and checks after every step that no post is stored twice and every acknowledged post is stored once, at its seq.
import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";
import { startBroker, type Broker } from "@orphus/roundtable-broker";
import { WireRefusalError } from "@orphus/roundtable-protocol";
import {
  ConnectionLostError,
  RequestTimeoutError,
  RoundtableClient,
  connectBrokerSocket,
  runRoundtableTool,
} from "@orphus/roundtable-client";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { FaultyRelay, type PostFault } from "../../../test-support/relay.js";
import { shortTempDir } from "../../../test-support/tmp.js";

const ROOM = "model";
const TIMEOUT_MS = 60_000;
const ATTEMPTS = 3;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface World {
  readonly broker: Broker;
  readonly relay: FaultyRelay;
  readonly client: RoundtableClient;
  readonly observer: RoundtableClient;
}

async function world(): Promise<World> {
  const temp = shortTempDir("rti-");
  cleanups.push(temp.remove);
  const start = await startBroker({ agentDir: temp.dir, registryDir: false, idleMs: 600_000 });
  if (start.status !== "listening") throw new Error("expected a listening broker");
  cleanups.push(() => start.broker.close());
  const relay = await FaultyRelay.start(temp.dir, start.broker.socketPath);
  cleanups.push(() => relay.close());
  const timers = manualTimers();
  // Request timeouts fire only when the relay holds a reply back, never by the clock.
  relay.onStall = () => timers.fire(TIMEOUT_MS);
  const client = new RoundtableClient({
    role: "writer",
    connector: () => connectBrokerSocket(relay.socketPath, 2_000),
    timers,
    requestTimeoutMs: TIMEOUT_MS,
    postAttempts: ATTEMPTS,
  });
  const observer = new RoundtableClient({
    role: "observer",
    connector: () => connectBrokerSocket(start.broker.socketPath, 2_000),
  });
  cleanups.push(
    () => client.close(),
    () => observer.close(),
  );
  await observer.join(ROOM);
  return { broker: start.broker, relay, client, observer };
}

/** Every body stored in the room, by seq (the observer pages through from the start). */
async function stored(observer: RoundtableClient): Promise<Map<number, string>> {
  const bodies = new Map<number, string>();
  for (let after = 0; ;) {
    const page = await observer.fetch(ROOM, { afterSeq: after, limit: 200 });
    for (const message of page.messages) bodies.set(message.seq, message.body);
    const last = page.messages[page.messages.length - 1];
    if (!page.more || last === undefined) return bodies;
    after = last.seq;
  }
}

/** What the model knows of each post: acknowledged at a seq, known not stored, or unknown (it may have been). */
type Fate = { readonly acked: number } | "not-stored" | "unknown";

interface Model {
  member: boolean;
  readonly posts: Map<string, Fate>;
  next: number;
}

/** The post's fate from how `client.post` ended. */
function fateOf(outcome: { seq: number } | unknown): Fate {
  if (typeof outcome === "object" && outcome !== null && "seq" in outcome)
    return { acked: (outcome as { seq: number }).seq };
  // A refusal is an answer: the broker looked for the key, did not find it, and stored nothing.
  if (outcome instanceof WireRefusalError) return "not-stored";
  if (outcome instanceof RequestTimeoutError || outcome instanceof ConnectionLostError) return "unknown";
  throw outcome;
}

async function check(model: Model, real: World): Promise<void> {
  const bodies = await stored(real.observer);
  const copies = new Map<string, number[]>();
  for (const [seq, body] of bodies) copies.set(body, [...(copies.get(body) ?? []), seq]);
  for (const [body, seqs] of copies) expect(seqs, `${body} is stored at most once`).toHaveLength(1);
  for (const [body, fate] of model.posts) {
    if (fate === "not-stored") expect(copies.get(body), `${body} was refused, so it is not stored`).toBeUndefined();
    else if (fate !== "unknown")
      expect(copies.get(body), `${body} was acknowledged at #${fate.acked}`).toEqual([fate.acked]);
  }
}

class Join implements fc.AsyncCommand<Model, World> {
  check = (): boolean => true;
  async run(model: Model, real: World): Promise<void> {
    await real.client.join(ROOM);
    model.member = true;
    await check(model, real);
  }
  toString = (): string => "join";
}

class Post implements fc.AsyncCommand<Model, World> {
  constructor(readonly faults: readonly PostFault[]) {}
  check = (): boolean => true;
  async run(model: Model, real: World): Promise<void> {
    const body = `p${model.next++}`;
    real.relay.faults = [...this.faults];
    const appliedBefore = real.relay.applied.length;
    const outcome = await real.client.post(ROOM, body, { idempotencyKey: body }).catch((error: unknown) => error);
    const applied = real.relay.applied.slice(appliedBefore);
    real.relay.faults = [];
    const fate = fateOf(outcome);
    if (!model.member) expect(fate, "a non-member's post is never stored").not.toHaveProperty("acked");
    model.posts.set(body, fate);
    // A cut ends the role's only connection, and its membership with it.
    if (applied.some((fault) => fault === "lose-request" || fault === "lose-reply")) model.member = false;
    await check(model, real);
  }
  toString = (): string => `post [${this.faults.join(", ")}]`;
}

class Retry implements fc.AsyncCommand<Model, World> {
  check = (model: Readonly<Model>): boolean => [...model.posts.values()].includes("unknown");
  async run(model: Model, real: World): Promise<void> {
    const [body] = [...model.posts].find(([, fate]) => fate === "unknown") as [string, Fate];
    const outcome = await real.client.post(ROOM, body, { idempotencyKey: body }).catch((error: unknown) => error);
    model.posts.set(body, fateOf(outcome));
    await check(model, real);
  }
  toString = (): string => "retry the oldest unknown post with its key";
}

class Cut implements fc.AsyncCommand<Model, World> {
  check = (): boolean => true;
  async run(model: Model, real: World): Promise<void> {
    real.relay.cutAll();
    model.member = false;
    await check(model, real);
  }
  toString = (): string => "cut the connection";
}

describe("idempotent posts", () => {
  test("model: no sequence of timeouts, retries, lost connections and reconnects stores a post twice", async () => {
    const fault = fc.constantFrom<PostFault>("deliver", "lose-request", "lose-reply", "stall");
    const commands = fc.commands(
      [
        fc.constant(new Join()),
        fc.array(fault, { maxLength: ATTEMPTS + 1 }).map((faults) => new Post(faults)),
        fc.constant(new Retry()),
        fc.constant(new Cut()),
      ],
      { maxCommands: 14 },
    );
    await fc.assert(
      fc.asyncProperty(commands, async (sequence) => {
        const real = await world();
        try {
          await fc.asyncModelRun(() => ({ model: { member: false, posts: new Map(), next: 1 }, real }), sequence);
        } finally {
          for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
        }
      }),
      { numRuns: 30 },
    );
  });

  test("a post whose reply was lost with its connection is retried over a new connection and answered once", async () => {
    const real = await world();
    await real.client.join(ROOM);
    real.relay.faults = ["lose-reply"];
    const posted = await real.client.post(ROOM, "once");
    expect(posted).toEqual({ room: ROOM, seq: 1, postedAt: expect.any(Number), repeated: true });
    expect(real.relay.applied).toEqual(["lose-reply", "deliver"]);
    expect(real.client.connectCount).toBe(2);
    expect([...(await stored(real.observer)).values()]).toEqual(["once"]);
  });

  test("a post that timed out on every attempt says it may have been stored, and its key retries it safely", async () => {
    const real = await world();
    await real.client.join(ROOM);
    real.relay.faults = ["stall", "stall", "stall"];
    const error = await real.client.post(ROOM, "slow").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    const timeout = error as RequestTimeoutError;
    expect(timeout).toMatchObject({ code: "ERR_REQUEST_TIMEOUT", mayHaveBeenStored: true, attempts: 3 });
    expect(timeout.idempotencyKey).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(timeout.message).toBe(
      `The roundtable broker did not answer post within ${TIMEOUT_MS} ms (3 attempts); the post may have been stored. ` +
        `Posting again with idempotencyKey "${timeout.idempotencyKey}" cannot store it twice: the broker answers ` +
        "with the original seq if it has the post",
    );
    const retried = await real.client.post(ROOM, "slow", { idempotencyKey: timeout.idempotencyKey as string });
    expect(retried).toMatchObject({ seq: 1, repeated: true });
    expect([...(await stored(real.observer)).values()]).toEqual(["slow"]);
  });

  test("a lost connection to a broker that is gone is not retried, and the retry starts no broker", async () => {
    const real = await world();
    await real.client.join(ROOM);
    const connects: (boolean | undefined)[] = [];
    const client = new RoundtableClient({
      role: "writer",
      connector: (options) => {
        connects.push(options?.spawn);
        return connectBrokerSocket(real.relay.socketPath, 2_000);
      },
    });
    cleanups.push(() => client.close());
    await client.join(ROOM);
    await real.relay.close();
    const error = await client.post(ROOM, "lost").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionLostError);
    // The retry asked for the running broker only; a new one would not have the post (nor the room).
    expect(connects).toEqual([true, false]);
  });

  test("the shared tool posts through it too, with no argument of its own", async () => {
    const real = await world();
    await runRoundtableTool(real.client, { action: "join", room: ROOM });
    real.relay.faults = ["lose-reply"];
    expect(await runRoundtableTool(real.client, { action: "post", room: ROOM, body: "from the tool" })).toEqual({
      text: `Posted #1 to "${ROOM}".`,
      isError: false,
    });
    expect([...(await stored(real.observer)).values()]).toEqual(["from the tool"]);
  });

  test("keys are checked before anything is sent", async () => {
    const real = await world();
    await expect(real.client.post(ROOM, "x", { idempotencyKey: "not a key" })).rejects.toMatchObject({
      code: "ERR_CLIENT_INVALID_OPTION",
    });
    expect(real.relay.applied).toEqual([]);
  });
});
