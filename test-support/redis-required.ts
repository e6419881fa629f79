import { redisServerPath } from "./redis-server.js";

// `pnpm test:redis` without a redis-server fails before any test runs, and says how to get one: a missing server
// must never read as a suite that passed.
export default function setup(): void {
  const path = redisServerPath();
  process.stdout.write(`redis-server: ${path}\n`);
}
