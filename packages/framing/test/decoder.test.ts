import { describe, expect, test } from "vitest";
import { encodeFrame, FrameDecoder } from "@orphus/framing";

function frame(value: unknown): Buffer {
  return encodeFrame(value);
}

function rawFrame(payload: Buffer | string): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload, "utf8") : payload;
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

function decodeChunks(chunks: readonly Uint8Array[], maxFrameBytes?: number): unknown[] {
  const decoder = new FrameDecoder(maxFrameBytes === undefined ? undefined : { maxFrameBytes });
  const out: unknown[] = [];
  for (const chunk of chunks) decoder.push(chunk, (value) => out.push(value));
  return out;
}

/** Captures the error thrown by fn, so a test can assert on its fields. */
function thrown(fn: () => void): Error & { code?: string } {
  try {
    fn();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a throw");
}

describe("reassembly", () => {
  test("empty object", () => {
    expect(decodeChunks([frame({})])).toEqual([{}]);
  });

  test("header split 1 + 3 bytes", () => {
    const bytes = frame({ split: "1+3" });
    expect(decodeChunks([bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4)])).toEqual([{ split: "1+3" }]);
  });

  test("header split 3 + 1 bytes", () => {
    const bytes = frame({ split: "3+1" });
    expect(decodeChunks([bytes.subarray(0, 3), bytes.subarray(3, 4), bytes.subarray(4)])).toEqual([{ split: "3+1" }]);
  });

  test("header and payload arrive one byte at a time", () => {
    const bytes = frame({ drip: [1, 2, 3], text: "héllo ✓ 😀" });
    const chunks = [...bytes].map((b) => Uint8Array.of(b));
    expect(decodeChunks(chunks)).toEqual([{ drip: [1, 2, 3], text: "héllo ✓ 😀" }]);
  });

  test("many frames in one chunk, with a partial one at its end", () => {
    const all = Buffer.concat([frame(1), frame("two"), frame([3]), frame({ four: 4 })]);
    const cut = all.length - 3;
    expect(decodeChunks([all.subarray(0, cut), all.subarray(cut)])).toEqual([1, "two", [3], { four: 4 }]);
  });

  test("a plain Uint8Array chunk works like a Buffer", () => {
    const bytes = frame({ view: true });
    expect(decodeChunks([new Uint8Array(bytes)])).toEqual([{ view: true }]);
  });

  test("bufferedBytes counts the frame in progress", () => {
    const decoder = new FrameDecoder();
    const bytes = frame({ pending: "yes" });
    decoder.push(bytes.subarray(0, 2), () => undefined);
    expect(decoder.bufferedBytes).toBe(2);
    decoder.push(bytes.subarray(2, 7), () => undefined);
    expect(decoder.bufferedBytes).toBe(7);
    decoder.push(bytes.subarray(7), () => undefined);
    expect(decoder.bufferedBytes).toBe(0);
  });
});

describe("the sink's `more`: whether the chunk holds bytes after the frame", () => {
  /** What each frame's sink call was told, in order. */
  function moreFlags(chunks: readonly Buffer[]): boolean[] {
    const decoder = new FrameDecoder();
    const flags: boolean[] = [];
    for (const chunk of chunks) decoder.push(chunk, (_value, more) => flags.push(more));
    return flags;
  }

  test("the last frame of a chunk is told false, the ones before it true", () => {
    expect(moreFlags([Buffer.concat([frame(1), frame(2), frame(3)])])).toEqual([true, true, false]);
  });

  test("a frame followed by the start of the next is told true", () => {
    const next = frame("next");
    expect(moreFlags([Buffer.concat([frame(1), next.subarray(0, 2)]), next.subarray(2)])).toEqual([true, false]);
  });

  test("a frame finished by a later chunk is told whether that chunk goes on", () => {
    const split = frame({ long: "x".repeat(40) });
    expect(moreFlags([split.subarray(0, 10), split.subarray(10)])).toEqual([false]);
    expect(moreFlags([split.subarray(0, 10), Buffer.concat([split.subarray(10), frame(2)])])).toEqual([true, false]);
  });
});

describe("maximum frame size", () => {
  const max = 64;

  test("a payload of exactly the maximum is accepted", () => {
    const payload = `"${"x".repeat(max - 2)}"`;
    expect(Buffer.byteLength(payload)).toBe(max);
    expect(decodeChunks([rawFrame(payload)], max)).toEqual(["x".repeat(max - 2)]);
  });

  test("max + 1 fails from the header alone, before any payload arrives", () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(max + 1, 0);
    const decoder = new FrameDecoder({ maxFrameBytes: max });
    const error = thrown(() => decoder.push(header, () => undefined));
    expect(error.code).toBe("ERR_FRAME_TOO_LARGE");
    expect(error.message).toBe("Frame header declares 65 bytes; the maximum frame size is 64 bytes");
    expect(decoder.bufferedBytes).toBe(0);
  });

  test("an oversize header split across chunks fails as soon as its last byte arrives", () => {
    const header = Buffer.from([0xff, 0xff, 0xff, 0xff]);
    const decoder = new FrameDecoder();
    decoder.push(header.subarray(0, 2), () => undefined);
    expect(thrown(() => decoder.push(header.subarray(2), () => undefined)).code).toBe("ERR_FRAME_TOO_LARGE");
  });

  test("the default maximum is 16 MiB", () => {
    expect(new FrameDecoder().maxFrameBytes).toBe(16 * 1024 * 1024);
  });

  test("the encoder refuses a value past the maximum", () => {
    const error = thrown(() => encodeFrame("x".repeat(100), { maxFrameBytes: max }));
    expect(error.code).toBe("ERR_FRAME_TOO_LARGE");
    expect(error.message).toBe("Encoded frame would be 102 bytes; the maximum frame size is 64 bytes");
  });

  test.each([0, -1, 1.5, 2 ** 32, Number.NaN])("maxFrameBytes %s is refused", (value) => {
    expect(thrown(() => new FrameDecoder({ maxFrameBytes: value })).code).toBe("ERR_FRAME_INVALID_OPTION");
  });
});

describe("a malformed payload stops the batch", () => {
  test("invalid JSON: frames before it are delivered, frames behind it in the same chunk are not", () => {
    const chunk = Buffer.concat([frame({ n: 1 }), frame({ n: 2 }), rawFrame("{nope"), frame({ n: 3 })]);
    const decoder = new FrameDecoder();
    const out: unknown[] = [];
    const error = thrown(() => decoder.push(chunk, (value) => out.push(value)));
    expect(out).toEqual([{ n: 1 }, { n: 2 }]);
    expect(error.code).toBe("ERR_FRAME_MALFORMED");
    expect(error.message).toBe("Malformed frame: expected a JSON payload, got 7b6e6f7065 (5 bytes)");
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  test("invalid UTF-8 is malformed, not silently replaced", () => {
    const error = thrown(() => decodeChunks([rawFrame(Buffer.from([0x22, 0xc3, 0x28, 0x22]))]));
    expect(error.code).toBe("ERR_FRAME_MALFORMED");
    expect(error.message).toBe("Malformed frame: expected a UTF-8 payload, got 22c32822 (4 bytes)");
  });

  test("a literal U+FFFD is text, and U+FFFD beside damage does not hide it", () => {
    // The decoder reads a replacement character in the decoded text as a hint to validate the bytes; a payload
    // that carries one legitimately must decode, and damage elsewhere in it must still be refused.
    expect(decodeChunks([frame({ text: "\uFFFD ok" })])).toEqual([{ text: "\uFFFD ok" }]);
    const damaged = Buffer.concat([Buffer.from('"\uFFFD', "utf8"), Buffer.from([0xc3, 0x28]), Buffer.from('"')]);
    const error = thrown(() => decodeChunks([rawFrame(damaged)]));
    expect(error.message).toBe("Malformed frame: expected a UTF-8 payload, got 22efbfbdc32822 (7 bytes)");
  });

  test("a zero-length payload is malformed (the empty string is not JSON)", () => {
    expect(thrown(() => decodeChunks([Buffer.alloc(4)])).code).toBe("ERR_FRAME_MALFORMED");
    expect(thrown(() => decodeChunks([Buffer.alloc(2), Buffer.alloc(2)])).code).toBe("ERR_FRAME_MALFORMED");
  });

  test("the decoder refuses further input once failed", () => {
    const decoder = new FrameDecoder();
    expect(() => decoder.push(rawFrame("]"), () => undefined)).toThrow();
    expect(decoder.failed).toBe(true);
    const error = thrown(() => decoder.push(frame({ fine: true }), () => undefined));
    expect(error.code).toBe("ERR_FRAME_DECODER_FAILED");
    expect((error.cause as { code?: string }).code).toBe("ERR_FRAME_MALFORMED");
  });

  test("a long bad payload is quoted only in part", () => {
    const error = thrown(() => decodeChunks([rawFrame("x".repeat(1000))]));
    expect(error.message).toBe(`Malformed frame: expected a JSON payload, got ${"78".repeat(48)}… (1000 bytes)`);
  });
});

describe("end of stream", () => {
  test("ending between frames is clean", () => {
    const decoder = new FrameDecoder();
    decoder.push(frame(1), () => undefined);
    expect(() => decoder.end()).not.toThrow();
  });

  test("ending inside a header is a truncation", () => {
    const decoder = new FrameDecoder();
    decoder.push(Buffer.from([0, 0]), () => undefined);
    const error = thrown(() => decoder.end());
    expect(error.code).toBe("ERR_FRAME_TRUNCATED");
    expect(error.message).toBe("Stream ended inside a frame header: 2 of 4 header bytes arrived");
  });

  test("ending inside a payload is a truncation", () => {
    const decoder = new FrameDecoder();
    decoder.push(frame("abcdef").subarray(0, 7), () => undefined);
    const error = thrown(() => decoder.end());
    expect(error.message).toBe("Stream ended inside a frame: 3 of 8 payload bytes arrived");
  });
});

describe("encoding", () => {
  test.each([
    [undefined, "undefined"],
    [() => 1, "function"],
    [Symbol("s"), "symbol"],
  ])("%s has no JSON encoding", (value, detail) => {
    const error = thrown(() => encodeFrame(value));
    expect(error.code).toBe("ERR_FRAME_UNENCODABLE");
    expect(error.message).toBe(`Cannot encode frame: expected a JSON-serialisable value, got ${detail}`);
  });

  test("a BigInt and a cycle carry the serialiser's error as cause", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    for (const value of [10n, cyclic]) {
      const error = thrown(() => encodeFrame(value));
      expect(error.code).toBe("ERR_FRAME_UNENCODABLE");
      expect(error.cause).toBeInstanceOf(TypeError);
    }
  });

  test("the header states the UTF-8 byte length, not the string length", () => {
    const bytes = encodeFrame("😀");
    expect(bytes.readUInt32BE(0)).toBe(6);
    expect(bytes.subarray(4).toString("utf8")).toBe('"😀"');
  });
});
