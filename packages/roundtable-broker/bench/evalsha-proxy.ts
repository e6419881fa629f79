// An informative floor for the broker on Redis: the least a process between a client and Redis can do per post.
// It decodes the frame, sends the post's one EVALSHA (argv given as JSON, a fresh key each time) with a bare client,
// and writes a post-sized reply: no parsing, no rooms, no store. A broker's round trip minus this one is what the
// broker itself costs. argv: socket path, Redis URL, script SHA, the post's argv as JSON. Prints "ready".
import { createServer } from "node:net";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";
import { Redis } from "ioredis";

const [socketPath = "", url = "", sha = "", argvJson = "[]"] = process.argv.slice(2);
const argv = JSON.parse(argvJson) as string[];
const redis = new Redis(url, { protocol: 2 });
let posts = 0;
createServer((socket) => {
  socket.on("error", () => {});
  attachFrameDecoder(socket, {
    onFrame: (value) => {
      const id = (value as { id?: unknown }).id;
      const args = [...argv.slice(0, -1), `p${String(++posts).padStart(15, "0")}`];
      void redis.evalsha(sha, 0, ...args).then(() => {
        socket.write(
          encodeFrame({ id, ok: true, op: "post", result: { room: "prx", seq: posts, postedAt: Date.now() } }),
        );
      });
    },
  });
}).listen(socketPath, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => {
  redis.disconnect();
  process.exit(0);
});
