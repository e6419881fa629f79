// The floor of the broker benchmarks: a raw echo over a Unix socket in a separate process. Every byte that arrives
// goes straight back; nothing is decoded. Prints "ready" once listening.
import { createServer } from "node:net";

const socketPath = process.argv[2];
createServer((socket) => {
  socket.on("data", (chunk) => socket.write(chunk));
  socket.on("error", () => {});
}).listen(socketPath, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => process.exit(0));
// Spawned with an IPC channel (the scaling series, through support.ts's cpuMicros), it answers each message with its CPU time so far.
process.on("message", () => process.send?.(process.cpuUsage()));
