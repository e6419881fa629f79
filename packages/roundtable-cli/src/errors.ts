import { brandErrorClass } from "@orphus/internal";

/** Base class of every error this package throws; `code` is stable across releases. */
export abstract class RoundtableCliError extends Error {
  abstract readonly code: string;
  static {
    brandErrorClass(this);
  }
}

/**
 * The `roundtable` CLI was given arguments it cannot use (an unknown command or option, a missing or malformed
 * argument, a text over the broker's limit); it prints the message in one line and exits with code 2.
 */
export class CliUsageError extends RoundtableCliError {
  override readonly name = "CliUsageError";
  readonly code = "ERR_CLI_USAGE";
}
