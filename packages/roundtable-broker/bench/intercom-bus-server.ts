// The peer comparison of the fan-out benchmark: the broadcast bus of pi-intercom (the closest public peer: a local
// broker that pi sessions register with over a Unix socket), its algorithm rebuilt here to run in this harness, since
// the package is not on the npm registry. What it does per message, as its broker does: a reader that gathers the
// 4-byte big-endian length and parses the JSON payload in place when a chunk holds it whole (copying only a frame
// split across chunks), a token-bucket rate check per connection, then a broadcast that walks every registered
// session but the sender and writes each one its own frame (`JSON.stringify` of the message, a buffer allocated for
// length and payload, one `socket.write`), and the sender's delivery acknowledgement after it. Every connection is
// a session from the start (its registration exchange is not part of a broadcast). Prints "ready" once listening.
import { createServer, type Socket } from "node:net";

const socketPath = process.argv[2] ?? "";
/** Its limits: frames up to 1 MiB; a bucket of 100 messages refilled at 50 a second (the peer's defaults). */
const MAX_FRAME_BYTES = 1024 * 1024;
const BUCKET = 100;
const REFILL_PER_MS = 50 / 1000;

interface Session {
  readonly id: string;
  readonly socket: Socket;
  tokens: number;
  refilledAt: number;
}

const sessions = new Map<string, Session>();
let next = 0;

/** One frame per call: the length, then the payload as UTF-8 JSON, allocated and written for this socket alone. */
function writeMessage(socket: Socket, message: unknown): void {
  const json = JSON.stringify(message);
  const length = Buffer.byteLength(json, "utf8");
  const frame = Buffer.allocUnsafe(4 + length);
  frame.writeUInt32BE(length, 0);
  frame.write(json, 4, length, "utf8");
  socket.write(frame);
}

function broadcast(message: unknown, exclude: string): void {
  for (const [id, session] of sessions) if (id !== exclude) writeMessage(session.socket, message);
}

function allowed(session: Session): boolean {
  const now = Date.now();
  session.tokens = Math.min(BUCKET, session.tokens + (now - session.refilledAt) * REFILL_PER_MS);
  session.refilledAt = now;
  if (session.tokens < 1) return false;
  session.tokens -= 1;
  return true;
}

function onMessage(session: Session, value: unknown): void {
  // The benchmark measures sustained rates far above the peer's 50 a second: a refused message would stop the bench,
  // so the check runs and its answer is counted, not enforced.
  if (!allowed(session)) session.tokens = BUCKET;
  const message = value as { id?: number };
  broadcast({ type: "message", from: session.id, message }, session.id);
  writeMessage(session.socket, { type: "delivered", messageId: message.id });
}

/** The peer's reader: header bytes gathered, a whole payload parsed in place, a split one copied together. */
function reader(session: Session): (data: Buffer) => void {
  const header = Buffer.allocUnsafe(4);
  let headerBytes = 0;
  let payload: Buffer | null = null;
  let payloadBytes = 0;
  let payloadLength = 0;
  return (data) => {
    let offset = 0;
    while (offset < data.length) {
      if (headerBytes < 4) {
        const take = Math.min(4 - headerBytes, data.length - offset);
        data.copy(header, headerBytes, offset, offset + take);
        headerBytes += take;
        offset += take;
        if (headerBytes < 4) return;
        payloadLength = header.readUInt32BE(0);
        if (payloadLength > MAX_FRAME_BYTES) {
          session.socket.destroy();
          return;
        }
      }
      if (payloadBytes === 0 && data.length - offset >= payloadLength) {
        const whole = data.subarray(offset, offset + payloadLength);
        offset += payloadLength;
        headerBytes = 0;
        payloadLength = 0;
        onMessage(session, JSON.parse(whole.toString("utf8")));
        continue;
      }
      if (payload === null || payload.length !== payloadLength) payload = Buffer.allocUnsafe(payloadLength);
      const take = Math.min(payloadLength - payloadBytes, data.length - offset);
      data.copy(payload, payloadBytes, offset, offset + take);
      payloadBytes += take;
      offset += take;
      if (payloadBytes < payloadLength) return;
      const done = payload;
      headerBytes = 0;
      payload = null;
      payloadBytes = 0;
      payloadLength = 0;
      onMessage(session, JSON.parse(done.toString("utf8")));
    }
  };
}

createServer((socket) => {
  const session: Session = { id: `session-${++next}`, socket, tokens: BUCKET, refilledAt: Date.now() };
  sessions.set(session.id, session);
  socket.on("data", reader(session));
  socket.on("close", () => sessions.delete(session.id));
  socket.on("error", () => {});
}).listen(socketPath, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => process.exit(0));
