// The client reads the protocol's refusals by their code: a WireRefusalError of another copy of
// @orphus/roundtable-protocol (a caller's own, a second version under one host) is read as one of its own copy.
import { expect, test } from "vitest";
import { fromAnotherCopy } from "../../../test-support/another-copy.js";
import { ConnectionLostError, WireRefusalError, brokerFullFrom, describeToolError } from "@orphus/roundtable-client";

const full = {
  code: "ERR_TOO_MANY_CONNECTIONS" as const,
  message: "The broker already serves 2 connections",
  details: { maxConnections: 2, brokerPid: 4242 },
};

test("a full broker's refusal from another copy of the protocol is a BrokerFullError, alone or as a lost connection's cause", () => {
  const refusal = fromAnotherCopy(new WireRefusalError(full, "hello"));
  expect(refusal instanceof WireRefusalError).toBe(false);
  for (const error of [refusal, new ConnectionLostError("hello", "the broker closed it", { cause: refusal })]) {
    const found = brokerFullFrom(error);
    expect({ name: found?.name, maxConnections: found?.maxConnections, brokerPid: found?.brokerPid }).toEqual({
      name: "BrokerFullError",
      maxConnections: 2,
      brokerPid: 4242,
    });
  }
  expect(brokerFullFrom(Object.assign(new Error("full"), { wireCode: "ERR_TOO_MANY_CONNECTIONS" }))).toBeUndefined();
});

test("a tool error that is a refusal from another copy of the protocol reads as the broker's answer, not a failure", () => {
  const refusal = fromAnotherCopy(
    new WireRefusalError({ code: "ERR_NOT_MEMBER", message: 'Not a member of room "design"; join it first' }, "post"),
  );
  expect(describeToolError("post", refusal)).toBe('roundtable post: Not a member of room "design"; join it first');
  expect(describeToolError("post", new Error("boom"))).toBe("roundtable post failed: boom");
});
