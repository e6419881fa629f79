// Where bounded content goes: one run directory per fan-out, chain or call, one file per output, each published by
// a rename so a reader never sees half a file.
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { PINNED_LINE_MAX_LENGTH } from "@orphus/digest";
import { checkContent, checkString, type OutputContent } from "./content.js";
import { ArtifactWriteError, BoundsInputError, BoundsLimitError, BoundsOptionError } from "./errors.js";
import { ARTIFACT_SLUG_MAX_LENGTH, MAX_ARTIFACTS_DIR_LENGTH, MAX_ARTIFACTS_PER_RUN } from "./limits.js";
import { LINE_SAFE_PATH, lineUnsafe } from "./lines.js";
import { STUB_FIXED_MAX_LENGTH } from "./stub.js";

/** The file-system calls artifacts need; `node:fs/promises` has this shape, and tests inject their own. */
export interface ArtifactFs {
  mkdir(path: string, options: { recursive: true; mode: number }): Promise<unknown>;
  /** Creates a new directory named `prefix` plus a unique suffix and returns its path (as fs.mkdtemp does). */
  mkdtemp(prefix: string): Promise<string>;
  /** Writes a new file; with flag "wx" it fails rather than overwrite one that exists. */
  writeFile(path: string, data: OutputContent, options: { flag: "wx"; mode: number }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

/** Options of `openArtifactRun`. */
export interface ArtifactRunOptions {
  /** Absolute directory the runs go under (created when missing); at most MAX_ARTIFACTS_DIR_LENGTH characters. */
  readonly dir: string;
  /** The file system; default node:fs/promises. */
  readonly fs?: ArtifactFs;
}

/** What an artifact holds: a child's output, or its error detail. */
export type ArtifactKind = "output" | "error";

/** One run's artifacts: a directory of its own, so runs at once never share a path. */
export interface ArtifactRun {
  /** The run's directory. */
  readonly dir: string;
  /** Files written or being written so far. */
  readonly count: number;
  /**
   * Writes `content` byte for byte (a string as UTF-8) to a new file `<n>-<name part>.txt` (`.error.txt` for kind
   * "error"), `n` counting this run's writes from 1 in call order, so equal names never share a path. Resolves to
   * the path once the file is complete.
   */
  write(name: string, content: OutputContent, kind?: ArtifactKind): Promise<string>;
}

const nodeFs: ArtifactFs = { mkdir, mkdtemp, writeFile, rename, rm };

/** Widest artifact file name: five digits, "-", the name part and ".error.txt". */
const FILE_NAME_MAX_LENGTH = 5 + 1 + ARTIFACT_SLUG_MAX_LENGTH + ".error.txt".length;

/** Longest run directory for which a stub with two paths fits PINNED_LINE_MAX_LENGTH whole. */
export const RUN_DIR_MAX_LENGTH =
  Math.floor((PINNED_LINE_MAX_LENGTH - STUB_FIXED_MAX_LENGTH) / 2) - "/".length - FILE_NAME_MAX_LENGTH;

/** The name part of an artifact file: letters, digits, ".", "_" and "-"; "task" when nothing of `name` is left. */
export function slugOf(name: string): string {
  const slug = name
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+/, "")
    .slice(0, ARTIFACT_SLUG_MAX_LENGTH)
    .replace(/[-.]+$/, "");
  return slug === "" ? "task" : slug;
}

class Run implements ArtifactRun {
  private written = 0;

  constructor(
    readonly dir: string,
    private readonly fs: ArtifactFs,
  ) {}

  get count(): number {
    return this.written;
  }

  write(name: string, content: OutputContent, kind: ArtifactKind = "output"): Promise<string> {
    // Everything up to the number is synchronous, so numbers follow call order even when writes overlap.
    try {
      checkString(name, "name");
      checkContent(content, "content");
      if (kind !== "output" && kind !== "error") throw new BoundsInputError("kind", '"output" or "error"', kind);
      if (this.written >= MAX_ARTIFACTS_PER_RUN) {
        throw new BoundsLimitError("artifacts", MAX_ARTIFACTS_PER_RUN, this.written + 1);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    this.written++;
    const file = `${String(this.written).padStart(3, "0")}-${slugOf(name)}${kind === "error" ? ".error" : ""}.txt`;
    return this.publish(join(this.dir, file), join(this.dir, `.${file}.tmp`), content);
  }

  private async publish(path: string, temp: string, content: OutputContent): Promise<string> {
    try {
      await this.fs.writeFile(temp, content, { flag: "wx", mode: 0o600 });
      await this.fs.rename(temp, path);
      return path;
    } catch (error) {
      await this.fs.rm(temp, { force: true }).catch(() => undefined);
      throw new ArtifactWriteError(path, "write", error);
    }
  }
}

/**
 * Creates `dir` when missing (mode 0700) and a new run directory inside it (`run-XXXXXX`, by mkdtemp), so two runs
 * at once, in one process or several, never share a path. Throws BoundsOptionError for a directory that is not
 * absolute, too long, or that a stub could not show whole on its one line (a control, format or invisible
 * character, a double, leading or trailing space, the field separator " · "); ArtifactWriteError when the file
 * system refuses.
 */
export async function openArtifactRun(options: ArtifactRunOptions): Promise<ArtifactRun> {
  const dir: unknown = options.dir;
  if (typeof dir !== "string" || !isAbsolute(dir)) throw new BoundsOptionError("dir", "an absolute path", dir);
  if (dir.length > MAX_ARTIFACTS_DIR_LENGTH) {
    throw new BoundsOptionError("dir", `at most ${MAX_ARTIFACTS_DIR_LENGTH} characters`, dir);
  }
  if (lineUnsafe(dir) !== null) throw new BoundsOptionError("dir", LINE_SAFE_PATH, dir);
  const fs = options.fs ?? nodeFs;
  let runDir: string;
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    runDir = await fs.mkdtemp(join(dir, "run-"));
  } catch (error) {
    throw new ArtifactWriteError(dir, "create-run", error);
  }
  if (typeof runDir !== "string" || runDir.length > RUN_DIR_MAX_LENGTH || lineUnsafe(runDir) !== null) {
    const expected = `${LINE_SAFE_PATH} of at most ${RUN_DIR_MAX_LENGTH} characters`;
    throw new BoundsOptionError("fs.mkdtemp result", expected, runDir);
  }
  return new Run(runDir, fs);
}
