import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { expect, test } from "vitest";
import { encodeFrame, FrameDecoder, FramingError, type FrameMalformedError } from "@orphus/framing";

/** Splits bytes at arbitrary cut points (sorted, deduplicated) into chunks. */
function split(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let previous = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(previous, point));
    previous = point;
  }
  chunks.push(bytes.subarray(previous));
  return chunks;
}

/** The naive reference: parse everything from one buffer, frame by frame. */
function naiveDecode(bytes: Buffer): unknown[] {
  const out: unknown[] = [];
  let offset = 0;
  while (offset + 4 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    out.push(JSON.parse(bytes.subarray(offset + 4, offset + 4 + length).toString("utf8")));
    offset += 4 + length;
  }
  return out;
}

const cuts = fc.array(fc.nat(), { maxLength: 20 });

test("decode(encode(values)) equals values under any chunking, and matches the naive reference", () => {
  fc.assert(
    fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), cuts, (values, cutPoints) => {
      const bytes = Buffer.concat(values.map((v) => encodeFrame(v)));
      const decoder = new FrameDecoder();
      const out: unknown[] = [];
      for (const chunk of split(bytes, cutPoints)) decoder.push(chunk, (v) => out.push(v));
      decoder.end();
      // JSON has no -0; compare through the same lens the wire gives.
      expect(out).toEqual(JSON.parse(JSON.stringify(values)));
      expect(out).toEqual(naiveDecode(bytes));
    }),
    { numRuns: 500 },
  );
});

test("a frame's `more` is false exactly when its last byte ends its chunk, under any chunking", () => {
  fc.assert(
    fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 8 }), cuts, (values, cutPoints) => {
      const frames = values.map((v) => encodeFrame(v));
      const bytes = Buffer.concat(frames);
      const chunks = split(bytes, cutPoints);
      // The naive reference: where each frame ends and each chunk ends, as offsets into the whole stream.
      const frameEnds: number[] = [];
      let end = 0;
      for (const f of frames) frameEnds.push((end += f.length));
      const chunkEnds: number[] = [];
      end = 0;
      for (const chunk of chunks) chunkEnds.push((end += chunk.length));
      const expected = frameEnds.map((frameEnd) => frameEnd !== chunkEnds.find((chunkEnd) => chunkEnd >= frameEnd));
      const decoder = new FrameDecoder();
      const told: boolean[] = [];
      for (const chunk of chunks) decoder.push(chunk, (_value, more) => told.push(more));
      expect(told).toEqual(expected);
    }),
    { numRuns: 500 },
  );
});

test("arbitrary bytes never throw anything but a typed framing error", () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 200 }),
      cuts,
      fc.integer({ min: 1, max: 64 }),
      (garbage, cutPoints, maxFrameBytes) => {
        const decoder = new FrameDecoder({ maxFrameBytes });
        try {
          for (const chunk of split(Buffer.from(garbage), cutPoints)) decoder.push(chunk, () => undefined);
          decoder.end();
        } catch (error) {
          expect(error).toBeInstanceOf(FramingError);
          expect((error as FramingError).code).toMatch(/^ERR_FRAME_/);
        }
      },
    ),
    { numRuns: 1000 },
  );
});

test("any payload is refused as invalid UTF-8 exactly when isUtf8 says so, in any chunking", () => {
  // The reference: validate the bytes, then parse. The decoder validates only text that decoded to U+FFFD.
  const reference = (payload: Buffer): string => {
    if (!isUtf8(payload)) return "invalid-utf8";
    try {
      JSON.parse(payload.toString("utf8"));
      return "ok";
    } catch {
      return "invalid-json";
    }
  };
  const inString = fc
    .uint8Array({ maxLength: 40 })
    .map((bytes) => Buffer.concat([Buffer.from('"'), bytes, Buffer.from('"')]));
  const withReplacement = inString.map((bytes) =>
    Buffer.concat([bytes.subarray(0, 1), Buffer.from("\uFFFD"), bytes.subarray(1)]),
  );
  fc.assert(
    fc.property(
      fc.oneof(inString, withReplacement, fc.uint8Array({ maxLength: 40 }).map(Buffer.from)),
      cuts,
      (payload, cutPoints) => {
        const header = Buffer.alloc(4);
        header.writeUInt32BE(payload.length, 0);
        const decoder = new FrameDecoder();
        let outcome = "ok";
        try {
          for (const chunk of split(Buffer.concat([header, payload]), cutPoints)) decoder.push(chunk, () => undefined);
        } catch (error) {
          outcome = (error as FrameMalformedError).reason;
        }
        expect(outcome).toBe(reference(payload));
      },
    ),
    { numRuns: 1000 },
  );
});

test("a stream with one corrupted frame delivers exactly the frames before it", () => {
  const badPayloads = fc.oneof(
    fc.constant(Buffer.from("{")),
    fc.constant(Buffer.from([0xff, 0xfe])),
    fc.constant(Buffer.from("")),
    fc.string({ minLength: 1 }).map((s) => Buffer.from(`{${s}`)),
  );
  fc.assert(
    fc.property(
      fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 6 }),
      fc.nat(),
      badPayloads,
      cuts,
      (values, at, bad, cutPoints) => {
        const index = at % (values.length + 1);
        const header = Buffer.alloc(4);
        header.writeUInt32BE(bad.length, 0);
        const frames = values.map((v) => encodeFrame(v));
        frames.splice(index, 0, Buffer.concat([header, bad]));
        const decoder = new FrameDecoder();
        const out: unknown[] = [];
        let failure: unknown;
        for (const chunk of split(Buffer.concat(frames), cutPoints)) {
          try {
            decoder.push(chunk, (v) => out.push(v));
          } catch (error) {
            failure = error;
            break;
          }
        }
        expect((failure as FramingError).code).toBe("ERR_FRAME_MALFORMED");
        expect(out).toEqual(JSON.parse(JSON.stringify(values.slice(0, index))));
      },
    ),
    { numRuns: 500 },
  );
});
