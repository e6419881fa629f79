import { randomBytes } from "node:crypto";
import { chmodSync, linkSync, lstatSync, unlinkSync } from "node:fs";
import type { Server } from "node:net";
import * as path from "node:path";
import { agentDirError, probeBroker, readPidFilePid, type ProbeAnswer } from "@orphus/roundtable-locator";
import { BrokerListenError, SocketPathOccupiedError, SocketPathUnresponsiveError } from "./errors.js";
import { MAX_CLAIM_ATTEMPTS } from "./limits.js";
import type { BrokerLogger } from "./log.js";
import { reclaimStaleSocket, type ClaimHooks } from "./reclaim.js";
import { describeEntry, identityOf, isSameSocket, lstatOrUndefined, type SocketIdentity } from "./socket-file.js";

/** The outcome of claiming the socket path. */
export type ClaimResult =
  | { readonly kind: "claimed"; readonly identity: SocketIdentity | undefined }
  | {
      readonly kind: "stood-down";
      /** "answered": a live broker answered the probe. "address-in-use": the path stayed taken for every attempt. */
      readonly reason: "answered" | "address-in-use";
      readonly peer?: ProbeAnswer;
    };

interface ClaimContext {
  readonly server: Server;
  /** The agent directory, named when its file system refuses the socket. */
  readonly agentDir: string;
  readonly socketPath: string;
  /** The pid file, named in the error about an unresponsive socket. */
  readonly pidPath: string;
  readonly platform: NodeJS.Platform;
  readonly probeTimeoutMs: number;
  readonly logger: BrokerLogger;
  readonly hooks?: ClaimHooks;
}

function listen(server: Server, address: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off("listening", onListening);
      resolve(error);
    };
    const onListening = (): void => {
      server.off("error", onError);
      resolve(undefined);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(address);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Claims `socketPath` for `server`, resolving contention through the socket itself rather than a lock file.
 *
 * Each attempt looks at the path. Nothing there: claim it. A socket: probe it (connect and hello within the
 * timeout). An answer means a live broker holds it, and this one stands down. A refused or dropped connection means
 * the file is stale: it is reclaimed by moving it aside and removing it only if it is still the file the probe
 * found (reclaimStaleSocket), then the path is claimed. A socket that accepts but stays silent for the whole timeout
 * may be a stopped or hung broker, so it is refused with SocketPathUnresponsiveError and left alone, as is anything
 * that is not a socket (SocketPathOccupiedError).
 *
 * Claiming listens on a private path beside the socket, then hard-links it into place. The link fails atomically
 * (EEXIST) when another broker got there first, which plays the part of EADDRINUSE in the classic listen race: the
 * loser probes again and stands down. Because libuv unlinks the path it bound when the server closes, binding a
 * private path also means a broker that outlives its claim can never unlink a successor's socket on exit. The
 * identity is taken from the private path, so it is this server's own socket whatever the path names by then.
 */
export async function claimSocket(context: ClaimContext): Promise<ClaimResult> {
  const { socketPath, logger } = context;
  if (context.platform === "win32") return claimPipe(context);
  for (let attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
    const existing = lstatOrUndefined(socketPath);
    if (existing !== undefined) {
      if (!existing.isSocket()) throw new SocketPathOccupiedError(socketPath, describeEntry(existing));
      const probe = await probeBroker(socketPath, context.probeTimeoutMs);
      if (probe.state === "answered") return { kind: "stood-down", reason: "answered", peer: probe };
      if (probe.state === "stale" && probe.reason === "timeout") {
        throw new SocketPathUnresponsiveError(socketPath, context.probeTimeoutMs, readPidFilePid(context.pidPath));
      }
      if (probe.state === "stale") {
        if (context.hooks?.beforeReclaim !== undefined) await context.hooks.beforeReclaim();
        const outcome = await reclaimStaleSocket(socketPath, identityOf(existing), context.hooks);
        if (outcome === "reclaimed") logger.info("reclaimed a stale socket", { socketPath, probe: probe.reason });
        if (outcome === "changed") {
          logger.info("the socket path changed hands while reclaiming it; probing again", { socketPath, attempt });
          continue;
        }
      }
    }
    const claimed = await claimOnce(context, attempt);
    if (claimed !== undefined) return { kind: "claimed", identity: claimed };
  }
  return { kind: "stood-down", reason: "address-in-use" };
}

/**
 * One claim: listen on a private name, link it into place, drop the private name. Undefined when the path was
 * taken first (EEXIST) or the private name was (EADDRINUSE), after which the caller probes again.
 */
async function claimOnce(context: ClaimContext, attempt: number): Promise<SocketIdentity | undefined> {
  const { server, socketPath, logger } = context;
  const privatePath = path.join(path.dirname(socketPath), `.${randomBytes(3).toString("hex")}.sk`);
  const error = await listen(server, privatePath);
  if (error !== undefined) {
    if (error.code === "EADDRINUSE") return undefined;
    throw (
      agentDirError(context.agentDir, error, path.dirname(socketPath)) ??
      new BrokerListenError(socketPath, error.message, { cause: error })
    );
  }
  let identity: SocketIdentity;
  try {
    identity = identityOf(lstatSync(privatePath, { bigint: true }));
    chmodSync(privatePath, 0o600);
    linkSync(privatePath, socketPath);
  } catch (cause) {
    await closeServer(server);
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") {
      logger.info("lost the race for the socket path; probing the winner", { socketPath, attempt });
      return undefined;
    }
    throw (
      agentDirError(context.agentDir, cause, path.dirname(socketPath)) ??
      new BrokerListenError(socketPath, (cause as Error).message, { cause })
    );
  } finally {
    try {
      unlinkSync(privatePath);
    } catch {
      // Already gone: closeServer unlinks what it bound.
    }
  }
  // A reclaiming rival may have handed the path back to an older broker in the moment after the link: then this
  // broker owns nothing, and says so at once instead of waiting for its path watch.
  if (!isSameSocket(lstatOrUndefined(socketPath), identity)) {
    await closeServer(server);
    logger.info("the socket path went to another broker right after the claim; probing it", { socketPath, attempt });
    return undefined;
  }
  return identity;
}

/** Windows named pipes have no file to reclaim: listen, and on EADDRINUSE probe whoever holds the name. */
async function claimPipe(context: ClaimContext): Promise<ClaimResult> {
  const { server, socketPath } = context;
  for (let attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
    const error = await listen(server, socketPath);
    if (error === undefined) return { kind: "claimed", identity: undefined };
    if (error.code !== "EADDRINUSE") throw new BrokerListenError(socketPath, error.message, { cause: error });
    const probe = await probeBroker(socketPath, context.probeTimeoutMs);
    if (probe.state === "answered") return { kind: "stood-down", reason: "answered", peer: probe };
  }
  return { kind: "stood-down", reason: "address-in-use" };
}
