import type { Socket } from "node:net";
import { attachFrameDecoder, encodeFrame } from "@orphus/framing";
import type { ErrorReply } from "@orphus/roundtable-protocol";
import { idOf, opOf } from "./frame-fields.js";
import { FULL_REFUSAL_WAIT_MS, MAX_PENDING_REFUSALS, REFUSAL_MAX_FRAME_BYTES } from "./limits.js";
import type { BrokerTimers } from "./options.js";

/** What the refusal of a connection past the limit says, and on which timers it waits. */
export interface FullRefusalOptions {
  readonly maxConnections: number;
  readonly brokerPid: number;
  readonly timers: BrokerTimers;
}

/** The refusal of a connection past the limit, answering request `id` (null: no particular request). */
export function fullRefusal(
  id: number | null,
  op: string | undefined,
  { maxConnections, brokerPid }: Pick<FullRefusalOptions, "maxConnections" | "brokerPid">,
): ErrorReply {
  const error = {
    code: "ERR_TOO_MANY_CONNECTIONS" as const,
    message:
      `The broker (pid ${brokerPid}) already serves its maximum of ${maxConnections} connections; wait for ` +
      "sessions to finish, or close sessions you no longer need, and connect again",
    details: { maxConnections, brokerPid },
  };
  return op === undefined ? { id, ok: false, error } : { id, ok: false, op, error };
}

/**
 * Refuses connections past the connection limit so that every peer reads why. A client writes its hello as soon as
 * it connects; a refusal written and the socket closed at once would arrive with that hello unread, and the peer's
 * write then fails (EPIPE) and drops the refusal unread. So the connection's first frame is read and answered with
 * ERR_TOO_MANY_CONNECTIONS (its id and op echoed), and only then closed. A peer that sends nothing gets the refusal
 * unprompted after {@link FULL_REFUSAL_WAIT_MS}. At most {@link MAX_PENDING_REFUSALS} wait at once, each reading one
 * frame of at most {@link REFUSAL_MAX_FRAME_BYTES}; past that, the refusal is sent unprompted at once.
 */
export class FullRefusals {
  /** Connections refused since start. */
  refused = 0;
  readonly #pending = new Set<Socket>();

  constructor(private readonly options: FullRefusalOptions) {}

  /** Refuses `socket`, a connection accepted past the limit. */
  refuse(socket: Socket): void {
    this.refused++;
    socket.on("error", () => {});
    if (this.#pending.size >= MAX_PENDING_REFUSALS) {
      this.#send(socket, null, undefined);
      return;
    }
    this.#pending.add(socket);
    let answered = false;
    const answer = (id: number | null, op: string | undefined): void => {
      if (answered) return;
      answered = true;
      this.options.timers.clearTimeout(timer);
      detach();
      this.#send(socket, id, op);
    };
    const timer = this.options.timers.setTimeout(() => answer(null, undefined), FULL_REFUSAL_WAIT_MS);
    const detach = attachFrameDecoder(
      socket,
      { onFrame: (value) => answer(idOf(value), opOf(value)), onError: () => answer(null, undefined) },
      { maxFrameBytes: REFUSAL_MAX_FRAME_BYTES },
    );
    socket.once("close", () => {
      this.#pending.delete(socket);
      answered = true;
      this.options.timers.clearTimeout(timer);
    });
  }

  /** Closes every refused connection still waiting for its first frame: the broker is shutting down. */
  destroyAll(): void {
    for (const socket of this.#pending) socket.destroy();
  }

  /** Writes the refusal and closes once it is flushed, so a peer that never closes its side cannot hold it open. */
  #send(socket: Socket, id: number | null, op: string | undefined): void {
    if (socket.destroyed || !socket.writable) return;
    socket.end(encodeFrame(fullRefusal(id, op, this.options)), () => socket.destroy());
  }
}
