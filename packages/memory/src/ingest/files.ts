// Finding and reading the files an ingest of paths takes in: folders walked (hidden entries and node_modules left
// out, symbolic links inside a folder not followed), and every file that cannot be taken skipped with a reason and
// its kind, the files inside a folder left out counted (not read).
import { isUtf8 } from "node:buffer";
import { closeSync, lstatSync, openSync, readdirSync, readSync, statSync, type Dirent } from "node:fs";
import * as path from "node:path";
import { MAX_FILE_BYTES, MAX_FILES_PER_INGEST } from "../limits.js";

/** Why an ingest did not take something, by kind: what its report counts skips by. */
export type SkipKind =
  | "skipped-folder"
  | "hidden-file"
  | "too-large"
  | "not-text"
  | "unreadable"
  | "not-found"
  | "not-a-file"
  | "symbolic-link"
  | "over-limit"
  | "no-text"
  | "too-long";

/** A path an ingest did not take, why, and how many files that skip stands for. */
export interface SkippedPath {
  readonly path: string;
  readonly reason: string;
  readonly kind: SkipKind;
  /** Files the skip stands for: those inside a skipped folder (counted, not read), else 1. */
  readonly files: number;
}

/** A file to read, its size when it was found, and its label: its path from the folder above the one given. */
export interface FoundFile {
  readonly path: string;
  readonly size: number;
  /** `docs/guide/install.md` for a file found under a given `docs`; a file given itself is labelled by its name. */
  readonly label?: string;
}

/** Files to read, and what was skipped while finding them. */
export interface FoundFiles {
  readonly files: FoundFile[];
  readonly skipped: SkippedPath[];
  /** False when counting the files inside skipped folders stopped at its bound (the counts are then lower bounds). */
  readonly countsExact: boolean;
}

/** Entries read inside skipped folders to count their files, at most, per ingest: counting is work too. */
const MAX_COUNTED_ENTRIES = 100_000;

/** A skip of `file` (or a text's label) of `kind`, standing for `files` files. */
export function skippedPath(file: string, kind: SkipKind, reason: string, files = 1): SkippedPath {
  return { path: file, reason, kind, files };
}

function errorSkip(file: string, error: unknown): SkippedPath {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT"
    ? skippedPath(file, "not-found", "not found")
    : skippedPath(file, "unreadable", `unreadable (${code ?? (error as Error).message})`);
}

/** Why a walk leaves a folder entry out without reading it: hidden ones (.git) and dependency trees. */
function leftOut(name: string): string | undefined {
  if (name === "node_modules") return "node_modules";
  return name.startsWith(".") ? "hidden" : undefined;
}

/**
 * The files under `paths` (files as given, folders walked in name order), absolute, at most `maxFiles`; `exclude`
 * (the store's own folder) is never entered. Folders left out (hidden ones, node_modules, the store's own) are
 * skipped whole, with the files inside them counted, not read.
 */
export function findFiles(
  paths: readonly string[],
  exclude: string,
  maxFiles: number = MAX_FILES_PER_INGEST,
): FoundFiles {
  const files: FoundFile[] = [];
  const skipped: SkippedPath[] = [];
  const seen = new Set<string>();
  let countBudget = MAX_COUNTED_ENTRIES;
  // Labels are relative to the folder above the one given, so they keep its name (`docs/…`) and stay short.
  let base = "";
  const take = (file: string, size: number): void => {
    if (seen.has(file)) return;
    seen.add(file);
    if (files.length >= maxFiles)
      skipped.push(skippedPath(file, "over-limit", `over the limit of ${maxFiles} files per ingest`));
    else files.push({ path: file, size, label: base === "" ? path.basename(file) : path.relative(base, file) });
  };
  // The files below a folder left out, without following links, while the count's bound lasts.
  const countFiles = (dir: string): number => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return 0;
    }
    let count = 0;
    for (const entry of entries) {
      if (countBudget <= 0) break;
      countBudget--;
      if (entry.isFile()) count++;
      else if (entry.isDirectory()) count += countFiles(path.join(dir, entry.name));
    }
    return count;
  };
  const skipFolder = (dir: string, why: string): void => {
    const inside = countFiles(dir);
    // An empty folder left out (a cache, an empty .git hook folder) skips nothing worth a line.
    if (inside > 0)
      skipped.push(
        skippedPath(
          dir,
          "skipped-folder",
          `a skipped folder (${why}): ${inside} ${inside === 1 ? "file" : "files"} not read`,
          inside,
        ),
      );
  };
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (error) {
      skipped.push(errorSkip(dir, error));
      return;
    }
    for (const name of names) {
      const entry = path.join(dir, name);
      let stats;
      try {
        stats = lstatSync(entry);
      } catch (error) {
        skipped.push(errorSkip(entry, error));
        continue;
      }
      const why = leftOut(name);
      if (stats.isSymbolicLink())
        skipped.push(skippedPath(entry, "symbolic-link", "a symbolic link inside a folder (not followed)"));
      else if (stats.isDirectory()) {
        if (entry === exclude) skipFolder(entry, "the memory store's own folder");
        else if (why !== undefined) skipFolder(entry, why);
        else walk(entry);
      } else if (why !== undefined) skipped.push(skippedPath(entry, "hidden-file", "a hidden file"));
      else if (stats.isFile()) take(entry, stats.size);
      else skipped.push(skippedPath(entry, "not-a-file", "not a regular file"));
    }
  };
  for (const given of paths) {
    const absolute = path.resolve(given);
    let stats;
    try {
      stats = statSync(absolute);
    } catch (error) {
      skipped.push(errorSkip(absolute, error));
      continue;
    }
    if (stats.isDirectory()) {
      if (absolute === exclude) skipFolder(absolute, "the memory store's own folder");
      else {
        base = path.dirname(absolute);
        walk(absolute);
      }
    } else if (stats.isFile()) {
      base = "";
      take(absolute, stats.size);
    } else skipped.push(skippedPath(absolute, "not-a-file", "not a regular file"));
  }
  return { files, skipped, countsExact: countBudget > 0 };
}

/** A file read as text with its bytes (valid until the next read: one buffer serves every read), or why it cannot be ingested. */
export type ReadResult = { readonly text: string; readonly bytes: Buffer } | { readonly skip: SkippedPath };

/** One buffer every read fills, grown as needed up to MAX_FILE_BYTES + 1: the file's bytes are used before the next read. */
let readBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * The bytes of `file`, found at `size`, read into the shared buffer (valid until the next read): at most
 * `maxBytes + 1`, so a file that grew past the limit since it was found shows as larger.
 */
function readWhole(file: string, size: number, maxBytes: number): Buffer {
  const want = Math.min(maxBytes + 1, size + 1);
  if (readBuffer.length < want)
    readBuffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(want, readBuffer.length * 2)));
  const fd = openSync(file, "r");
  try {
    let length = 0;
    for (;;) {
      if (length === readBuffer.length) {
        if (length > maxBytes) break;
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, length * 2));
        readBuffer.copy(grown, 0, 0, length);
        readBuffer = grown;
      }
      const n = readSync(fd, readBuffer, length, readBuffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return readBuffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a file found at `size` bytes as UTF-8 text: larger than `maxBytes` (when found or when read), unreadable or
 * binary (a NUL byte, or not UTF-8) is a skip. The size comes from the walk, so a file too large is never read.
 */
export function readTextFile(file: FoundFile, maxBytes: number = MAX_FILE_BYTES): ReadResult {
  const tooLarge = (size: number): ReadResult => ({
    skip: skippedPath(file.path, "too-large", `larger than ${maxBytes} bytes (${size} bytes)`),
  });
  if (file.size > maxBytes) return tooLarge(file.size);
  let bytes: Buffer;
  try {
    bytes = readWhole(file.path, file.size, maxBytes);
  } catch (error) {
    return { skip: errorSkip(file.path, error) };
  }
  if (bytes.length > maxBytes)
    return { skip: skippedPath(file.path, "too-large", `larger than ${maxBytes} bytes (it grew while it was read)`) };
  if (bytes.includes(0)) return { skip: skippedPath(file.path, "not-text", "binary (it holds NUL bytes)") };
  if (!isUtf8(bytes)) return { skip: skippedPath(file.path, "not-text", "binary (not UTF-8 text)") };
  const text = bytes.toString("utf8");
  return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, bytes };
}
