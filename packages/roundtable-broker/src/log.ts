import { appendFileSync, renameSync, statSync } from "node:fs";
import { DEFAULT_MAX_LOG_BYTES } from "./limits.js";

/** Facts attached to a log line. */
export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** Where the broker reports what it does; injected, silent by default. Must not throw. */
export interface BrokerLogger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** A logger that discards everything: the default of an embedded broker. */
export const silentLogger: BrokerLogger = { info() {}, warn() {}, error() {} };

/** Options of {@link createFileLogger}. */
export interface FileLoggerOptions {
  /** Size at which the file is rotated to `<file>.1` (replacing the previous one); default {@link DEFAULT_MAX_LOG_BYTES}. */
  readonly maxBytes?: number;
  /** Source of the timestamps; default `Date.now`. */
  readonly clock?: () => number;
}

/** Renders one log line: ISO time, level, message, then `key=value` facts (values JSON-quoted when they need it). */
export function formatLogLine(time: number, level: string, message: string, fields?: LogFields): string {
  let line = `${new Date(time).toISOString()} ${level} ${message}`;
  if (fields !== undefined) {
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const text = String(value);
      line += ` ${key}=${/^[\w./:@-]*$/.test(text) && text !== "" ? text : JSON.stringify(text)}`;
    }
  }
  return `${line.replace(/[\r\n]+/g, " ")}\n`;
}

/**
 * A logger appending lines to `file`, size-bounded: once the file passes `maxBytes` it is renamed to `<file>.1`
 * (replacing the older one), so the two never hold much more than twice `maxBytes`. Writes are synchronous so
 * the last lines before an exit are on disk; failures to write are swallowed (a log must never kill the broker).
 */
export function createFileLogger(file: string, options?: FileLoggerOptions): BrokerLogger {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_LOG_BYTES;
  const clock = options?.clock ?? Date.now;
  let size: number | undefined;
  const write = (level: string, message: string, fields?: LogFields): void => {
    const line = formatLogLine(clock(), level, message, fields);
    try {
      size ??= statSize(file);
      if (size > 0 && size + Buffer.byteLength(line) > maxBytes) {
        renameSync(file, `${file}.1`);
        size = 0;
      }
      appendFileSync(file, line, { mode: 0o600 });
      size += Buffer.byteLength(line);
    } catch {
      size = undefined;
    }
  };
  return {
    info: (message, fields) => write("info", message, fields),
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
  };
}

function statSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
