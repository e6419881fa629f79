import { MASK, maskStoreUrl } from "@orphus/rooms";
import { StoreUrlInvalidError } from "./errors.js";

/** A checked store URL: what it says, and how to print it. */
export interface StoreUrl {
  readonly url: string;
  /** The URL with its password masked. */
  readonly masked: string;
  readonly tls: boolean;
  /** The password as written and decoded, so messages that might quote it can be scrubbed; empty without one. */
  readonly secrets: readonly string[];
}

/** Checks a `redis://` or `rediss://` URL; throws StoreUrlInvalidError, quoting it masked. */
export function parseStoreUrl(url: string): StoreUrl {
  if (typeof url !== "string") throw new StoreUrlInvalidError(typeof url, "not a string");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Nothing of text that is not a URL is quoted: where its secret would be cannot be told.
    throw new StoreUrlInvalidError(`${MASK} (${url.length} characters)`, "not a URL");
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  // A URL without a host (`redis:secret`) has no userinfo to mask either: only its scheme is quoted.
  const masked = parsed.host === "" ? `${scheme}:${MASK}` : maskStoreUrl(url);
  if (scheme !== "redis" && scheme !== "rediss") throw new StoreUrlInvalidError(masked, `the scheme is ${scheme}`);
  if (parsed.hostname === "") throw new StoreUrlInvalidError(masked, "it names no host");
  const db = parsed.pathname.replace(/^\//, "");
  if (db !== "" && !/^\d{1,5}$/.test(db)) throw new StoreUrlInvalidError(masked, "the path is not a database number");
  const secrets = new Set<string>();
  if (parsed.password !== "") {
    secrets.add(parsed.password);
    try {
      secrets.add(decodeURIComponent(parsed.password));
    } catch {
      // A malformed escape: the password as written is all a message could quote.
    }
  }
  return { url, masked, tls: parsed.protocol === "rediss:", secrets: [...secrets] };
}

/** Replaces every occurrence of each secret in `text` with the mask: for messages of a client that might echo one. */
export function scrub(text: string, secrets: readonly string[]): string {
  let scrubbed = maskStoreUrl(text);
  for (const secret of secrets) if (secret.length > 0) scrubbed = scrubbed.split(secret).join(MASK);
  return scrubbed;
}
