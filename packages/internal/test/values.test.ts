import { expect, test } from "vitest";
import { isHighSurrogate, isLowSurrogate, isRecord, plural } from "@orphus/internal";

test("isRecord: a plain object, not null and not an array", () => {
  expect([{}, { a: 1 }, Object.create(null)].map(isRecord)).toEqual([true, true, true]);
  expect([null, [], "x", 1, undefined].map(isRecord)).toEqual([false, false, false, false, false]);
});

test("plural: the count and the noun that agrees with it", () => {
  expect([plural(0, "room"), plural(1, "room"), plural(2, "room"), plural(2, "reply", "replies")]).toEqual([
    "0 rooms",
    "1 room",
    "2 rooms",
    "2 replies",
  ]);
});

test("the halves of a surrogate pair", () => {
  const pair = "😀";
  expect([isHighSurrogate(pair.charCodeAt(0)), isLowSurrogate(pair.charCodeAt(1))]).toEqual([true, true]);
  expect([isHighSurrogate(pair.charCodeAt(1)), isLowSurrogate(pair.charCodeAt(0))]).toEqual([false, false]);
  expect([isHighSurrogate(0x41), isLowSurrogate(0x41)]).toEqual([false, false]);
});
