import { expect, test } from "vitest";
import { eventually, until } from "../poll.js";

test("until resolves once the condition holds; eventually resolves with the first attempt that does not throw", async () => {
  let looks = 0;
  await until(() => ++looks === 3, { everyMs: 1 });
  expect(looks).toBe(3);
  let attempts = 0;
  const value = await eventually(
    async () => {
      if (++attempts < 3) throw new Error("not yet");
      return "ready";
    },
    { everyMs: 1 },
  );
  expect([value, attempts]).toEqual(["ready", 3]);
});

test("the deadline is a hang guard that names what was waited for and why it is not so", async () => {
  await expect(until(() => false, { timeoutMs: 20, everyMs: 5, what: "the broker exits" })).rejects.toThrow(
    /^the broker exits: still not so after 20 ms \(still false: /,
  );
  await expect(
    eventually(
      () => {
        throw new Error("ECONNREFUSED");
      },
      { timeoutMs: 20, everyMs: 5, what: "the socket answers" },
    ),
  ).rejects.toThrow("the socket answers: still not so after 20 ms (ECONNREFUSED)");
});

test("what a condition throws ends the wait at once", async () => {
  let looks = 0;
  const failing = until(() => {
    looks++;
    throw new Error("unexpected refusal");
  });
  await expect(failing).rejects.toThrow("unexpected refusal");
  expect(looks).toBe(1);
});
