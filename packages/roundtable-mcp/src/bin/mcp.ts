#!/usr/bin/env node
// orphus-roundtable-mcp: what an agent CLI (Claude Code, Codex, Gemini CLI) starts as a stdio MCP server. Only MCP
// frames go to stdout; diagnostics go to stderr. Exit code 0 when the host closes stdin, 1 when the session failed,
// 2 for bad arguments.
import { runStdioServer } from "../run.js";

runStdioServer(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
    // Nothing more will be read; a paused stdin must not keep the process alive.
    process.stdin.destroy();
  },
  (error: unknown) => {
    process.stderr.write(`orphus-roundtable-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
    process.stdin.destroy();
  },
);
