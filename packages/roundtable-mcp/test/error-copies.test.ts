// The server reads the client's errors by their code: a broker start failure thrown by another copy of the client
// (an embedder's own, a second version under one host) is recognised as one.
import { expect, test } from "vitest";
import { fromAnotherCopy } from "../../../test-support/another-copy.js";
import { BrokerStartError } from "@orphus/roundtable-client";
import { FakeToolClient } from "./support/fake-client.js";
import { harness } from "./support/harness.js";

/** A client whose start-up connect fails with `error`. */
class FailingClient extends FakeToolClient {
  constructor(readonly error: Error) {
    super("codex");
  }
  override async connect(): ReturnType<FakeToolClient["connect"]> {
    this.calls.push("connect");
    throw this.error;
  }
}

/** What the server wrote on stderr once its start-up connect failed with `error`, after the host ended the session. */
async function stderrAfter(error: Error): Promise<string> {
  const run = harness(["--as", "codex", "--agent-dir", "/tmp/fleet"], {}, new FailingClient(error));
  await run.initialize();
  // The server answers a failed connect in the microtask after it, long before the poll sees the call.
  await expect.poll(() => run.fake.calls).toContain("connect");
  run.stdin.end();
  expect(await run.exit).toBe(0);
  return run.err();
}

test("a start failure from another copy of the client is not reported again as an unreachable broker", async () => {
  const failed = fromAnotherCopy(
    new BrokerStartError("/tmp/fleet/roundtable/broker.sock", "it exited with code 1", ""),
  );
  expect(failed instanceof BrokerStartError).toBe(false);
  expect(await stderrAfter(failed)).not.toContain("the broker is not reachable yet");
  // Any other failure is: the line that says each call retries.
  expect(await stderrAfter(new Error("connect ECONNREFUSED"))).toContain(
    "orphus-roundtable-mcp: the broker is not reachable yet (each call retries): connect ECONNREFUSED\n",
  );
});
