// The floor of the fan-out benchmarks: a raw forwarder over Unix sockets in a separate process. Whatever complete
// frames one read brings are answered (written back to the sender) and written on to every other connection, each
// in one write, unparsed: the same number of writes the broker makes for a post to a room whose other members hold
// those connections, and none of its work. Prints "ready" once listening.
import { createServer } from "node:net";

const socketPath = process.argv[2];
const sockets = new Set();
createServer((socket) => {
  sockets.add(socket);
  let partial;
  socket.on("data", (chunk) => {
    const bytes = partial === undefined ? chunk : Buffer.concat([partial, chunk]);
    let end = 0;
    while (end + 4 <= bytes.length) {
      const next = end + 4 + bytes.readUInt32BE(end);
      if (next > bytes.length) break;
      end = next;
    }
    partial = end < bytes.length ? Buffer.from(bytes.subarray(end)) : undefined;
    if (end === 0) return;
    const frames = end === bytes.length ? bytes : bytes.subarray(0, end);
    socket.write(frames);
    for (const other of sockets) if (other !== socket) other.write(frames);
  });
  socket.on("close", () => sockets.delete(socket));
  socket.on("error", () => {});
}).listen(socketPath, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => process.exit(0));
