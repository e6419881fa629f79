/** What stands in for a secret in a masked store URL. */
export const MASK = "***";

/**
 * A store URL safe to print: the password of `scheme://user:password@host/…` becomes `***` (a lone userinfo
 * without a user name, `scheme://password@host`, is treated as a password), and so does any `password=` query value.
 * Malformed URLs are masked from their `//` up to their last `@`, so they leak no credentials either.
 * Every log line, error and status that names a store goes through this, before anything shortens it.
 */
export function maskStoreUrl(url: string): string {
  const masked = url.replace(/([?&](?:password|pass|pwd)=)[^&#]*/gi, `$1${MASK}`);
  const start = masked.indexOf("//");
  // The last @ ends the userinfo: a password may hold @, / or ? unencoded. An @ that only sits in a path or query
  // masks more than it must, which is the safe way to be wrong.
  const at = masked.lastIndexOf("@");
  if (start === -1) {
    // No authority marker (`scheme:user:password@host`): everything between the scheme and the last @ goes.
    const colon = masked.indexOf(":");
    return at === -1 || colon === -1 || colon > at ? masked : `${masked.slice(0, colon + 1)}${MASK}${masked.slice(at)}`;
  }
  if (at < start + 2) return masked;
  const userinfo = masked.slice(start + 2, at);
  const colon = userinfo.indexOf(":");
  const user = colon === -1 ? undefined : userinfo.slice(0, colon);
  const kept = user === undefined || /[/?#@]/.test(user) ? "" : `${user}:`;
  return `${masked.slice(0, start + 2)}${kept}${MASK}${masked.slice(at)}`;
}
