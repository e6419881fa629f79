import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveSeed } from "./fast-check-seed.js";

/** The broker's registry variable (see @orphus/roundtable-broker's REGISTRY_DIR_ENV). */
const REGISTRY_DIR_ENV = "ORPHUS_ROUNDTABLE_REGISTRY_DIR";
/** Set once the seed line is out: vitest runs this setup for the root and again for every project, in one process. */
const SEED_PRINTED = Symbol.for("orphus.fast-check-seed-printed");

// The seed is printed once per run so a failing property can be replayed with the same seed. Every broker a test
// starts (in-process or spawned, which inherit the environment) registers in a temporary directory, never the real
// home.
export default function setup(): () => void {
  const seed = resolveSeed();
  const flags = globalThis as { [SEED_PRINTED]?: boolean };
  if (flags[SEED_PRINTED] !== true) {
    flags[SEED_PRINTED] = true;
    process.stdout.write(`fast-check seed: ${seed} (replay with FC_SEED=${seed})\n`);
  }
  const owned = process.env[REGISTRY_DIR_ENV] === undefined;
  if (owned) process.env[REGISTRY_DIR_ENV] = mkdtempSync(join(tmpdir(), "orphus-registry-"));
  return () => {
    if (owned) rmSync(process.env[REGISTRY_DIR_ENV] ?? "", { recursive: true, force: true });
  };
}
