// A second, informative floor: the least a JavaScript server on this wire can do per request (decode the frame,
// encode a post-sized reply, write it), in a separate process. Beside the raw echo it shows how much of the
// broker's round trip is framing and JSON rather than rooms. Prints "ready" once listening.
import { createServer } from "node:net";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";

const socketPath = process.argv[2] ?? "";
createServer((socket) => {
  socket.on("error", () => {});
  attachFrameDecoder(socket, {
    onFrame: (value) => {
      const id = (value as { id?: unknown }).id;
      socket.write(encodeFrame({ id, ok: true, op: "post", result: { room: "rtt", seq: 1, postedAt: Date.now() } }));
    },
  });
}).listen(socketPath, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => process.exit(0));
