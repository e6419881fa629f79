import { afterEach, expect, test, vi } from "vitest";
import { globalTimers } from "@orphus/internal";

afterEach(() => {
  vi.useRealTimers();
});

test("the global timers are looked up on every call, so fake timers installed later drive them", () => {
  vi.useFakeTimers();
  let fired = 0;
  globalTimers.setTimeout(() => fired++, 1000);
  const cleared = globalTimers.setTimeout(() => fired++, 1000);
  globalTimers.clearTimeout(cleared);
  vi.advanceTimersByTime(999);
  expect(fired).toBe(0);
  vi.advanceTimersByTime(1);
  expect(fired).toBe(1);
});
