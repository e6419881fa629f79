// What callers of a store lean on besides the contract: masking store URLs, and chaining answers that may or may not
// be promises without a second code path.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { andThen, isPromiseLike, maskStoreUrl, MemoryRoomStore } from "@orphus/rooms";

describe("maskStoreUrl", () => {
  test.each([
    ["redis://orphus:s3cret@db.example:6379/0", "redis://orphus:***@db.example:6379/0"],
    ["rediss://:s3cret@db.example:6380", "rediss://:***@db.example:6380"],
    ["redis://s3cret@db.example", "redis://***@db.example"],
    ["redis://db.example:6379", "redis://db.example:6379"],
    ["redis://u:p@ss@db.example/1", "redis://u:***@db.example/1"],
    ["redis://u:pa/ss@db.example/1", "redis://u:***@db.example/1"],
    ["redis://u:pa#ss@db.example", "redis://u:***@db.example"],
    ["redis:u:s3cret@db.example", "redis:***@db.example"],
    ["no url here", "no url here"],
    ["redis://db.example/0?password=s3cret&db=1", "redis://db.example/0?password=***&db=1"],
    ["memory", "memory"],
  ])("%s → %s", (url, masked) => {
    expect(maskStoreUrl(url)).toBe(masked);
  });

  test("never shows a password, whatever surrounds it", () => {
    const password = fc
      .string({ minLength: 6, maxLength: 20, unit: fc.constantFrom(..."abcXYZ019@:/#?%!") })
      .filter((p) => /[a-z]{2}/.test(p));
    fc.assert(
      fc.property(
        fc.constantFrom("redis", "rediss"),
        fc.constantFrom("", "orphus"),
        password,
        fc.constantFrom("", "/0", "/1?x=1"),
        (scheme, user, secret, tail) => {
          const masked = maskStoreUrl(`${scheme}://${user}:${secret}@127.0.0.1:6379${tail}`);
          expect(masked).not.toContain(secret);
          expect(masked).toContain("***");
        },
      ),
    );
  });
});

describe("andThen and the memory store's synchronous answers", () => {
  test("a plain value is passed on at once; a promise when it settles", async () => {
    expect(andThen(2, (n) => n + 1)).toBe(3);
    const later = andThen(Promise.resolve(2), (n) => n + 1);
    expect(isPromiseLike(later)).toBe(true);
    await expect(later).resolves.toBe(3);
    await expect(andThen(Promise.reject(new Error("no")), () => 1)).rejects.toThrow("no");
    expect(() =>
      andThen(1, () => {
        throw new Error("sync");
      }),
    ).toThrow("sync");
  });

  test("the memory store answers without promises, so a broker chaining with andThen allocates none", () => {
    const store = new MemoryRoomStore({ clock: () => 5 });
    const joined = store.join("r", "ann");
    expect(isPromiseLike(joined)).toBe(false);
    const posted = andThen(store.post("r", "ann", "hi"), (p) => p.seq);
    expect(posted).toBe(1);
    expect(store.read("r", "ann", { afterSeq: 0 })).toEqual({
      messages: [{ seq: 1, author: "ann", body: "hi", postedAt: 5 }],
      newestSeq: 1,
      oldestSeq: 1,
      hasMore: false,
      cursor: 1,
    });
  });
});
