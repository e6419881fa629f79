// Finding and reading the files an ingest of paths takes in: folders walked (hidden entries and node_modules left
// out, symbolic links inside a folder not followed), and every file that cannot be taken skipped with a reason.
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { MAX_FILE_BYTES, MAX_FILES_PER_INGEST } from "../limits.js";

/** A path an ingest did not take, and why. */
export interface SkippedPath {
  readonly path: string;
  readonly reason: string;
}

/** Files to read, and what was skipped while finding them. */
export interface FoundFiles {
  readonly files: string[];
  readonly skipped: SkippedPath[];
}

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" ? "not found" : `unreadable (${code ?? (error as Error).message})`;
}

/** Folder entries a walk leaves out without counting them: hidden ones (.git) and dependency trees. */
function ignoredName(name: string): boolean {
  return name.startsWith(".") || name === "node_modules";
}

/**
 * The files under `paths` (files as given, folders walked in name order), absolute, at most `maxFiles`; `exclude`
 * (the store's own folder) is never entered.
 */
export function findFiles(paths: readonly string[], exclude: string, maxFiles: number = MAX_FILES_PER_INGEST): FoundFiles {
  const files: string[] = [];
  const skipped: SkippedPath[] = [];
  const seen = new Set<string>();
  const take = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    if (files.length >= maxFiles) skipped.push({ path: file, reason: `over the limit of ${maxFiles} files per ingest` });
    else files.push(file);
  };
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      skipped.push({ path: dir, reason: errorText(error) });
      return;
    }
    for (const name of names) {
      if (ignoredName(name)) continue;
      const entry = path.join(dir, name);
      let stats;
      try {
        stats = lstatSync(entry);
      } catch (error) {
        skipped.push({ path: entry, reason: errorText(error) });
        continue;
      }
      if (stats.isSymbolicLink()) skipped.push({ path: entry, reason: "a symbolic link inside a folder (not followed)" });
      else if (stats.isDirectory()) {
        if (entry !== exclude) walk(entry);
      } else if (stats.isFile()) take(entry);
      else skipped.push({ path: entry, reason: "not a regular file" });
    }
  };
  for (const given of paths) {
    const absolute = path.resolve(given);
    let stats;
    try {
      stats = statSync(absolute);
    } catch (error) {
      skipped.push({ path: absolute, reason: errorText(error) });
      continue;
    }
    if (stats.isDirectory()) {
      if (absolute === exclude) skipped.push({ path: absolute, reason: "the memory store's own folder" });
      else walk(absolute);
    } else if (stats.isFile()) take(absolute);
    else skipped.push({ path: absolute, reason: "not a regular file" });
  }
  return { files, skipped };
}

/** A file read as text, or why it cannot be ingested. */
export type ReadResult = { readonly text: string; readonly bytes: Buffer } | { readonly skip: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads a file as UTF-8 text: larger than `maxBytes`, unreadable or binary (a NUL byte, or not UTF-8) is a skip. */
export function readTextFile(file: string, maxBytes: number = MAX_FILE_BYTES): ReadResult {
  let bytes: Buffer;
  try {
    const size = statSync(file).size;
    if (size > maxBytes) return { skip: `larger than ${maxBytes} bytes (${size} bytes)` };
    bytes = readFileSync(file);
  } catch (error) {
    return { skip: errorText(error) };
  }
  if (bytes.length > maxBytes) return { skip: `larger than ${maxBytes} bytes (${bytes.length} bytes)` };
  if (bytes.includes(0)) return { skip: "binary (it holds NUL bytes)" };
  try {
    const text = utf8.decode(bytes);
    return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, bytes };
  } catch {
    return { skip: "binary (not UTF-8 text)" };
  }
}
