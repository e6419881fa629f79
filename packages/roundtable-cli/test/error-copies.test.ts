// The CLI reads the client's and the protocol's errors by their code: an error thrown by another copy of those
// packages (the CLI's bin bundled beside an installed client, two versions under one host) gets the exit code and
// the wording one of its own copy gets.
import { expect, test } from "vitest";
import { fromAnotherCopy } from "../../../test-support/another-copy.js";
import { BrokerNotRunningError, WireRefusalError } from "@orphus/roundtable-client";
import { CLI_EXIT, runCli } from "@orphus/roundtable-cli";
import { useAgentDir } from "../../../test-support/brokers.js";
import { cliIo } from "./support/cli-io.js";

const agent = useAgentDir();

/** Io whose client fails its connect with `error`. */
function failingWith(error: Error): ReturnType<typeof cliIo> {
  const io = cliIo(agent);
  return cliIo(agent, { clientOptions: { ...io.clientOptions, connector: () => Promise.reject(error) } });
}

test("no broker running, said by another copy of the client: exit 3 and its message", async () => {
  const missing = fromAnotherCopy(new BrokerNotRunningError("/run/roundtable/broker.sock"));
  expect(missing instanceof BrokerNotRunningError).toBe(false);
  const io = failingWith(missing);
  expect(await runCli(["status"], io)).toBe(CLI_EXIT.noBroker);
  expect(io.err()).toBe(
    "roundtable: No roundtable broker is running on /run/roundtable/broker.sock; the first session to use a room starts one\n",
  );
});

test("a text over the broker's limit, refused through another copy of the protocol: a usage error, exit 2", async () => {
  const refusal = fromAnotherCopy(
    new WireRefusalError(
      {
        code: "ERR_BODY_TOO_LARGE",
        message: "Message body is 70000 UTF-8 bytes; the maximum is 1024 bytes",
        details: {},
      },
      "post",
    ),
  );
  expect(refusal instanceof WireRefusalError).toBe(false);
  const io = failingWith(refusal);
  expect(await runCli(["post", "design", "hello"], io)).toBe(CLI_EXIT.usage);
  expect(io.err()).toBe(
    "roundtable: Message body is 70000 UTF-8 bytes; the maximum is 1024 bytes\n(roundtable --help shows the usage)\n",
  );
  expect(agent.spawned).toEqual([]);
});
