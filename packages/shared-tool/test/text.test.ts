// The texts a shared tool shows: bounded after the one sanitiser, values quoted so nothing invisible passes, JSON
// for scripts that loses nothing and hides nothing.
import fc from "fast-check";
import { expect, test } from "vitest";
import { boundedText, shownValue, showableJson } from "@orphus/shared-tool";
import {
  expectShowable,
  hostileString,
  HOSTILE_BODY,
  INVISIBLE_CHARACTERS,
} from "../../../test-support/hostile-text.js";

test("boundedText cuts after sanitising, never inside a surrogate pair, and says how much it left out", () => {
  expect(boundedText("ab\u200bc", 10)).toBe("abc");
  expect(boundedText(`${"😀".repeat(30)}`, 40)).toBe(`${"😀".repeat(9)}… (42 more characters)`);
  expect(boundedText("x".repeat(100), 40, { keep: "end" })).toBe(`(85 characters before) …${"x".repeat(15)}`);
  expect(boundedText("one\r\ntwo\u2028three", 100, { oneLine: true })).toBe("one | two | three");
  fc.assert(
    fc.property(hostileString(300), fc.integer({ min: 0, max: 300 }), fc.boolean(), (text, max, end) => {
      const shown = boundedText(text, max, { keep: end ? "end" : "start" });
      expect(shown.length).toBeLessThanOrEqual(max);
      expectShowable(shown);
    }),
    { numRuns: 1000 },
  );
});

test("shownValue quotes a string escaped and anything else as showable JSON, cut short", () => {
  expect(shownValue("bud\u200bget")).toBe('"bud\\u{200B}get"');
  expect(shownValue({ "bud\u200bget": 1 })).toBe('{"bud\\u200bget":1}');
  expect(shownValue("x".repeat(100))).toBe(`"${"x".repeat(59)}…" (100 characters)`);
  expect(shownValue([1, 2])).toBe("[1,2]");
  fc.assert(
    fc.property(fc.oneof(hostileString(200), fc.dictionary(hostileString(20), hostileString(20))), (value) => {
      const shown = shownValue(value);
      expectShowable(shown);
      expect(shown.length).toBeLessThanOrEqual(60 + 30);
    }),
    { numRuns: 500 },
  );
});

test("showableJson gives the value back exactly, with nothing invisible in its text", () => {
  expect(showableJson({ a: "plain" })).toBe('{"a":"plain"}');
  expect(showableJson("t\u{E0041}g\u202e")).toBe('"t\\udb40\\udc41g\\u202e"');
  expect(showableJson(undefined)).toBeUndefined();
  for (const character of INVISIBLE_CHARACTERS) expect(JSON.parse(showableJson(character) as string)).toBe(character);
  expect(JSON.parse(showableJson({ body: HOSTILE_BODY }, 2) as string)).toEqual({ body: HOSTILE_BODY });
  fc.assert(
    fc.property(
      fc.dictionary(hostileString(10), fc.oneof(hostileString(60), fc.integer(), fc.array(hostileString(10)))),
      (value) => {
        const json = showableJson(value, 2) as string;
        expectShowable(json);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(value)));
      },
    ),
    { numRuns: 500 },
  );
});
