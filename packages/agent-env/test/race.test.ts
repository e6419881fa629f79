// Many processes making the same fresh private directories at once, as sessions starting together make their agent
// directory's broker folder: every call must succeed, whoever made each level first.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, expect, test } from "vitest";
import { bundlePrograms, type BundledPrograms } from "../../../test-support/target.js";

const PROCESSES = 16;
const HOMES = 10;
/** Rounds of fresh homes: one round loses the race only now and then, so the test runs several. */
const ROUNDS = 5;

let bundle: BundledPrograms | undefined;
beforeAll(async () => {
  bundle = await bundlePrograms(
    { "make-dirs": path.join(import.meta.dirname, "support", "make-dirs.ts") },
    { prefix: "ae-race-" },
  );
}, 60_000);
afterAll(() => bundle?.remove());

/** A racing process: `ready` once it listens, and `round(homes)` resolving with the failures of that round. */
interface Racer {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  round(homes: readonly string[]): Promise<string[]>;
}

function racer(program: string): Racer {
  const child = spawn(process.execPath, [program], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting: ((failures: string[]) => void)[] = [];
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    if (line === "ready") onReady();
    else waiting.shift()?.((JSON.parse(line) as { failures: string[] }).failures);
  });
  return {
    child,
    ready,
    round: (homes) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin?.write(`go ${JSON.stringify(homes)}\n`);
      }),
  };
}

test(`${PROCESSES} processes making the same ${HOMES} fresh directories at once all succeed`, async () => {
  const root = mkdtempSync(path.join(tmpdir(), "ae-race-"));
  const racers = Array.from({ length: PROCESSES }, () =>
    racer(path.join((bundle as BundledPrograms).dir, "make-dirs.js")),
  );
  try {
    await Promise.all(racers.map((r) => r.ready));
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const homes = Array.from({ length: HOMES }, (_, i) => path.join(root, `round-${round}`, `home-${i}`));
      failures.push(...(await Promise.all(racers.map((r) => r.round(homes)))).flat());
      for (const home of homes) {
        expect(statSync(path.join(home, ".orphus", "agent", "roundtable")).mode & 0o777).toBe(0o700);
      }
    }
    expect(failures).toEqual([]);
  } finally {
    for (const r of racers) r.child.kill();
    rmSync(root, { recursive: true, force: true });
  }
});
