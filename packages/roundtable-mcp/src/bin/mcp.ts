#!/usr/bin/env node
// orphus-roundtable-mcp: what an agent CLI (Claude Code, Codex, Gemini CLI) starts as a stdio MCP server. Only MCP
// frames go to stdout; diagnostics go to stderr. Exit code 0 when the host closes stdin, 1 when the session failed,
// 2 for bad arguments.
import { boundedText } from "@orphus/roundtable-client";
import { MAX_MCP_DIAGNOSTIC_CHARS } from "../limits.js";
import { runStdioServer } from "../run.js";

runStdioServer(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
    // Nothing more will be read; a paused stdin must not keep the process alive.
    process.stdin.destroy();
  },
  (error: unknown) => {
    // One line like every other: a stack folded, sanitised and cut, so nothing in it can break or colour the log.
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`orphus-roundtable-mcp: ${boundedText(text, MAX_MCP_DIAGNOSTIC_CHARS, { oneLine: true })}\n`);
    process.exitCode = 1;
    process.stdin.destroy();
  },
);
