// Every property test in the repo runs with one fixed, printed seed so any failure can be replayed:
// FC_SEED=<n> pnpm test. FC_NUM_RUNS scales the run count up for a deeper local search.
import fc from "fast-check";

/** The seed used when FC_SEED is not set. Fixed so CI is reproducible. */
export const DEFAULT_FC_SEED = 20261130;

export function resolveSeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env["FC_SEED"];
  if (raw === undefined || raw === "") return DEFAULT_FC_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return seed;
}

const seed = resolveSeed();
const runsScale = Number(process.env["FC_NUM_RUNS_SCALE"] ?? "1");
fc.configureGlobal({
  seed,
  // Per-test numRuns still wins; this is the default for tests that do not set one.
  numRuns: Math.max(1, Math.round(100 * (Number.isFinite(runsScale) ? runsScale : 1))),
});
