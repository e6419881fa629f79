import { randomBytes } from "node:crypto";
import { chmodSync, linkSync, lstatSync, unlinkSync, type BigIntStats } from "node:fs";
import type { Server } from "node:net";
import * as path from "node:path";
import { BrokerListenError, SocketPathOccupiedError } from "./errors.js";
import { MAX_CLAIM_ATTEMPTS } from "./limits.js";
import type { BrokerLogger } from "./log.js";
import { probeBroker, type ProbeAnswer } from "./probe.js";

/**
 * Which socket file a path held when it was looked at: device, inode and change time. The change time matters
 * because file systems reuse a freed inode number at once, so a successor's socket can carry a stale one's inode.
 */
export interface SocketIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly ctimeNs: bigint;
}

function identityOf(stats: BigIntStats): SocketIdentity {
  return { dev: stats.dev, ino: stats.ino, ctimeNs: stats.ctimeNs };
}

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
  readonly socketPath: string;
  readonly platform: NodeJS.Platform;
  readonly probeTimeoutMs: number;
  readonly logger: BrokerLogger;
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

function lstatOrUndefined(file: string): BigIntStats | undefined {
  try {
    return lstatSync(file, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Names what sits at a path, for SocketPathOccupiedError. */
function describeEntry(stats: BigIntStats): string {
  if (stats.isFile()) return "a regular file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  return "a device or other special file";
}

/**
 * Claims `socketPath` for `server`, resolving contention through the socket itself rather than a lock file.
 *
 * Each attempt looks at the path. Nothing there: claim it. A socket: probe it (connect and hello within the
 * timeout); an answer means a live broker holds it, and this one stands down. No answer means the file is stale:
 * it is unlinked (only if it is still the same file) and claimed. Anything that is not a socket is refused with
 * SocketPathOccupiedError and left intact.
 *
 * Claiming listens on a private path beside the socket, then hard-links it into place. The link fails atomically
 * (EEXIST) when another broker got there first, which plays the part of EADDRINUSE in the classic listen race: the
 * loser probes again and stands down. Because libuv unlinks the path it bound when the server closes, binding a
 * private path also means a broker that outlives its claim can never unlink a successor's socket on exit.
 */
export async function claimSocket(context: ClaimContext): Promise<ClaimResult> {
  const { server, socketPath, logger } = context;
  if (context.platform === "win32") return claimPipe(context);
  for (let attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
    const existing = lstatOrUndefined(socketPath);
    if (existing !== undefined) {
      if (!existing.isSocket()) throw new SocketPathOccupiedError(socketPath, describeEntry(existing));
      const probe = await probeBroker(socketPath, context.probeTimeoutMs);
      if (probe.state === "answered") return { kind: "stood-down", reason: "answered", peer: probe };
      if (probe.state === "stale" && releaseSocket(socketPath, identityOf(existing))) {
        logger.info("reclaimed a stale socket", { socketPath, probe: probe.reason });
      }
    }
    const privatePath = path.join(path.dirname(socketPath), `.${randomBytes(3).toString("hex")}.sk`);
    const error = await listen(server, privatePath);
    if (error !== undefined) {
      if (error.code === "EADDRINUSE") continue;
      throw new BrokerListenError(socketPath, error.message, { cause: error });
    }
    try {
      chmodSync(privatePath, 0o600);
      linkSync(privatePath, socketPath);
    } catch (cause) {
      await closeServer(server);
      if ((cause as NodeJS.ErrnoException).code === "EEXIST") {
        logger.info("lost the race for the socket path; probing the winner", { socketPath, attempt });
        continue;
      }
      throw new BrokerListenError(socketPath, (cause as Error).message, { cause });
    } finally {
      try {
        unlinkSync(privatePath);
      } catch {
        // Already gone: closeServer unlinks what it bound.
      }
    }
    return { kind: "claimed", identity: identityOf(lstatSync(socketPath, { bigint: true })) };
  }
  return { kind: "stood-down", reason: "address-in-use" };
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

/**
 * Removes the socket file at `socketPath` only when it is still the one identified (the one this broker claimed,
 * or the one a probe found stale); returns whether it did. The check and the unlink run synchronously back to
 * back, so the window in which another broker could put its own socket there is a few microseconds.
 */
export function releaseSocket(socketPath: string, identity: SocketIdentity | undefined): boolean {
  if (identity === undefined) return false;
  const now = lstatOrUndefined(socketPath);
  if (now === undefined || !now.isSocket()) return false;
  if (now.ino !== identity.ino || now.dev !== identity.dev || now.ctimeNs !== identity.ctimeNs) return false;
  try {
    unlinkSync(socketPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
