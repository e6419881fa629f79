// What every request must show before anything is served: the served Host (a page of another name that resolves to
// 127.0.0.1, DNS rebinding, is refused), no foreign Origin, and the viewer's token, compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * Headers on every answer. The page runs only its own scripts (no inline script, no eval) and styles, talks only to
 * its origin, can be framed by nobody, and sends no referrer (the URL holds the token).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
};

/** Why a request was refused: each is answered 403 with this reason as its text. */
export type Refusal = "host" | "origin" | "token";

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** True when `given` is the token; the comparison takes the same time whatever the two hold (both are hashed first). */
export function tokenMatches(token: string, given: string | null): boolean {
  return given !== null && timingSafeEqual(digest(token), digest(given));
}

/**
 * The refusal a request earns, or undefined: the Host must be the served address itself, an Origin (when the browser
 * sends one; a POST must) the served origin, and the `token` query parameter the viewer's token.
 */
export function refusalOf(request: IncomingMessage, host: string, token: string): Refusal | undefined {
  if (request.headers.host !== host) return "host";
  const origin = request.headers.origin;
  if (origin !== undefined ? origin !== `http://${host}` : request.method === "POST") return "origin";
  const given = new URL(request.url ?? "/", `http://${host}`).searchParams.get("token");
  return tokenMatches(token, given) ? undefined : "token";
}
