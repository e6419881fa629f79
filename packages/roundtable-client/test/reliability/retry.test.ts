// Retry after a timeout: the broker is stopped (SIGSTOP) while posts are in flight, so their replies time out
// although the broker will store them once it runs again. A short stop is ridden out by the client's own retry with
// the same key; a long one surfaces RequestTimeoutError saying the post may have been stored, and the caller retries
// with its key. Every post is then stored exactly once. A control client that posts without keys and retries
// blindly shows what the keys prevent.
import { expect, test } from "vitest";
import { RequestTimeoutError, createRoundtableClient, type RoundtableClient } from "@orphus/roundtable-client";
import {
  bounded,
  onCleanup,
  report,
  sleep,
  spawnBroker,
  useHarness,
} from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

const CLIENTS = 8;
const POSTS = 12;
const TIMEOUT_MS = 250;
/** Shorter than two timeouts: the client's second attempt, sent at 250 ms, is answered once the broker resumes. */
const SHORT_STOP_MS = 400;
/** Longer than two timeouts: the post fails to its caller, who retries with the key until the broker is back. */
const LONG_STOP_MS = 1500;
const ROOM = "retry";

interface Tally {
  timeoutsSurfaced: number;
  answeredAsRepeat: number;
  blindRetries: number;
}

function client(agentDir: string, role: string): RoundtableClient {
  const made = createRoundtableClient({
    agentDir,
    role,
    spawnBroker: false,
    requestTimeoutMs: TIMEOUT_MS,
    onWarning: () => undefined,
  });
  onCleanup(() => made.close());
  return made;
}

/** Posts until the broker acknowledges, retrying a timed-out post with its key: what a careful caller does. */
async function postKeyed(me: RoundtableClient, body: string, tally: Tally): Promise<void> {
  let key: string | undefined;
  for (;;) {
    try {
      const posted = await me.post(ROOM, body, key === undefined ? {} : { idempotencyKey: key });
      if (posted.repeated === true) tally.answeredAsRepeat++;
      return;
    } catch (error) {
      if (!(error instanceof RequestTimeoutError)) throw error;
      expect(error.mayHaveBeenStored).toBe(true);
      tally.timeoutsSurfaced++;
      key = error.idempotencyKey;
    }
  }
}

/** Posts without a key and retries blindly on a timeout: what a caller without idempotency keys can only do. */
async function postBlind(me: RoundtableClient, body: string, tally: Tally): Promise<void> {
  for (;;) {
    try {
      await me.request("post", { room: ROOM, body });
      return;
    } catch (error) {
      if (!(error instanceof RequestTimeoutError)) throw error;
      tally.blindRetries++;
    }
  }
}

test("posts in flight while the broker is stopped: retried with their key, each stored once", async () => {
  const bundles = harness.bundles();
  const agentDir = tempDir();
  const broker = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
  let stopped = false;
  onCleanup(() => {
    if (stopped) process.kill(broker.pid, "SIGCONT");
  });
  const writers = Array.from({ length: CLIENTS }, (_, i) => client(agentDir, `w${i}`));
  const control = client(agentDir, "blind");
  const observer = client(agentDir, "observer");
  for (const me of [...writers, control, observer]) await me.join(ROOM);
  const tally: Tally = { timeoutsSurfaced: 0, answeredAsRepeat: 0, blindRetries: 0 };

  /** Every writer (and the control) posts post number `n`, all at once; the broker is stopped for `stopMs` meanwhile. */
  const round = async (n: number, stopMs: number): Promise<void> => {
    if (stopMs > 0) {
      process.kill(broker.pid, "SIGSTOP");
      stopped = true;
    }
    const posting = Promise.all([
      ...writers.map((me) => postKeyed(me, `${me.role} #${n}`, tally)),
      postBlind(control, `blind #${n}`, tally),
    ]);
    if (stopMs > 0) {
      await sleep(stopMs);
      process.kill(broker.pid, "SIGCONT");
      stopped = false;
    }
    await bounded(`round ${n}`, 20_000, posting);
  };
  for (let n = 1; n <= POSTS; n++) {
    await round(n, n === 4 ? SHORT_STOP_MS : n === 8 ? LONG_STOP_MS : 0);
  }

  const stored = new Map<string, number>();
  for (let after = 0; ;) {
    const page = await observer.fetch(ROOM, { afterSeq: after, limit: 200 });
    for (const message of page.messages) stored.set(message.body, (stored.get(message.body) ?? 0) + 1);
    const last = page.messages[page.messages.length - 1];
    if (!page.more || last === undefined) break;
    after = last.seq;
  }
  const keyedBodies = writers.flatMap((me) => Array.from({ length: POSTS }, (_, i) => `${me.role} #${i + 1}`));
  const keyedCopies = keyedBodies.map((body) => stored.get(body) ?? 0);
  const storedTwice = keyedCopies.filter((copies) => copies > 1).length;
  expect(keyedCopies).toEqual(keyedBodies.map(() => 1));
  // The stops did what they are for: posts timed out, and retries found them already stored.
  expect(tally.answeredAsRepeat).toBeGreaterThanOrEqual(CLIENTS);
  expect(tally.timeoutsSurfaced).toBeGreaterThanOrEqual(CLIENTS);
  const blindCopies = Array.from({ length: POSTS }, (_, i) => stored.get(`blind #${i + 1}`) ?? 0);
  expect(blindCopies.every((copies) => copies >= 1)).toBe(true);
  report("retry after timeout", {
    writers: CLIENTS,
    keyedPosts: keyedBodies.length,
    stops: `${SHORT_STOP_MS}ms,${LONG_STOP_MS}ms`,
    requestTimeoutMs: TIMEOUT_MS,
    timeoutsSurfacedToCallers: tally.timeoutsSurfaced,
    retriesAnsweredAsRepeat: tally.answeredAsRepeat,
    postsStoredTwice: storedTwice,
    controlBlindRetries: tally.blindRetries,
    controlPostsStoredMoreThanOnce: blindCopies.filter((copies) => copies > 1).length,
    controlExtraCopies: blindCopies.reduce((sum, copies) => sum + copies - 1, 0),
  });
});
