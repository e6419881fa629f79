// Import-and-call check of @orphus/framing as installed from the registry: a frame round trip split byte by byte,
// and an oversize header refused with its stable code. Prints one line; throws on any difference.
import assert from "node:assert/strict";
import { encodeFrame, FrameDecoder } from "@orphus/framing";

const frame = encodeFrame({ id: 1, op: "members", room: "release" });
assert.equal(frame.readUInt32BE(0), frame.length - 4);
const decoded = [];
const decoder = new FrameDecoder();
for (const byte of frame) decoder.push(Buffer.from([byte]), (value) => decoded.push(value));
assert.deepEqual(decoded, [{ id: 1, op: "members", room: "release" }]);

const small = new FrameDecoder({ maxFrameBytes: 8 });
assert.throws(() => small.push(encodeFrame("x".repeat(32)), () => undefined), { code: "ERR_FRAME_TOO_LARGE" });
console.log("framing: round trip byte by byte, oversize refused (ERR_FRAME_TOO_LARGE)");
