// A scratch copy of the repository as it stands (what `git status` would commit, not what it ignores), for the
// scripts that must install or version it apart from the working copy: the release rehearsal, and the test runs
// under another Node line, whose native addons are built for that line in the copy.
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { run } from "./run.js";

/** Copies the tracked and untracked, not ignored, files of the repository at `root` into `dest`; returns their paths. */
export function copyWorkingTree(root: string, dest: string): string[] {
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root)
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(join(root, file), join(dest, file));
  }
  return files;
}
