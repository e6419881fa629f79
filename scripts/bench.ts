// `pnpm bench`: runs every packages/*/bench/*.bench.ts in its own process (so one benchmark's heap and JIT state
// cannot colour another's), resolving workspace packages from source. `pnpm bench framing` runs one package's.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const only = process.argv.slice(2);
const packagesDir = join(root, "packages");
let failed = 0;
// Brokers started by benchmarks register in a temporary directory, never in the real home's registry.
const registryDir = mkdtempSync(join(tmpdir(), "orphus-bench-registry-"));
const env = { ...process.env, ORPHUS_ROUNDTABLE_REGISTRY_DIR: registryDir };
for (const name of readdirSync(packagesDir).sort()) {
  if (only.length > 0 && !only.includes(name)) continue;
  const benchDir = join(packagesDir, name, "bench");
  if (!existsSync(benchDir)) continue;
  for (const file of readdirSync(benchDir).filter((f) => f.endsWith(".bench.ts")).sort()) {
    process.stdout.write(`\n# ${name}/${file}\n`);
    const result = spawnSync(
      process.execPath,
      ["--expose-gc", "--conditions=@orphus/source", "--import", "tsx", join(benchDir, file)],
      { cwd: join(packagesDir, name), stdio: "inherit", env },
    );
    if (result.status !== 0) failed++;
  }
}
rmSync(registryDir, { recursive: true, force: true });
if (failed > 0) {
  process.stdout.write(`\n${failed} benchmark file(s) missed a target or failed\n`);
  process.exitCode = 1;
}
