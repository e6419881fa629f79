import { resolveSeed } from "./fast-check-seed.js";

// Printed once per run so a failing property can be replayed with the same seed.
export default function setup(): void {
  const seed = resolveSeed();
  process.stdout.write(`fast-check seed: ${seed} (replay with FC_SEED=${seed})\n`);
}
