import { expect, test } from "vitest";
import { manualTimers } from "../manual-timers.js";

test("nothing fires until the clock is advanced; then each due timer fires in order, the clock at its due time", () => {
  const timers = manualTimers();
  const seen: string[] = [];
  timers.setTimeout(() => seen.push(`b@${timers.now()}`), 200);
  timers.setTimeout(() => seen.push(`a@${timers.now()}`), 100);
  const cleared = timers.setTimeout(() => seen.push("cleared"), 50);
  timers.clearTimeout(cleared);
  expect(timers.pending()).toEqual([
    { ms: 100, due: 100 },
    { ms: 200, due: 200 },
  ]);
  expect(timers.advance(99)).toBe(0);
  expect(seen).toEqual([]);
  expect(timers.advance(101)).toBe(2);
  expect(seen).toEqual(["a@100", "b@200"]);
  expect(timers.now()).toBe(200);
  expect(timers.asked()).toEqual([200, 100, 50]);
});

test("a timer scheduled by a timer fires in the same advance when it falls due within it, and not before", () => {
  const timers = manualTimers({ start: 1_000 });
  const seen: number[] = [];
  const tick = (): void => {
    seen.push(timers.now());
    timers.setTimeout(tick, 250);
  };
  timers.setTimeout(tick, 250);
  expect(timers.advance(1_000)).toBe(4);
  expect(seen).toEqual([1_250, 1_500, 1_750, 2_000]);
  expect(timers.pending()).toEqual([{ ms: 250, due: 2_250 }]);
});

test("fire runs the timers of one delay (or all) now, without moving the clock; one cleared by another does not run", () => {
  const timers = manualTimers();
  const seen: string[] = [];
  let idle: unknown;
  timers.setTimeout(() => {
    seen.push("hello timeout");
    timers.clearTimeout(idle);
  }, 750);
  idle = timers.setTimeout(() => seen.push("idle"), 5_000);
  timers.setTimeout(() => seen.push("watch"), 1_000);
  expect(timers.fire(1_000)).toBe(1);
  expect(timers.fire()).toBe(1);
  expect(seen).toEqual(["watch", "hello timeout"]);
  expect(timers.pending()).toEqual([]);
  expect(timers.now()).toBe(0);
});

test("with runAtOnce each timer runs in the next turn, the clock jumping by what it asked for", async () => {
  const timers = manualTimers({ runAtOnce: true });
  const pause = (ms: number): Promise<void> => new Promise((resolve) => timers.setTimeout(resolve, ms));
  await pause(10);
  await pause(20);
  const never = timers.setTimeout(() => expect.fail("a cleared timer ran"), 5);
  timers.clearTimeout(never);
  await pause(40);
  expect(timers.now()).toBe(70);
  expect(timers.asked()).toEqual([10, 20, 5, 40]);
});
