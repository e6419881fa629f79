import fc from "fast-check";
import { expect, test } from "vitest";
import {
  encodeFrame,
  frameBytes,
  frameText,
  frameTextOfJson,
  joinFrames,
  FrameEncodeError,
  FrameTooLargeError,
  type FrameText,
} from "@orphus/framing";

// Strings with every kind of character JSON carries: ASCII, Latin-1, astral, lone surrogates, controls.
const anyString = fc.string({ unit: "binary", maxLength: 40 });
const anyValue = fc.oneof(fc.jsonValue(), fc.record({ id: fc.nat(), text: anyString }), anyString);

test("joining frame texts and encoded frames gives the bytes encodeFrame gives each, in order", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(anyValue, fc.boolean()), { maxLength: 10 }), (items) => {
      const frames: (Buffer | FrameText)[] = items.map(([value, asText]) =>
        asText ? frameText(value) : encodeFrame(value),
      );
      const expected = Buffer.concat(items.map(([value]) => encodeFrame(value)));
      const joined = joinFrames(frames);
      expect(joined.equals(expected)).toBe(true);
      expect(frames.reduce((sum, frame) => sum + frameBytes(frame), 0)).toBe(expected.length);
    }),
  );
});

test("a hand-built JSON text is measured in UTF-8 bytes, not UTF-16 units", () => {
  const text = frameTextOfJson('{"a":"é😀"}');
  expect(text.payloadBytes).toBe(14);
  expect(frameBytes(text)).toBe(18);
  expect(joinFrames([text]).toString("hex")).toBe(`0000000e${Buffer.from('{"a":"é😀"}').toString("hex")}`);
});

test("the frame limit and the unencodable values fail as encodeFrame fails", () => {
  expect(() => frameText({ a: "x".repeat(20) }, { maxFrameBytes: 10 })).toThrow(FrameTooLargeError);
  expect(() => frameTextOfJson("[1,2,3]", { maxFrameBytes: 6 })).toThrow(
    "Encoded frame would be 7 bytes; the maximum frame size is 6 bytes",
  );
  expect(() => frameText(undefined)).toThrow(FrameEncodeError);
  expect(() => frameText(10n)).toThrow(FrameEncodeError);
  expect(joinFrames([]).length).toBe(0);
});
