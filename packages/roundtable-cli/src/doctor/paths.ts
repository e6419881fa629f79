import { lstatSync, type Stats } from "node:fs";
import { shownPath } from "@orphus/roundtable-client";
import { notADirectory, notYours, openToOthers, socketPathOccupied, type DoctorFinding } from "./findings.js";

/** What the file checks saw, for the checks after them. */
export interface PathsSeen {
  /** Whether a socket file sits at the socket path (so a broker may be answering there). */
  readonly socket: boolean;
  readonly notes: readonly string[];
  readonly findings: readonly DoctorFinding[];
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Names what sits at a path that should be a socket. */
function kindOf(stats: Stats): string {
  const kinds: readonly [boolean, string][] = [
    [stats.isFile(), "a regular file"],
    [stats.isDirectory(), "a directory"],
    [stats.isSymbolicLink(), "a symbolic link"],
    [stats.isFIFO(), "a named pipe (FIFO)"],
  ];
  return kinds.find(([is]) => is)?.[1] ?? "a device or other special file";
}

function mode(stats: Stats): string {
  return (stats.mode & 0o777).toString(8).padStart(3, "0");
}

/** What {@link checkPrivateDir} saw: whether the directory is there to look into, and what it says about it. */
export interface DirSeen {
  /** False when it is missing, not a directory, or someone else's: nothing inside it is worth checking. */
  readonly usable: boolean;
  readonly notes: string[];
  readonly findings: DoctorFinding[];
}

/**
 * Checks a private directory (the broker's, the registry's): that it is a directory, the user's own, closed to
 * others. `missing` is the note when it does not exist.
 */
export function checkPrivateDir(dir: string, label: string, uid: number | undefined, missing: string): DirSeen {
  const stats = lstatOrUndefined(dir);
  if (stats === undefined) return { usable: false, notes: [missing], findings: [] };
  if (!stats.isDirectory()) return { usable: false, notes: [], findings: [notADirectory(dir)] };
  if (uid !== undefined && stats.uid !== uid)
    return { usable: false, notes: [], findings: [notYours(dir, stats.uid, uid)] };
  if ((stats.mode & 0o077) !== 0) {
    return { usable: true, notes: [], findings: [openToOthers(dir, "directory", stats.mode & 0o777)] };
  }
  return { usable: true, notes: [`${label} ${shownPath(dir)}: yours, mode ${mode(stats)}`], findings: [] };
}

/** Checks the broker directory of an agent directory and what sits at its socket path. Never connects. */
export function checkBrokerPaths(dir: string, socketPath: string, uid: number | undefined): PathsSeen {
  const directory = checkPrivateDir(
    dir,
    "broker directory",
    uid,
    `no broker directory yet (${shownPath(dir)}): no broker has run here`,
  );
  if (!directory.usable) return { socket: false, notes: directory.notes, findings: directory.findings };
  const notes = [...directory.notes];
  const findings = [...directory.findings];
  const stats = lstatOrUndefined(socketPath);
  if (stats === undefined) {
    notes.push(
      `no socket at ${shownPath(socketPath)}: no broker runs for this agent directory (the first session starts one)`,
    );
    return { socket: false, notes, findings };
  }
  if (!stats.isSocket()) {
    findings.push(socketPathOccupied(socketPath, kindOf(stats)));
    return { socket: false, notes, findings };
  }
  if (uid !== undefined && stats.uid !== uid) findings.push(notYours(socketPath, stats.uid, uid));
  else if ((stats.mode & 0o077) !== 0) findings.push(openToOthers(socketPath, "socket", stats.mode & 0o777));
  else notes.push(`socket ${shownPath(socketPath)}: yours, mode ${mode(stats)}`);
  return { socket: true, notes, findings };
}
