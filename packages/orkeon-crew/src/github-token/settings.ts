import * as z from "zod";
import { SettingsInvalidError } from "../errors.js";
import { isRecord, typeName } from "@orphus/internal";
import { asciiUpperCase, sameIgnoringAsciiCase } from "../text.js";

/** Reads one settings key (`Orkeon:Tools:GitHub:Token`), or undefined when unset. */
export type SettingsReader = (key: string) => string | undefined;

/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A settings file as the runtime's configuration reads it: a JSON object at its root. */
export const settingsFileSchema = z.record(z.string(), z.unknown(), { error: "a JSON object" });

/** A setting's own value in a settings file: a string, or null for unset (an object or array holds children). */
export const settingValueSchema = z.string({ error: "a string or null" }).nullable();

/** The variable that carries a settings key in its usual spelling: `:` becomes `__`. */
export function settingVariableName(key: string): string {
  return key.replaceAll(":", "__");
}

/**
 * The variables that carry a settings key, in every spelling the runtime's configuration accepts: `__` (or `:`)
 * between segments and any ASCII letter case, since .NET configuration keys compare with OrdinalIgnoreCase. Sorted.
 */
export function settingVariables(env: Environment, key: string): string[] {
  return Object.keys(env)
    .filter((name) => envValue(env, name) !== undefined && sameIgnoringAsciiCase(name.replaceAll("__", ":"), key))
    .sort();
}

/**
 * The runtime's settings as layered configuration: a settings file's JSON, overridden by the variables that carry
 * the key. Keys match as .NET configuration matches them: without regard to ASCII letter case, and nothing else
 * folded. Throws SettingsInvalidError where that configuration would fail or choose unpredictably: a file whose root
 * is not an object or that holds a key twice, a setting that is neither a string nor null, or one key set by several
 * variables with different values.
 */
export function createSettingsReader(sources: { readonly json?: unknown; readonly env?: Environment }): SettingsReader {
  const { json, env } = sources;
  if (json !== undefined && json !== null) {
    const root = settingsFileSchema.safeParse(json);
    if (!root.success) {
      throw new SettingsInvalidError(`The settings file's root must be a JSON object, got ${typeName(json)}`, {
        cause: root.error,
      });
    }
  }
  return (key) => (env === undefined ? undefined : envSetting(env, key)) ?? fileSetting(json, key);
}

function envSetting(env: Environment, key: string): string | undefined {
  const names = settingVariables(env, key);
  const [first] = names;
  if (first === undefined) return undefined;
  if (names.some((name) => envValue(env, name) !== envValue(env, first))) {
    throw new SettingsInvalidError(
      `${key} is set by ${names.length} variables with different values (${names.join(", ")}): the runtime's ` +
        "configuration matches keys without regard to case and would take one of them unpredictably; keep one",
    );
  }
  return envValue(env, first);
}

/** The file's value at `key`, its segments matched without regard to ASCII case, as .NET flattens the JSON. */
function fileSetting(json: unknown, key: string): string | undefined {
  const found: unknown[] = [];
  const visit = (node: unknown, prefix: string): void => {
    if (!isRecord(node)) return;
    for (const name of Object.keys(node)) {
      const path = prefix === "" ? name : `${prefix}:${name}`;
      const value = node[name];
      if (sameIgnoringAsciiCase(path, key)) {
        if (!isRecord(value)) found.push(value);
      } else if (asciiUpperCase(key).startsWith(asciiUpperCase(`${path}:`))) {
        visit(value, path);
      }
    }
  };
  visit(json, "");
  if (found.length > 1) {
    throw new SettingsInvalidError(`The settings file holds the key ${key} more than once, letter case aside`);
  }
  const [value] = found;
  if (value === undefined || Array.isArray(value)) return undefined;
  const setting = settingValueSchema.safeParse(value);
  if (!setting.success) {
    // Never the value: a setting in the wrong shape may still be a token.
    throw new SettingsInvalidError(`${key} in the settings file must be a string or null, got ${typeName(value)}`, {
      cause: setting.error,
    });
  }
  return setting.data ?? undefined;
}

/** A value counts as set when it is not blank. */
export function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

/** An environment variable's own value, never one inherited from Object.prototype. */
export function envValue(env: Environment, name: string): string | undefined {
  return Object.hasOwn(env, name) ? env[name] : undefined;
}
