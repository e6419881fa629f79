import { hasErrorCode } from "@orphus/internal";
import type { WireRefusalError } from "@orphus/roundtable-protocol";
import { BrokerFullError, ConnectionLostError } from "./errors.js";

/**
 * The BrokerFullError a failed hello amounts to, or undefined: the broker answered the hello with
 * ERR_TOO_MANY_CONNECTIONS, or (an older broker) sent it unprompted and closed the connection.
 */
export function brokerFullFrom(error: unknown): BrokerFullError | undefined {
  const refusal = error instanceof ConnectionLostError ? error.cause : error;
  if (!hasErrorCode<WireRefusalError>(refusal, "ERR_WIRE_REFUSED") || refusal.wireCode !== "ERR_TOO_MANY_CONNECTIONS") {
    return undefined;
  }
  const details = (refusal.details ?? {}) as Record<string, unknown>;
  const number = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
  return new BrokerFullError(number(details["maxConnections"]), number(details["brokerPid"]), { cause: error });
}
