// A second, informative floor for the pipelined figure: the least a JavaScript server gives the broker's wire output
// for a batch of posts, in a separate process. It decodes every frame of a read (the framing package: the text,
// JSON.parse), answers each with a post reply written from a template (less than the broker does), and tells every
// other connection once per read how many frames came, as one posts event with a counted entry; everything a
// connection gets for one read leaves in one write. No validation, no rooms, no store: beside the raw forwarder it shows how much of the broker's rate is
// framing and JSON in JavaScript rather than the broker's own work. Prints "ready" once listening.
import { createServer, type Socket } from "node:net";
import { attachFrameDecoder, encodeFrame, joinFrames, type FrameText } from "@orphus/framing";

const socketPath = process.argv[2] ?? "";
const sockets = new Set<Socket>();
let seq = 0;
createServer((socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
  socket.on("error", () => {});
  let replies: FrameText[] = [];
  let first = 0;
  attachFrameDecoder(socket, {
    onFrame: (value) => {
      const id = (value as { id?: unknown }).id;
      if (replies.length === 0) first = seq + 1;
      seq++;
      const text = `{"id":${String(id)},"ok":true,"op":"post","result":{"room":"pipe","seq":${seq},"postedAt":${Date.now()}}}`;
      replies.push({ text, payloadBytes: text.length });
    },
  });
  // Listeners run in the order they were added: this one after the decoder has taken the whole read.
  socket.on("data", () => {
    if (replies.length === 0) return;
    const posts = [{ seq: first, author: "pipe-author", ...(replies.length > 1 ? { count: replies.length } : {}) }];
    const event = encodeFrame({ event: "posts", room: "pipe", posts });
    socket.write(joinFrames(replies));
    for (const other of sockets) if (other !== socket) other.write(event);
    replies = [];
  });
}).listen(socketPath, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => process.exit(0));
