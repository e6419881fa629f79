import { expect, test } from "vitest";
import * as framing from "@orphus/framing";

test("the public surface is exactly this", () => {
  expect(Object.keys(framing).sort()).toEqual([
    "DEFAULT_MAX_FRAME_BYTES",
    "FRAME_HEADER_BYTES",
    "FrameDecoder",
    "FrameDecoderFailedError",
    "FrameEncodeError",
    "FrameMalformedError",
    "FrameOptionError",
    "FrameTooLargeError",
    "FrameTruncatedError",
    "FramingError",
    "MAX_FRAME_LENGTH_FIELD",
    "attachFrameDecoder",
    "encodeFrame",
    "frameBytes",
    "frameText",
    "frameTextOfJson",
    "joinFrames",
  ]);
});

test("protocol constants", () => {
  expect(framing.FRAME_HEADER_BYTES).toBe(4);
  expect(framing.DEFAULT_MAX_FRAME_BYTES).toBe(16777216);
  expect(framing.MAX_FRAME_LENGTH_FIELD).toBe(4294967295);
});

test("error names and codes are stable", () => {
  const cases: [Error & { code: string }, string, string][] = [
    [new framing.FrameTooLargeError(2, 1, "decode"), "FrameTooLargeError", "ERR_FRAME_TOO_LARGE"],
    [new framing.FrameMalformedError("invalid-json", Buffer.from("x")), "FrameMalformedError", "ERR_FRAME_MALFORMED"],
    [new framing.FrameTruncatedError(1, undefined), "FrameTruncatedError", "ERR_FRAME_TRUNCATED"],
    [new framing.FrameDecoderFailedError(new Error("x")), "FrameDecoderFailedError", "ERR_FRAME_DECODER_FAILED"],
    [new framing.FrameEncodeError("undefined"), "FrameEncodeError", "ERR_FRAME_UNENCODABLE"],
    [new framing.FrameOptionError("maxFrameBytes", "an integer", 0), "FrameOptionError", "ERR_FRAME_INVALID_OPTION"],
  ];
  for (const [error, name, code] of cases) {
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error).toBeInstanceOf(framing.FramingError);
  }
});

test("an option error shows the value it refused the way every package does: quoted, cut, or by its type", () => {
  const message = (got: unknown): string => new framing.FrameOptionError("maxFrameBytes", "an integer", got).message;
  expect(message(0.5)).toBe("Invalid framing option maxFrameBytes: expected an integer, got 0.5");
  expect(message("16 MiB")).toBe('Invalid framing option maxFrameBytes: expected an integer, got "16 MiB"');
  expect(message("9".repeat(70))).toBe(
    `Invalid framing option maxFrameBytes: expected an integer, got "${"9".repeat(60)}"… (70 characters)`,
  );
  expect(message({ bytes: 1 })).toBe("Invalid framing option maxFrameBytes: expected an integer, got an object");
});
