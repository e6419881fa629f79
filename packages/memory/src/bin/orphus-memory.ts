#!/usr/bin/env node
// orphus-memory: query, get, stats, ingest and forget on the shared memory store. Exit codes: MEMORY_CLI_EXIT.
import { runMemoryCli } from "../cli.js";

process.exitCode = await runMemoryCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
