// An in-memory ArtifactFs for tests: records every call, keeps files as bytes, and fails on request.
import type { ArtifactFs, OutputContent } from "@orphus/bounds";

export interface MemoryFs extends ArtifactFs {
  readonly files: Map<string, Uint8Array>;
  readonly dirs: Set<string>;
  readonly calls: string[];
  /** Paths (or path suffixes) whose next writeFile or rename throws. */
  readonly failOn: Set<string>;
}

function failure(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: injected failure, ${path}`), { code });
}

/** A memory file system whose mkdtemp hands out `<prefix>000001`, `<prefix>000002`, … */
export function memoryFs(): MemoryFs {
  const files = new Map<string, Uint8Array>();
  const dirs = new Set<string>();
  const calls: string[] = [];
  const failOn = new Set<string>();
  let temps = 0;
  const fails = (path: string) => [...failOn].some((suffix) => path.endsWith(suffix));
  return {
    files,
    dirs,
    calls,
    failOn,
    async mkdir(path) {
      calls.push(`mkdir ${path}`);
      dirs.add(path);
    },
    async mkdtemp(prefix) {
      const path = `${prefix}${String(++temps).padStart(6, "0")}`;
      calls.push(`mkdtemp ${path}`);
      dirs.add(path);
      return path;
    },
    async writeFile(path, data: OutputContent, options) {
      calls.push(`writeFile ${path} ${options.flag} ${options.mode.toString(8)}`);
      if (fails(path)) throw failure("ENOSPC", path);
      if (options.flag === "wx" && files.has(path)) throw failure("EEXIST", path);
      files.set(path, typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data));
    },
    async rename(from, to) {
      calls.push(`rename ${from} ${to}`);
      if (fails(to)) throw failure("EACCES", to);
      const data = files.get(from);
      if (data === undefined) throw failure("ENOENT", from);
      files.delete(from);
      files.set(to, data);
    },
    async rm(path) {
      calls.push(`rm ${path}`);
      files.delete(path);
    },
  };
}
