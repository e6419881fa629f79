// The scripted deliberation of `pnpm demo`: three roles settle how to add retries to a webhook sender, and a
// librarian files the decision in the shared memory. Some turns are long (a plan, a review, a test matrix, a log), as
// real agent messages are; the room keeps them all in full, and an agent reads one whole only when it asks.

/** The roles that speak, in the order they start. */
export const DEMO_ROLES = ["planner", "critic", "reviewer", "librarian"] as const;

/** One of {@link DEMO_ROLES}. */
export type DemoRole = (typeof DEMO_ROLES)[number];

/** What a role does with the shared memory before it speaks (the `memory` tool of @orphus/memory). */
export type MemoryStep =
  /** Files the message it just fetched whole, under this title (the librarian only may). */
  | { readonly action: "ingest"; readonly title: string; readonly tags: readonly string[] }
  /** Asks the memory, within a character budget. */
  | { readonly action: "query"; readonly query: string; readonly budget: number };

/** One scripted message. */
export interface Turn {
  readonly role: DemoRole;
  readonly headline: string;
  readonly body: string;
  /** The role goes off to work before this turn: a quiet period, so activity pings go out. */
  readonly pauseBefore?: boolean;
  /** Before speaking, the role fetches this message whole (its digest showed only an excerpt or a headline). */
  readonly fetchBefore?: number;
  /** Before speaking (after any fetch), the role uses the memory tool once. */
  readonly memory?: MemoryStep;
}

/** The room the roles deliberate in. */
export const DEMO_ROOM = "webhook-retries";

/** A long message: a title, then numbered points, each a paragraph. */
function long(title: string, points: readonly string[], closing: string): string {
  return [title, "", ...points.map((point, i) => `${i + 1}. ${point}`), "", closing].join("\n");
}

/** A deterministic excerpt of delivery logs: what agents paste into rooms as evidence. */
export function deliveryLog(lines: number, seed: number): string {
  const outcomes = [
    "timeout elapsed=30002ms",
    "status=503 elapsed=412ms",
    "ECONNREFUSED elapsed=3ms",
    "status=200 elapsed=188ms",
    "status=429 retry-after=none",
  ];
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const n = (seed * 7919 + i * 104_729) % 9973;
    const minute = String(10 + (i % 50)).padStart(2, "0");
    out.push(
      `2026-11-2${seed % 7}T03:${minute}:${String((n * 13) % 60).padStart(2, "0")}Z webhook.send order=ord_${4000 + n} ` +
        `endpoint=hooks.merchant-${n % 41}.example attempt=1 ${outcomes[n % outcomes.length]}`,
    );
  }
  return out.join("\n");
}

const schema = `Appendix A, schema:

CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY,
  order_id         text NOT NULL,
  endpoint_id      uuid NOT NULL REFERENCES endpoints(id),
  payload_ref      text NOT NULL,          -- tokenised payload, purged on dead
  state            text NOT NULL CHECK (state IN ('pending', 'in_flight', 'delivered', 'dead')),
  attempt          int  NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  lease_until      timestamptz,
  last_status      int,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';

Appendix B, claim query:

WITH due AS (
  SELECT d.id FROM webhook_deliveries d
  WHERE d.state = 'pending' AND d.next_attempt_at <= now()
    AND (SELECT count(*) FROM webhook_deliveries f
         WHERE f.endpoint_id = d.endpoint_id AND f.state = 'in_flight') < 4
  ORDER BY d.next_attempt_at
  LIMIT 50
  FOR UPDATE SKIP LOCKED
)
UPDATE webhook_deliveries SET state = 'in_flight', lease_until = now() + interval '2 minutes'
WHERE id IN (SELECT id FROM due) RETURNING *;`;

const fakeReceiver = `Design of the fake receiver the matrix runs against:

type Step = { status: number; delayMs?: number; headers?: Record<string, string> } | { hang: true } | { refuse: true };

class FakeReceiver {
  #scripts = new Map<string, Step[]>();   // per endpoint path, consumed in order
  #seen: { path: string; key: string; at: number; bodySha: string }[] = [];
  script(path: string, ...steps: Step[]) { this.#scripts.set(path, steps); }
  async handle(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    const key = req.headers.get("idempotency-key") ?? "(none)";
    this.#seen.push({ path, key, at: clock.now(), bodySha: sha256(await req.arrayBuffer()) });
    const step = this.#scripts.get(path)?.shift() ?? { status: 200 };
    if ("hang" in step) return new Promise(() => {});
    if ("refuse" in step) throw new ConnectionRefused();
    await clock.sleep(step.delayMs ?? 0);
    return new Response(null, { status: step.status, headers: step.headers });
  }
  attempts(path: string) { return this.#seen.filter((s) => s.path === path); }
}

Every test gets a fresh receiver and a fake clock, so the retry schedule runs in milliseconds and the assertions
are on the recorded attempts: how many, how far apart, with which key and which body hash.`;

const planSteps = [
  "Move delivery out of the request path. Today `sendWebhook` runs inline in the order handler, so a slow receiver stalls checkout. Enqueue a delivery record instead (order id, endpoint, payload digest, attempt 0) and let a worker pool drain it.",
  "Persist the queue in the existing Postgres instance, one table `webhook_deliveries` with a partial index on `(next_attempt_at) WHERE state = 'pending'`. No new infrastructure: the team already operates Postgres, and volume is under 50 deliveries per second at peak.",
  "Retry schedule: exponential backoff from 30 seconds, doubling, capped at 6 hours, with full jitter, for at most 12 attempts (roughly 26 hours in total). After the last attempt the delivery moves to `dead` and an alert fires once per endpoint per hour.",
  "Retry only what can succeed later: connection errors, timeouts, HTTP 408, 425, 429 and 5xx. Everything else in 4xx is the receiver telling us the payload is wrong, and retrying it only repeats the refusal, so those go straight to `dead` with the response body kept for support.",
  "Honour `Retry-After` on 429 and 503 when it is present and under 6 hours; otherwise fall back to the schedule. Never retry sooner than the schedule says, so a misconfigured receiver cannot pull us into a tight loop.",
  "Sign every attempt with the same HMAC over the same bytes and include an `Idempotency-Key` header equal to the delivery id, so receivers can drop duplicates. Document that at-least-once is the contract.",
  "Workers claim rows with `SELECT ... FOR UPDATE SKIP LOCKED LIMIT 50`, mark them in-flight with a lease of 2 minutes, and write the outcome back in the same transaction that releases the lease. A crashed worker's rows come back when the lease expires.",
  "Per-endpoint concurrency limit of 4 in-flight deliveries, so one slow receiver cannot occupy the whole pool. Implement it as a count in the claim query rather than an in-memory semaphore, so it holds across workers.",
  "Observability: a counter per outcome (delivered, retrying, dead) labelled by endpoint host, a histogram of end-to-end latency from enqueue to 2xx, and the age of the oldest pending row as the one number on the dashboard.",
  "Roll out behind a flag per merchant: shadow mode first (enqueue and log, still send inline), then switch ten merchants, then everyone. The inline path stays for one release as the fallback.",
];

const review = [
  "Ordering. Two updates to the same order can now be delivered out of order: attempt 1 of update A fails, update B succeeds, then A's retry lands and the receiver's state goes backwards. Either we promise nothing about order and say so loudly, or deliveries for one order must be serialized. I lean towards serializing per order id: the claim query can skip rows whose order has an older pending row.",
  "The 26-hour window is longer than our payload retention for card data, which is 24 hours. A retry on hour 25 would either send a payload we are no longer allowed to hold or fail to build one. Cap the schedule at 20 hours, or store payloads tokenised.",
  "Full jitter on a 30-second base means the first retry can fire after 0 seconds. Receivers that fell over under load will get the retry storm we are trying to avoid. Use decorrelated jitter with a floor, or equal jitter, so the minimum delay is half the step.",
  "429 without `Retry-After` is common. The plan falls back to the schedule, which restarts at 30 seconds for every new delivery to that endpoint; under sustained rate limiting we would keep hammering. Track a per-endpoint cool-down, not only a per-delivery schedule.",
  "`SKIP LOCKED` with a lease is fine, but the lease and the HTTP timeout must be related: if the timeout is 30 seconds and the lease 2 minutes, a worker that hangs in DNS for 3 minutes will see its row re-claimed and both will send. Set the lease to at least three times the total request deadline and enforce that deadline, DNS included.",
  "Dead-lettering 4xx immediately is right for 400 and 422, but 401 and 403 often come from a receiver rotating its secret. Those deserve a few slow retries and a merchant-facing notice, not silence.",
  "The alert once per endpoint per hour will page someone at night for a merchant's staging endpoint. Alert on the rate of dead deliveries across merchants, and send per-merchant notices by email.",
];

const matrix = [
  "Happy path: 2xx on the first attempt; one row, state `delivered`, latency recorded, no retry scheduled.",
  "Receiver down: connection refused on attempts 1 to 3, 2xx on 4; three retries spaced per schedule with the jitter floor respected, the same Idempotency-Key on every attempt, final state `delivered`.",
  "Timeout: the receiver accepts the connection and never answers; the attempt ends at the request deadline, the lease is still held, the retry is scheduled once and only once.",
  "Hard 4xx: 400 and 422 go to `dead` after one attempt with the response body kept; 401 and 403 retry three times at the slow schedule and raise a merchant notice.",
  "Rate limited: 429 with `Retry-After: 120` waits at least 120 seconds; 429 without it sets the endpoint cool-down and the next delivery to that endpoint waits for it too.",
  "Ordering: two updates to one order, the first failing twice; the second is not sent before the first succeeds or dies.",
  "Worker crash: kill a worker mid-request; the row returns after the lease, is sent again with the same key, and the counter shows one retry, not a lost delivery.",
  "Retention: a delivery still failing at the 20-hour cap goes to `dead` and its payload is purged, verified by querying the payload table.",
  "Flag off: with the merchant flag off nothing is enqueued and the inline path behaves exactly as today, byte for byte on the wire.",
  "Load: 200 deliveries per second for 10 minutes against a receiver that fails 30% of requests; the oldest pending age stays under 5 minutes and no endpoint exceeds 4 in flight.",
];

/** The deliberation, in order. */
export const DEMO_SCRIPT: readonly Turn[] = [
  {
    role: "planner",
    headline: "Kick-off: webhook retries",
    body: "Kick-off. Merchants lose webhooks whenever their endpoint blips: we send once, inline, and forget. Goal for this room: agree a retry design we can build this sprint. I will post a plan; critic, please tear it apart; reviewer, please own the test plan.",
  },
  {
    role: "critic",
    headline: "Ack; constraints first",
    body: "Ack. Before the plan: what does the contract promise today? If merchants assume exactly-once, any retry changes behaviour they depend on.",
  },
  {
    role: "critic",
    headline: "Evidence: last week's failed sends",
    body: `Evidence, so we design for the real failure mix. 48 failed first attempts from last Tuesday's incident window, unedited:\n\n${deliveryLog(48, 3)}\n\nTimeouts and 503s dominate; refusals cluster on two merchants; the 429s carry no Retry-After at all.`,
  },
  {
    role: "reviewer",
    headline: "Ack; will draft tests",
    body: "Ack. I will draft a test matrix once the plan lands. Please name states and transitions explicitly so the tests can.",
  },
  {
    role: "planner",
    headline: "Contract is silent: at-least-once",
    body: "The published contract says nothing about delivery guarantees. Support tickets show merchants already dedupe on order id, so at-least-once is the honest promise. I will write it down.",
  },
  {
    role: "planner",
    headline: "Plan v1: queue, backoff, dead-letter",
    body: `${long("Plan v1: durable delivery queue with retries", planSteps, "Open questions: ordering per order, and whether 12 attempts is too many. Comments welcome on every step.")}\n\n${schema}`,
  },
  {
    role: "critic",
    headline: "Review of plan v1: 7 concerns",
    body: long(
      "Review of plan v1. The shape is right; these need answers before we build:",
      review,
      "Blocking: 1 (ordering) and 2 (retention). The rest can be fixed in review.",
    ),
  },
  {
    role: "reviewer",
    headline: "Agree ordering is blocking",
    body: "Agree that ordering blocks: without it I cannot write a deterministic test for two updates to one order. Retention too, since compliance will ask.",
  },
  {
    role: "planner",
    headline: "Serialize per order; cap at 20 h",
    body: "Accepted both blockers. Deliveries for one order are serialized: the claim query skips a row whose order has an older pending or in-flight row. Schedule capped at 20 hours; payloads purged when a delivery dies.",
  },
  {
    role: "critic",
    headline: "Serialization can wedge an order",
    body: "Serialization has a cost: one dead-slow delivery blocks every later update of that order for up to 20 hours. Fine for correctness, but the merchant sees nothing for a day. Add a per-order notice when the head of the line has failed for an hour.",
  },
  {
    role: "planner",
    headline: "Add head-of-line notice after 1 h",
    body: "Agreed: a notice per order when its oldest pending delivery has failed for an hour, sent once.",
  },
  {
    role: "reviewer",
    headline: "Jitter floor question",
    body: "On jitter: the critic suggested a floor. Which one? I need a number to assert against.",
  },
  {
    role: "critic",
    headline: "Equal jitter: min half the step",
    body: "Equal jitter: delay = step/2 + random(0, step/2). The first retry lands between 15 and 30 seconds, never at zero.",
  },
  {
    role: "reviewer",
    headline: "Test matrix v1 (10 cases)",
    pauseBefore: true,
    body: long(
      "Test matrix v1. Each case names the states it passes through:",
      matrix,
      "Cases 2, 5 and 6 need a fake receiver with scripted responses; I will build it first. Case 10 runs nightly, not per commit.",
    ),
  },
  { role: "reviewer", headline: "Fake receiver design", body: fakeReceiver },
  {
    role: "planner",
    headline: "Matrix looks complete",
    body: "The matrix covers every transition in the plan. One addition: a receiver that returns 2xx slowly, right at the deadline, to pin down which side of the deadline counts as success.",
  },
  {
    role: "reviewer",
    headline: "Added case 11: slow 2xx",
    body: "Added case 11: 2xx arriving 50 ms before the deadline counts as delivered; 50 ms after, the attempt is a timeout and the retry carries the same key.",
  },
  {
    role: "critic",
    headline: "429 cool-down design?",
    body: "Still open from my review: the per-endpoint cool-down on 429. Where does it live? If it is in memory, every worker learns it separately and the receiver gets hit once per worker.",
  },
  {
    role: "planner",
    headline: "Cool-down in endpoints table",
    body: "In the endpoints table: `cooldown_until`, set on 429 (Retry-After or 60 s doubling per consecutive 429, capped at 30 minutes), read by the claim query. One source of truth across workers.",
  },
  {
    role: "critic",
    headline: "OK; reset rule?",
    body: "Good. When does it reset? After the first 2xx, or after a quiet period? Resetting on the first 2xx lets a receiver oscillate us.",
  },
  {
    role: "planner",
    headline: "Reset after 3 consecutive 2xx",
    body: "Reset after three consecutive 2xx. A single success halves it instead of clearing it.",
  },
  {
    role: "reviewer",
    headline: "Lease vs deadline: numbers",
    body: "For the lease: total request deadline 30 s including DNS and TLS, lease 2 minutes, so the ratio is 4. I will add a test that a hung DNS lookup ends at 30 s and does not outlive the lease.",
  },
  {
    role: "critic",
    headline: "401/403 retries: how many?",
    body: "For 401 and 403: three retries at 10, 30 and 90 minutes, then dead with a merchant email explaining that their endpoint refused our signature.",
  },
  {
    role: "planner",
    headline: "Plan v2 posted",
    pauseBefore: true,
    body: long(
      "Plan v2, folding in the review. Changes from v1 are marked.",
      [
        ...planSteps.slice(0, 2),
        "CHANGED: retry schedule with equal jitter (first retry between 15 and 30 seconds), doubling, capped at 6 hours between attempts and 20 hours in total; payloads purged when a delivery dies.",
        "CHANGED: retry connection errors, timeouts, 408, 425, 429 and 5xx; 401 and 403 retry three times at 10, 30 and 90 minutes with a merchant notice; other 4xx go straight to dead.",
        "CHANGED: per-endpoint cool-down in the endpoints table, set on 429, reset after three consecutive 2xx.",
        "NEW: deliveries for one order are serialized; a notice goes out when the head of an order's line has failed for an hour.",
        ...planSteps.slice(5, 7),
        "CHANGED: request deadline 30 s including DNS and TLS; lease 2 minutes.",
        ...planSteps.slice(8),
      ],
      "If nobody objects, this is what we build. Reviewer: matrix v2 against this, please.",
    ),
  },
  {
    role: "critic",
    headline: "Plan v2: no blockers",
    body: "Read v2. No blockers. One nit: step 9 should say the dashboard's oldest-pending age is per shard once we shard, or it will hide one stuck shard behind healthy ones.",
  },
  { role: "planner", headline: "Nit taken", body: "Taken: oldest-pending age per shard." },
  {
    role: "reviewer",
    headline: "Matrix v2: 13 cases",
    body: long(
      "Test matrix v2 against plan v2:",
      [
        ...matrix,
        "Slow 2xx at the deadline boundary: 50 ms before counts as delivered, 50 ms after is a timeout and the retry reuses the key.",
        "Cool-down: three 429s in a row raise it to 240 s; one 2xx halves it; three 2xx clear it.",
        "Head-of-line notice: an order whose oldest delivery has failed for 61 minutes produces exactly one notice.",
      ],
      "I will start with the fake receiver and cases 1, 2, 4 and 6 today.",
    ),
  },
  {
    role: "critic",
    headline: "Case 6 needs two orders",
    body: "Case 6 should also run with two different orders interleaved, to show serialization does not leak across orders.",
  },
  {
    role: "reviewer",
    headline: "Case 6b added",
    body: "Added 6b: two orders, interleaved updates, order B proceeds while order A's head is retrying.",
  },
  {
    role: "planner",
    headline: "Rollout owners",
    body: "Rollout: I take the queue table and workers, the critic reviews every migration, the reviewer owns the fake receiver and the matrix. Shadow mode behind the flag by Thursday.",
  },
  {
    role: "critic",
    headline: "Agreed, with one condition",
    body: "Agreed, on one condition: shadow mode compares what it would have sent with what the inline path sent, byte for byte, and we do not leave shadow until a full day shows no difference.",
  },
  {
    role: "reviewer",
    headline: "Shadow diff as case 14",
    body: "Then the shadow comparison is case 14 and it gates the rollout. I will publish its results in this room daily.",
  },
  {
    role: "reviewer",
    headline: "Shadow dry run: 0 diffs in 40 sends",
    body: `Dry run of the shadow comparison on staging traffic. Each line: the inline send, then the queued one, compared byte for byte.\n\n${deliveryLog(40, 5).replace(/attempt=1 .*$/gm, "inline=sha:9f2c… queued=sha:9f2c… diff=none")}\n\n0 differences in 40 sends. Case 14 passes on staging; production shadow starts with the flag.`,
  },
  // The planner reads the dry run whole before deciding: its digest showed an excerpt and the afterSeq to fetch.
  {
    role: "planner",
    headline: "Decision recorded",
    pauseBefore: true,
    fetchBefore: 33,
    body: "Decision: plan v2 with the per-shard nit, matrix v2 with cases 6b and 14, shadow mode gated on a clean day of diffs. Recorded in the design log. Thanks both.",
  },
  {
    role: "critic",
    headline: "Closing: watch the dead rate",
    body: "Closing note: the first number to watch after rollout is the rate of dead deliveries per merchant. If it moves, it is either our 4xx classification or a receiver's secret rotation, and both are worth a look.",
  },
  {
    role: "librarian",
    headline: "Decision filed in memory",
    fetchBefore: 34,
    memory: { action: "ingest", title: "Webhook retries: the decision", tags: ["webhooks", "retries", "decision"] },
    body: 'Filed #34, the decision, in the shared memory: any session can find it with the memory tool (query "webhook retries decision") long after this room is gone.',
  },
  {
    role: "reviewer",
    headline: "Closing: matrix is the spec",
    memory: { action: "query", query: "shadow mode gated decision", budget: 600 },
    body: "Closing: the matrix is now the executable spec of this decision. Any change to the plan starts with a change to a test case.",
  },
];
