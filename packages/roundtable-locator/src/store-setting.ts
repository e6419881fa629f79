import { readFileSync, statSync } from "node:fs";
import { MASK, maskStoreUrl } from "@orphus/rooms";
import { StoreSettingError } from "./errors.js";
import { MAX_STORE_PASSWORD_FILE_BYTES } from "./limits.js";

/** The variable naming the room store: `memory`, or a `redis://` / `rediss://` URL (which may carry a password). */
export const STORE_ENV = "ORPHUS_ROUNDTABLE_STORE";

/** The variable naming a file that holds the store's password, for a URL that carries none. */
export const STORE_PASSWORD_FILE_ENV = "ORPHUS_ROUNDTABLE_STORE_PASSWORD_FILE";

/**
 * The variable giving the broker's text budget in bytes (its bin's `--max-held-bytes` when the flag is absent), so
 * brokers that clients spawn, which inherit the environment, get it too. Memory store only.
 */
export const MAX_HELD_BYTES_ENV = "ORPHUS_ROUNDTABLE_MAX_HELD_BYTES";

/** The store setting that means "this broker's memory": the default. */
export const MEMORY_STORE = "memory";

/** A store setting resolved once, at start: what to open, how to print it, and where it came from. */
export interface StoreSetting {
  /** `memory`, or the URL to open (with the password from the file put in): never print it. */
  readonly url: string;
  /** `memory`, or the URL with its password masked: what logs, status and the doctor show. */
  readonly description: string;
  /** What set it: `--store`, {@link STORE_ENV}, or `default`. */
  readonly source: string;
}

/** Where a setting is read from: the bin's flags and the environment. */
export interface StoreSettingInput {
  /** `--store`: the URL or `memory`; a password in it is refused (other users see command lines). */
  readonly flag?: string | undefined;
  /** `--store-password-file`: a file holding the password, for a URL without one. */
  readonly passwordFile?: string | undefined;
  /** Default process.env. */
  readonly env?: NodeJS.ProcessEnv;
}

const nonEmpty = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
};

/** Parses a Redis store URL, or undefined when `value` is not one (no `redis:`/`rediss:` scheme, no host). */
function redisUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return (url.protocol === "redis:" || url.protocol === "rediss:") && url.hostname !== "" ? url : undefined;
}

/** True for a `redis://` or `rediss://` URL with a host: every store setting but `memory` must be one. */
export function isRedisStoreUrl(value: string): boolean {
  return redisUrl(value) !== undefined;
}

/**
 * A store setting as an error may quote it: a URL with its password masked; text that is not a URL with a host never,
 * since where its secret is cannot be told (`*** (N characters)`).
 */
export function maskStoreSetting(value: string): string {
  try {
    if (new URL(value).host !== "") return maskStoreUrl(value);
  } catch {
    // Not a URL: falls through to the mask.
  }
  return `${MASK} (${value.length} characters)`;
}

/**
 * Resolves the store a broker opens, once, from `--store` over {@link STORE_ENV}, else `memory`; a password comes
 * with the URL (from the variable) or from the file named by `--store-password-file` over
 * {@link STORE_PASSWORD_FILE_ENV}. Throws StoreSettingError when the flag carries a password, when a password
 * would come from two places, or when the file cannot be read, is empty or larger than
 * {@link MAX_STORE_PASSWORD_FILE_BYTES}, or when the setting is neither `memory` nor a Redis URL. A password file
 * is ignored for the memory store.
 */
export function resolveStoreSetting(input: StoreSettingInput = {}): StoreSetting {
  const env = input.env ?? process.env;
  const flag = nonEmpty(input.flag);
  const fromEnv = nonEmpty(env[STORE_ENV]);
  const value = flag ?? fromEnv ?? MEMORY_STORE;
  const source = flag !== undefined ? "--store" : fromEnv !== undefined ? STORE_ENV : "default";
  if (value === MEMORY_STORE) return { url: MEMORY_STORE, description: MEMORY_STORE, source };
  const url = redisUrl(value);
  if (url === undefined) {
    throw new StoreSettingError(
      source,
      `${maskStoreSetting(value)} is neither "memory" nor a redis:// or rediss:// URL with a host`,
    );
  }
  if (flag !== undefined && url.password !== "") {
    throw new StoreSettingError(
      source,
      `${maskStoreUrl(value)} carries a password, and every user of this machine can read command lines; put the ` +
        `URL in ${STORE_ENV}, or its password in a file named by --store-password-file or ${STORE_PASSWORD_FILE_ENV}`,
    );
  }
  const passwordFile = nonEmpty(input.passwordFile) ?? nonEmpty(env[STORE_PASSWORD_FILE_ENV]);
  if (passwordFile === undefined) return { url: value, description: maskStoreUrl(value), source };
  if (url.password !== "") {
    throw new StoreSettingError(
      source,
      `${maskStoreUrl(value)} carries a password, and a password file is named too; use one`,
    );
  }
  url.password = encodeURIComponent(readPasswordFile(passwordFile));
  const withPassword = url.toString();
  return { url: withPassword, description: maskStoreUrl(withPassword), source };
}

/** The password in `path`: its text without the trailing line break; never quoted in an error. */
function readPasswordFile(path: string): string {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_STORE_PASSWORD_FILE_BYTES) {
      throw new StoreSettingError(
        "password file",
        `${path} holds ${size} bytes, more than ${MAX_STORE_PASSWORD_FILE_BYTES}`,
      );
    }
    text = readFileSync(path, "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    if (error instanceof StoreSettingError) throw error;
    throw new StoreSettingError(
      "password file",
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
      {
        cause: error,
      },
    );
  }
  if (text === "") throw new StoreSettingError("password file", `${path} is empty`);
  return text;
}

/**
 * The description of the store a setting names, without opening anything or reading a password file: what a
 * client or the doctor compares with a running broker's. `store` stands in for the variable (a client's option).
 */
export function describeStoreSetting(env: NodeJS.ProcessEnv = process.env, store?: string): string {
  const value = nonEmpty(store) ?? nonEmpty(env[STORE_ENV]) ?? MEMORY_STORE;
  return value === MEMORY_STORE ? MEMORY_STORE : maskStoreSetting(value);
}

/**
 * Whether two store descriptions name the same rooms: the same URL once user names and passwords are set aside
 * (one Redis reached as two ACL users is one store). Two memory stores are the same only within one broker, which
 * is for the caller to know.
 */
export function sameStore(a: string, b: string): boolean {
  return storeSpace(a) === storeSpace(b);
}

function storeSpace(description: string): string {
  const url = redisUrl(description);
  if (url === undefined) return description;
  url.username = "";
  url.password = "";
  return url.toString().replace(/\/$/, "");
}
