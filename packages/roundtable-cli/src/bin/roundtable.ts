#!/usr/bin/env node
// The `roundtable` CLI: status, rooms, tail, fetch and post against the broker of an agent directory, and the doctor.
import { runCli } from "../cli/run.js";

const stop = new AbortController();
process.once("SIGINT", () => stop.abort());
process.once("SIGTERM", () => stop.abort());
const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: stop.signal,
});
process.exitCode = code;
// tail leaves nothing running once it returns, but a half-open socket must not keep a finished command alive.
setTimeout(() => process.exit(code), 200).unref();
