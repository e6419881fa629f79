import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { exampleFrame, PROTOCOL_DOC_PATH, renderProtocolDoc } from "../src/doc.js";

const repoRoot = join(import.meta.dirname, "..", "..", "..");

test("docs/protocol.md is exactly what the schemas generate (regenerate: pnpm --filter @orphus/roundtable-protocol generate-doc)", () => {
  const committed = readFileSync(join(repoRoot, PROTOCOL_DOC_PATH), "utf8");
  expect(committed).toBe(renderProtocolDoc());
});

test("the document names every op, event and error code", () => {
  const doc = renderProtocolDoc();
  for (const op of ["hello", "join", "leave", "post", "digest", "fetch", "rooms", "members", "status"]) {
    expect(doc).toContain(`### \`${op}\``);
    expect(doc).toContain(`JSON Schema of the ${op} request`);
  }
  expect(doc).toContain("### post event");
  expect(doc).toContain("### posts event");
  expect(doc).toContain("### member event");
  expect(doc).toContain("`ERR_NOT_MEMBER`");
  expect(doc).toContain('Not a member of room \\"release\\"; join it first');
});

test("an example frame is the 4-byte big-endian length then the compact JSON", () => {
  // Stored vector: the hello of the document, byte for byte.
  const frame = exampleFrame({
    id: 1,
    op: "hello",
    protocol: "orphus-roundtable",
    version: 1,
    role: "planner",
    pid: 4242,
  });
  expect(frame.header).toBe("00 00 00 5c");
  expect(frame.bytes).toBe(92);
  expect(frame.payload).toBe(
    '{"id":1,"op":"hello","protocol":"orphus-roundtable","version":1,"role":"planner","pid":4242}',
  );
  expect(exampleFrame({ room: "é" }).header).toBe("00 00 00 0d");
});
