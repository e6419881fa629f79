import { chromiumPath } from "./chromium.js";

// `pnpm test:browser` without a Chromium fails before any test runs, and says how to get one.
export default function setup(): void {
  process.stdout.write(`chromium: ${chromiumPath()}\n`);
}
