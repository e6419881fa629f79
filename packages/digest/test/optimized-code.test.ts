import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

// A broker renders digests for as long as it runs, through many full garbage collections. Each collection used to
// throw the digest's optimized code away (V8 collects a hidden class no live object has, and code checking it goes
// with it: "weak objects" deoptimizations, about 300 over 20 collections here), so the digests after it ran about
// ten times slower. Counting deoptimizations is deterministic where timing is not: src/shapes.ts is the fix.
test("full garbage collections do not throw the digest's optimized code away", () => {
  const probe = fileURLToPath(new URL("./support/deopt-probe.ts", import.meta.url));
  const run = spawnSync(
    process.execPath,
    ["--expose-gc", "--trace-deopt", "--conditions=@orphus/source", "--import", import.meta.resolve("tsx"), probe],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
  );
  expect(run.status, run.stderr).toBe(0);
  const measured = run.stdout.slice(run.stdout.indexOf("=== measured"));
  expect(measured).toContain("=== done");
  const weakObjectDeopts = measured.split("\n").filter((line) => line.includes("reason: weak objects")).length;
  // 0 on Node 20, 4 on Node 22 and 24 with the fix; about 300 without it.
  expect(weakObjectDeopts).toBeLessThan(30);
}, 90_000);
