import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, expectTypeOf, test } from "vitest";
import { ERROR_BRAND, brandErrorClass, errorCode, hasErrorCode } from "@orphus/internal";
import * as copyA from "./fixtures/copy.js";
import type { CopyLimitError, CopyNotMemberError } from "./fixtures/copy.js";

type Copy = typeof import("./fixtures/copy.js");

/** Loads the fixture module again as a separate evaluation: its own classes, as a second copy of a package has. */
async function anotherCopy(tag: string): Promise<Copy> {
  const url = `./fixtures/copy.js?copy=${tag}`;
  return (await import(/* @vite-ignore */ url)) as Copy;
}

describe("the brand", () => {
  test("is the registered symbol @orphus/error, so every copy of every package holds the same one", () => {
    expect(ERROR_BRAND).toBe(Symbol.for("@orphus/error"));
    expect(Symbol.keyFor(ERROR_BRAND)).toBe("@orphus/error");
  });

  test("sits on the base class's prototype, non-enumerable and read-only; an error's keys, JSON and name are its own", () => {
    const error = new copyA.CopyNotMemberError("design");
    expect(Object.getOwnPropertyDescriptor(copyA.CopyError.prototype, ERROR_BRAND)).toEqual({
      value: true,
      enumerable: false,
      writable: false,
      configurable: false,
    });
    expect(Object.hasOwn(error, ERROR_BRAND)).toBe(false);
    expect(Object.keys(error)).toEqual(["roomName", "name", "code"]);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      roomName: "design",
      name: "CopyNotMemberError",
      code: "ERR_COPY_NOT_MEMBER",
    });
    expect(String(error)).toBe('CopyNotMemberError: Not a member of room "design"');
  });

  test("marks a class whatever else it does: a plain Error subclass branded directly", () => {
    class Standalone extends Error {
      readonly code = "ERR_STANDALONE";
      static {
        brandErrorClass(this);
      }
    }
    expect(errorCode(new Standalone())).toBe("ERR_STANDALONE");
    expect(errorCode(new Error("plain"))).toBeUndefined();
  });
});

describe("errorCode", () => {
  test("is the code of an error of ours", () => {
    expect(errorCode(new copyA.CopyNotMemberError("r"))).toBe("ERR_COPY_NOT_MEMBER");
    expect(errorCode(new copyA.CopyLimitError(3))).toBe("ERR_COPY_LIMIT");
  });

  test("is undefined for a Node system error, whose code is Node's, not ours", () => {
    let systemError: unknown;
    try {
      readFileSync("/nonexistent/orphus/file");
    } catch (error) {
      systemError = error;
    }
    expect((systemError as { code?: unknown }).code).toBe("ENOENT");
    expect(errorCode(systemError)).toBeUndefined();
    const nodeStyle = Object.assign(new TypeError("bad"), { code: "ERR_INVALID_ARG_TYPE" });
    expect(errorCode(nodeStyle)).toBeUndefined();
  });

  test("is undefined for anything that only looks like one of ours", () => {
    const lookalikes: unknown[] = [
      { code: "ERR_COPY_NOT_MEMBER" },
      { name: "CopyNotMemberError", code: "ERR_COPY_NOT_MEMBER", message: "m" },
      Object.assign(new Error("m"), { code: "ERR_COPY_NOT_MEMBER" }),
      new copyA.UnbrandedNotMemberError("m"),
      { [Symbol("@orphus/error")]: true, code: "ERR_COPY_NOT_MEMBER" },
      { [ERROR_BRAND]: "yes", code: "ERR_COPY_NOT_MEMBER" },
      "ERR_COPY_NOT_MEMBER",
      undefined,
      null,
      0,
      Symbol.for("@orphus/error"),
    ];
    for (const value of lookalikes) expect({ value, code: errorCode(value) }).toEqual({ value, code: undefined });
  });

  test("is undefined for a branded error whose code is not a string, and never throws", () => {
    const numeric = new copyA.CopyCodedError("ERR_X");
    Object.defineProperty(numeric, "code", { value: 7 });
    expect(errorCode(numeric)).toBeUndefined();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error("no");
        },
      },
    );
    expect(errorCode(hostile)).toBeUndefined();
    const getter = new copyA.CopyCodedError("ERR_X");
    Object.defineProperty(getter, "code", {
      get() {
        throw new Error("no");
      },
    });
    expect(errorCode(getter)).toBeUndefined();
  });
});

describe("hasErrorCode", () => {
  test("narrows to the class named, whose own fields are then read", () => {
    const error: unknown = new copyA.CopyNotMemberError("design");
    if (!hasErrorCode<CopyNotMemberError>(error, "ERR_COPY_NOT_MEMBER")) throw new Error("not classified");
    expectTypeOf(error).toEqualTypeOf<CopyNotMemberError>();
    expect(error.roomName).toBe("design");
    expect(hasErrorCode<CopyLimitError>(error, "ERR_COPY_LIMIT")).toBe(false);
  });

  test("takes the class's own literal code only: a misspelt code or a base class fails to compile", () => {
    const error: unknown = new copyA.CopyLimitError(1);
    expectTypeOf<copyA.CopyLimitError["code"]>().toEqualTypeOf<"ERR_COPY_LIMIT">();
    // @ts-expect-error a code that is not the class's own
    expect(hasErrorCode<CopyLimitError>(error, "ERR_COPY_NOT_MEMBER")).toBe(false);
    // @ts-expect-error a base class's code is any string: name the subclass
    expect(hasErrorCode<copyA.CopyError>(error, "ERR_COPY_LIMIT")).toBe(true);
  });
});

describe("across copies of a package", () => {
  test("instanceof tells one copy's errors from the other's; the brand and the code do not", async () => {
    const copyB = await anotherCopy("b");
    expect(copyB.CopyNotMemberError).not.toBe(copyA.CopyNotMemberError);
    const fromB = new copyB.CopyNotMemberError("design");
    expect(fromB instanceof copyA.CopyNotMemberError).toBe(false);
    expect(fromB instanceof copyA.CopyError).toBe(false);
    expect(hasErrorCode<CopyNotMemberError>(fromB, "ERR_COPY_NOT_MEMBER")).toBe(true);
    expect(errorCode(fromB)).toBe("ERR_COPY_NOT_MEMBER");
  });

  test("property: whichever copy throws, classification is by code alone, and instanceof holds for the thrower's copy only", async () => {
    const copies = [copyA, await anotherCopy("c"), await anotherCopy("d")];
    const copy = fc.nat(copies.length - 1);
    const made = (source: Copy, kind: "member" | "limit"): Error =>
      kind === "member" ? new source.CopyNotMemberError("r") : new source.CopyLimitError(1);
    fc.assert(
      fc.property(copy, copy, fc.constantFrom("member" as const, "limit" as const), (thrower, reader, kind) => {
        const error = made(copies[thrower] as Copy, kind);
        const readerCopy = copies[reader] as Copy;
        expect(error instanceof readerCopy.CopyNotMemberError).toBe(thrower === reader && kind === "member");
        expect(hasErrorCode<CopyNotMemberError>(error, "ERR_COPY_NOT_MEMBER")).toBe(kind === "member");
        expect(hasErrorCode<CopyLimitError>(error, "ERR_COPY_LIMIT")).toBe(kind === "limit");
      }),
    );
    const code = fc.stringMatching(/^ERR_[A-Z][A-Z0-9_]{0,30}$/);
    fc.assert(
      fc.property(copy, code, (thrower, thrown) => {
        expect(errorCode(new (copies[thrower] as Copy).CopyCodedError(thrown))).toBe(thrown);
      }),
    );
  });

  test("property: no value that is not an error of ours has a code, whatever its code field says", () => {
    const lookalike = fc.oneof(
      fc.anything(),
      fc.record({ code: fc.string(), name: fc.string(), message: fc.string() }),
      fc.string().map((code) => Object.assign(new Error("m"), { code })),
    );
    fc.assert(
      fc.property(lookalike, (value) => {
        expect(errorCode(value)).toBeUndefined();
      }),
    );
  });
});
