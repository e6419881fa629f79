// Experiment: a minimal framed proxy that answers each frame with one bare EVALSHA. argv: socket url sha argvJson
import { createServer } from "node:net";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";
import { Redis } from "ioredis";
const [socketPath, url, sha, argvJson] = process.argv.slice(2) as [string, string, string, string];
const argv = JSON.parse(argvJson) as string[];
const redis = new Redis(url, { protocol: 2 });
let n = 0;
createServer((socket) => {
  attachFrameDecoder(socket, {
    onFrame: (value) => {
      const v = value as { id: number };
      const args = [...argv];
      args[args.length - 1] = `p${String(++n).padStart(15, "0")}`;
      void redis.evalsha(sha, 0, ...args).then(() => socket.write(encodeFrame({ id: v.id, ok: true, op: "post", result: { room: "x", seq: 1, postedAt: 1 } })));
    },
  });
}).listen(socketPath, () => process.stdout.write("ready\n"));
