import { expect, test } from "vitest";
import { encodeFrame, FrameDecoder } from "@orphus/framing";

test("round trip through the package's own name", () => {
  const out: unknown[] = [];
  new FrameDecoder().push(encodeFrame({ a: 1 }), (v) => out.push(v));
  expect(out).toEqual([{ a: 1 }]);
});
