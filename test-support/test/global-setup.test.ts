import { afterEach, expect, test, vi } from "vitest";
import { resolveSeed } from "../fast-check-seed.js";
import setup from "../global-setup.js";

afterEach(() => vi.restoreAllMocks());

test("the fast-check seed line is printed once per run, though vitest runs the setup once per project", () => {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("orphus.fast-check-seed-printed")];
  const lines: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
  const teardowns = Array.from({ length: 10 }, () => setup());
  for (const teardown of teardowns.reverse()) teardown();
  expect(lines.filter((line) => line.startsWith("fast-check seed: "))).toEqual([
    `fast-check seed: ${resolveSeed()} (replay with FC_SEED=${resolveSeed()})\n`,
  ]);
});
