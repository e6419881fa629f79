import { isRecord } from "../text.js";

/** Reads one settings key (`Orkeon:Tools:GitHub:Token`), or undefined when unset. */
export type SettingsReader = (key: string) => string | undefined;

/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The variable that carries a settings key: `:` becomes `__`, as the runtime's configuration reads them. */
export function settingVariableName(key: string): string {
  return key.replaceAll(":", "__");
}

/**
 * The runtime's settings as layered configuration: a settings file's JSON (nested objects, keys matched without
 * regard to letter case), overridden by the variable named by {@link settingVariableName}. Only string values count.
 */
export function createSettingsReader(sources: { readonly json?: unknown; readonly env?: Environment }): SettingsReader {
  return (key) => {
    const name = settingVariableName(key);
    const fromEnv = sources.env === undefined ? undefined : envValue(sources.env, name);
    if (fromEnv !== undefined) return fromEnv;
    let node: unknown = sources.json;
    for (const segment of key.split(":")) {
      if (!isRecord(node)) return undefined;
      const wanted = segment.toLowerCase();
      const found = Object.keys(node).find((candidate) => candidate.toLowerCase() === wanted);
      node = found === undefined ? undefined : node[found];
    }
    return typeof node === "string" ? node : undefined;
  };
}

/** A value counts as set when it is not blank. */
export function isSet(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

/** An environment variable's own value, never one inherited from Object.prototype. */
export function envValue(env: Environment, name: string): string | undefined {
  return Object.hasOwn(env, name) ? env[name] : undefined;
}
