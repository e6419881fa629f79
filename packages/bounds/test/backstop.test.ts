import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BoundsOptionError, TRUNCATION_BACKSTOP_BYTES, truncateWithBackstop } from "@orphus/bounds";
import { sanitizeText } from "@orphus/digest";
import { headAndTail } from "../src/content.js";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("truncateWithBackstop", () => {
  test("text within the limit passes unchanged", () => {
    const text = "x".repeat(TRUNCATION_BACKSTOP_BYTES);
    expect(truncateWithBackstop(text)).toEqual({ text, cut: null });
    expect(truncateWithBackstop("")).toEqual({ text: "", cut: null });
  });

  test("past 200 KB it keeps the first 204800 bytes and says it cut and by how much", () => {
    const text = "a".repeat(300_000);
    const result = truncateWithBackstop(text);
    expect(result.cut).toEqual({ totalBytes: 300_000, keptBytes: 204_800, cutBytes: 95_200 });
    expect(result.text).toBe(
      `${"a".repeat(204_800)}\n… truncated: 95200 of 300000 bytes cut by the 204800-byte backstop`,
    );
  });

  test("the cut line names the path when there is one", () => {
    const result = truncateWithBackstop("abcdef\n", { maxBytes: 3, path: "/tmp/a/run-1/001-x.txt" });
    expect(result.text).toBe(
      "abc\n… truncated: 4 of 7 bytes cut by the 3-byte backstop; the full output is in /tmp/a/run-1/001-x.txt",
    );
  });

  test("never splits a code point; counts UTF-8 bytes", () => {
    // "é" is 2 bytes, "😀" 4 (a surrogate pair), a lone surrogate 3 (as U+FFFD).
    expect(truncateWithBackstop("éé", { maxBytes: 3 }).text).toBe(
      "é\n… truncated: 2 of 4 bytes cut by the 3-byte backstop",
    );
    expect(truncateWithBackstop("a😀b", { maxBytes: 4 }).cut).toEqual({ totalBytes: 6, keptBytes: 1, cutBytes: 5 });
    expect(truncateWithBackstop("a\ud800bc", { maxBytes: 4 }).text.startsWith("a\ufffd\n")).toBe(true);
  });

  test("what it keeps is sanitised; the counts are the raw text's, as the artifact holds it", () => {
    expect(truncateWithBackstop("ok\x1b[31m red\u202e\u{E0041}\r\n")).toEqual({ text: "ok red\n", cut: null });
    const raw = `\x1b]0;title\x07${"z".repeat(20)}`;
    expect(truncateWithBackstop(raw, { maxBytes: 15 })).toEqual({
      text: "zzzzz\n… truncated: 15 of 30 bytes cut by the 15-byte backstop",
      cut: { totalBytes: 30, keptBytes: 15, cutBytes: 15 },
    });
  });

  test("a path that would break its one line is refused", () => {
    for (const path of ["/a/b\nc", "/a · error: /srv/evil", "/a\u202eb", "/a  b", "/a\tb", " /a"]) {
      expect(() => truncateWithBackstop("x".repeat(10), { maxBytes: 3, path })).toThrow(BoundsOptionError);
    }
    expect(() => truncateWithBackstop("x", { path: "/a/b\nc" })).toThrow(
      'Invalid bounds option path: expected a path shown whole on one line (no control, format or invisible character, no double, leading or trailing space, no " · "), got "/a/b\\nc"',
    );
  });

  test("a cut at a line end adds no blank line", () => {
    expect(truncateWithBackstop("ab\ncd", { maxBytes: 3 }).text).toBe(
      "ab\n… truncated: 2 of 5 bytes cut by the 3-byte backstop",
    );
  });

  test("rejects a limit that is not a positive integer", () => {
    for (const maxBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => truncateWithBackstop("x", { maxBytes })).toThrow(BoundsOptionError);
    }
  });

  test("property: within the limit plus one line, the sanitised prefix of the input, whole code points", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.integer({ min: 1, max: 400 }), (text, maxBytes) => {
        const { text: out, cut } = truncateWithBackstop(text, { maxBytes });
        if (bytes(text) <= maxBytes) {
          expect(out).toBe(sanitizeText(text));
          expect(cut).toBeNull();
          return;
        }
        // Naive reference: whole code points (a lone surrogate is one, of 3 bytes) while they fit.
        let head = "";
        for (const point of text) {
          if (bytes(head + point) > maxBytes) break;
          head += point;
        }
        const line = `… truncated: ${bytes(text) - bytes(head)} of ${bytes(text)} bytes cut by the ${maxBytes}-byte backstop`;
        const shown = sanitizeText(head);
        expect(out).toBe(shown === "" || shown.endsWith("\n") ? shown + line : `${shown}\n${line}`);
        expect(cut).toEqual({ totalBytes: bytes(text), keptBytes: bytes(head), cutBytes: bytes(text) - bytes(head) });
      }),
    );
  });
});

describe("headAndTail", () => {
  const pointer = (cut: number) => `<${cut} cut>`;

  test("text within the budget is returned as it is", () => {
    expect(headAndTail("hello", 5, pointer)).toEqual({ text: "hello", cutChars: 0 });
  });

  test("keeps head and tail, snapping to a line break in the last quarter of each share", () => {
    const text = ["line 1", "line 2", "line 3", "line 4", "line 5", "line 6"].join("\n");
    // 41 characters. Budget 20: shares of 10, no break in the last 2 of either ("line 1\nlin", "e 5\nline 6").
    expect(headAndTail(text, 20, pointer)).toEqual({ text: "line 1\nlin\n<21 cut>\ne 5\nline 6", cutChars: 21 });
    // Budget 16: shares of 8 ("line 1\nl", "5\nline 6"); each has a break within its last 2, so both snap.
    expect(headAndTail(text, 16, pointer)).toEqual({ text: "line 1\n<29 cut>\nline 6", cutChars: 29 });
  });

  test("budget 0 leaves only the pointer", () => {
    expect(headAndTail("abc", 0, pointer)).toEqual({ text: "<3 cut>", cutChars: 3 });
  });

  test("property: head is a prefix, tail a suffix, within budget, no pair split", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "\n", "😀", "é"), maxLength: 200 }),
        fc.integer({ min: 0, max: 120 }),
        (text, budget) => {
          const result = headAndTail(text, budget, (cut) => `\u0000${cut}\u0000`);
          if (text.length <= budget) {
            expect(result.text).toBe(text);
            return;
          }
          const [head = "", cut = "", tail = ""] = result.text.split("\u0000");
          const headText = head.endsWith("\n") ? head.slice(0, -1) : head;
          const tailText = tail.startsWith("\n") ? tail.slice(1) : tail;
          expect(text.startsWith(headText)).toBe(true);
          expect(text.endsWith(tailText)).toBe(true);
          expect(headText.length + tailText.length).toBeLessThanOrEqual(budget);
          expect(Number(cut)).toBe(result.cutChars);
          expect(headText.length + result.cutChars + tailText.length).toBe(text.length);
          expect(/\p{Cs}/u.test(result.text)).toBe(false); // no lone surrogate
        },
      ),
    );
  });
});
