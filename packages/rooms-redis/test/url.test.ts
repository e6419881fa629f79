// Credentials never show, whatever they hold: properties of the URL check and the scrubber, with no server needed
// (credentials.test.ts drives the same through a real redis-server).
import fc from "fast-check";
import { expect, test } from "vitest";
import { parseStoreUrl, scrub } from "../src/url.js";

// A password starts with "§", which neither the mask nor the rest of a URL here holds, so "does not contain it"
// cannot be fooled by the host or the mask happening to spell it.
const password = fc.string({ minLength: 1, maxLength: 24 }).map((rest) => `§${rest}`);
const user = fc.stringMatching(/^[a-z]{0,8}$/);

test("a parsed URL's masked form holds its password neither as written nor decoded, and secrets name both", () => {
  fc.assert(
    fc.property(user, password, fc.boolean(), (name, secret, tls) => {
      const written = encodeURIComponent(secret);
      const url = parseStoreUrl(`${tls ? "rediss" : "redis"}://${name}:${written}@127.0.0.1:6379/0`);
      expect(url.masked).not.toContain(secret);
      expect(url.masked).not.toContain(written);
      expect(url.secrets).toContain(secret);
      expect(url.tls).toBe(tls);
    }),
  );
});

test("a refused URL's error quotes no password", () => {
  fc.assert(
    fc.property(
      user,
      password,
      fc.constantFrom("http", "redis"),
      fc.constantFrom("/x", "/0", ""),
      (name, secret, scheme, path) => {
        const written = encodeURIComponent(secret);
        for (const url of [`${scheme}://${name}:${written}@host${path}`, `not a url ${secret}`, `redis:${written}`]) {
          let message = "";
          try {
            parseStoreUrl(url);
          } catch (error) {
            message = (error as Error).message;
          }
          expect(message).not.toContain(secret);
          expect(message).not.toContain(written);
        }
      },
    ),
  );
});

test("scrub removes every occurrence of every secret from any text", () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.string(), password), { maxLength: 6 }),
      password,
      fc.string({ maxLength: 3 }),
      (parts, secret, glue) => {
        const text = [...parts, secret].join(glue);
        expect(scrub(text, [secret])).not.toContain(secret);
      },
    ),
  );
});

test("a refused URL is quoted masked and cut the way every package quotes a value", () => {
  const host = "h".repeat(100);
  expect(() => parseStoreUrl(`http://${host}`)).toThrow(
    `Invalid room store URL "${`http://${host}`.slice(0, 60)}"… (107 characters): the scheme is http; expected ` +
      "redis://[user:password@]host[:port][/db] or rediss://…",
  );
});
