import { connect } from "node:net";
import { FrameDecoder, encodeFrame } from "@orphus/framing";
import { PROTOCOL_NAME, PROTOCOL_VERSION } from "@orphus/roundtable-protocol";

/** Role name a start-up probe says hello as. */
export const PROBE_ROLE = "broker-probe";

/** What answered a probe, as far as its hello reply says. */
export interface ProbeAnswer {
  readonly state: "answered";
  /** The answering broker's pid, when its reply named it (a broker of another version may not). */
  readonly pid?: number;
  /** The answering broker's package version, when named. */
  readonly version?: string;
}

/** The outcome of {@link probeBroker}. */
export type ProbeResult =
  | ProbeAnswer
  /** Nothing is at the path. */
  | { readonly state: "absent" }
  /** A socket file that nothing answers on: refused, or silent for the whole timeout. */
  | { readonly state: "stale"; readonly reason: "refused" | "timeout" | "closed" };

/**
 * Asks whatever listens at `socketPath` for hello, within `timeoutMs`. Any well-framed reply counts as an
 * answer, a refusal included: a broker of another protocol version is still a live broker holding the path.
 * Errors other than "nothing there" and "nobody listening" (EACCES, say) reject.
 */
export function probeBroker(socketPath: string, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    const decoder = new FrameDecoder({ maxFrameBytes: 64 * 1024 });
    let settled = false;
    const finish = (result: ProbeResult | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const timer = setTimeout(() => finish({ state: "stale", reason: "timeout" }), timeoutMs);
    socket.on("connect", () => {
      socket.write(
        encodeFrame({
          id: 0,
          op: "hello",
          protocol: PROTOCOL_NAME,
          version: PROTOCOL_VERSION,
          role: PROBE_ROLE,
          pid: process.pid,
        }),
      );
    });
    socket.on("data", (chunk: Buffer) => {
      try {
        decoder.push(chunk, (value) => finish(answerFrom(value)));
      } catch {
        // Something answered, if not in our framing: the path is in use, so it is not ours to reclaim.
        finish({ state: "answered" });
      }
    });
    socket.on("close", () => finish({ state: "stale", reason: "closed" }));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") finish({ state: "absent" });
      // A full accept backlog: something is listening, just busy.
      else if (error.code === "EAGAIN") finish({ state: "answered" });
      else if (error.code === "ECONNREFUSED" || error.code === "ECONNRESET" || error.code === "EPIPE") {
        finish({ state: "stale", reason: "refused" });
      } else finish(error);
    });
  });
}

function answerFrom(value: unknown): ProbeAnswer {
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const result = (record["result"] ?? (record["error"] as Record<string, unknown> | undefined)?.["details"]) as
    Record<string, unknown> | undefined;
  const pid = result?.["brokerPid"];
  const version = result?.["brokerVersion"];
  return {
    state: "answered",
    ...(typeof pid === "number" ? { pid } : {}),
    ...(typeof version === "string" ? { version } : {}),
  };
}
