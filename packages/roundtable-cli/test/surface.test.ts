import { expect, test } from "vitest";
import * as cli from "@orphus/roundtable-cli";

test("the public surface is exactly this", () => {
  expect(Object.keys(cli).sort()).toEqual([
    "CLI_DEFAULT_ROLE",
    "CLI_DEFAULT_TAIL_LINES",
    "CLI_EXIT",
    "CLI_HELP_POINTER",
    "CLI_MAX_TAIL_LINES",
    "CLI_USAGE",
    "CLI_VERSION",
    "CliUsageError",
    "DOCTOR_EXIT",
    "DOCTOR_FINDINGS",
    "DOCTOR_HINTS",
    "DOCTOR_MAX_TIMEOUT_MS",
    "DOCTOR_ROLE",
    "DOCTOR_TIMEOUT_MS",
    "RoundtableCliError",
    "browserCommand",
    "doctorExitCode",
    "formatTailMessage",
    "parseCliArguments",
    "renderDoctorReport",
    "runCli",
    "runDoctor",
  ]);
});

test("exit codes, defaults, limits and codes are stable", () => {
  expect(cli.CLI_EXIT).toEqual({ ok: 0, failed: 1, usage: 2, noBroker: 3 });
  expect(cli.DOCTOR_EXIT).toEqual({ ok: 0, problem: 1 });
  expect([cli.CLI_DEFAULT_ROLE, cli.CLI_DEFAULT_TAIL_LINES, cli.CLI_MAX_TAIL_LINES]).toEqual(["human", 10, 200]);
  expect(cli.CLI_HELP_POINTER).toBe("(roundtable --help shows the usage)");
  expect([cli.DOCTOR_TIMEOUT_MS, cli.DOCTOR_MAX_TIMEOUT_MS, cli.DOCTOR_ROLE]).toEqual([
    2000,
    600000,
    "roundtable-doctor",
  ]);
  expect(Object.keys(cli.DOCTOR_FINDINGS)).toEqual([
    "split-fleet",
    "stale-socket",
    "unresponsive-broker",
    "broker-full",
    "socket-path-occupied",
    "permissions",
    "protocol-mismatch",
    "ephemeral-role",
    "empty-memory",
    "memory-unusable",
    "store-unavailable",
  ]);
  expect(Object.keys(cli.DOCTOR_HINTS)).toEqual(["no-role"]);
});

test("error names and codes are stable", () => {
  const usage = new cli.CliUsageError("bad");
  expect([usage.name, usage.code, usage.message]).toEqual(["CliUsageError", "ERR_CLI_USAGE", "bad"]);
  expect(usage).toBeInstanceOf(cli.RoundtableCliError);
});
