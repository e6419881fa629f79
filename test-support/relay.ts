// A relay between clients and a real broker, over real Unix sockets, that mistreats post frames on command: it can
// lose a post before the broker sees it, lose the broker's reply, or hold the reply back until the client gave up.
import { createServer, connect, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";

/** What happens to one post frame (and its reply) on its way through the relay. */
export type PostFault =
  /** Both ways, untouched. */
  | "deliver"
  /** The post never reaches the broker; the connection is cut. */
  | "lose-request"
  /** The broker handles the post; its reply is dropped and the connection cut. */
  | "lose-reply"
  /** The broker handles the post; its reply is held until `onStall` has run (the client times out meanwhile). */
  | "stall";

/** A relay listening on `socketPath`, passing frames to and from the broker on `brokerPath`. */
export class FaultyRelay {
  readonly socketPath: string;
  /** Faults for the next post frames, first used first; "deliver" once empty. */
  faults: PostFault[] = [];
  /** The faults applied so far, in order. */
  readonly applied: PostFault[] = [];
  /** Runs when a reply is held, before it is let through: the test times the request out here. */
  onStall: () => void = () => undefined;
  readonly #server: Server;
  readonly #pairs = new Set<{ client: Socket; broker: Socket }>();

  private constructor(socketPath: string, server: Server) {
    this.socketPath = socketPath;
    this.#server = server;
  }

  static async start(dir: string, brokerPath: string): Promise<FaultyRelay> {
    const socketPath = join(dir, "relay.sock");
    const server = createServer();
    const relay = new FaultyRelay(socketPath, server);
    server.on("connection", (client) => relay.#pipe(client, brokerPath));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    return relay;
  }

  /** Cuts every connection through the relay, as a broker restart or a network fault would, from the client's view. */
  cutAll(): void {
    for (const pair of this.#pairs) this.#cut(pair);
  }

  close(): Promise<void> {
    this.cutAll();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #cut(pair: { client: Socket; broker: Socket }): void {
    this.#pairs.delete(pair);
    pair.client.destroy();
    pair.broker.destroy();
  }

  #pipe(client: Socket, brokerPath: string): void {
    const broker = connect(brokerPath);
    const pair = { client, broker };
    this.#pairs.add(pair);
    const faultOf = new Map<unknown, PostFault>();
    for (const socket of [client, broker]) {
      socket.on("error", () => undefined);
      socket.on("close", () => this.#cut(pair));
    }
    attachFrameDecoder(client, {
      onFrame: (value) => {
        const frame = value as Record<string, unknown>;
        if (frame["op"] === "post") {
          const fault = this.faults.shift() ?? "deliver";
          this.applied.push(fault);
          if (fault === "lose-request") {
            this.#cut(pair);
            return;
          }
          faultOf.set(frame["id"], fault);
        }
        broker.write(encodeFrame(frame));
      },
    });
    attachFrameDecoder(broker, {
      onFrame: (value) => {
        const frame = value as Record<string, unknown>;
        const fault = "id" in frame ? faultOf.get(frame["id"]) : undefined;
        if (fault === "lose-reply") {
          this.#cut(pair);
          return;
        }
        if (fault === "stall") {
          this.onStall();
          // Let the timeout's rejection run first: the reply then arrives late, for a request no longer waiting.
          setImmediate(() => client.write(encodeFrame(frame)));
          return;
        }
        client.write(encodeFrame(frame));
      },
    });
  }
}
