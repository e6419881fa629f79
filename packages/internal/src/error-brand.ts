// One error identity across copies of a package. A package can be loaded twice in one process (a bundled bin beside
// the installed library, two versions under one host), and then `instanceof` a class of the other copy is false for
// every error it throws. So an error of ours is recognised by a brand, a registered symbol that is the same in every
// copy, and then by its stable `code`.

/**
 * The brand on the prototype of every @orphus base error class. `Symbol.for`, so every copy of every package, whatever
 * its version or bundle, holds the same symbol.
 */
export const ERROR_BRAND: unique symbol = Symbol.for("@orphus/error");

/**
 * Marks a package's base error class (and so every subclass) as ours: `static { brandErrorClass(this); }` in the class
 * body. The brand is a non-enumerable, read-only `true` on the prototype, so it adds nothing to an error's own keys,
 * its JSON or its printout, and no public type of the package names this one.
 */
export function brandErrorClass(errorClass: abstract new (...args: never[]) => Error): void {
  Object.defineProperty(errorClass.prototype, ERROR_BRAND, {
    value: true,
    enumerable: false,
    writable: false,
    configurable: false,
  });
}

/**
 * The `code` of an error of ours, made by any copy of any @orphus package; undefined for anything else, a Node
 * system error or a plain object with a `code` of the same spelling included. Never throws.
 */
export function errorCode(error: unknown): string | undefined {
  if ((typeof error !== "object" && typeof error !== "function") || error === null) return undefined;
  try {
    if ((error as { readonly [ERROR_BRAND]?: unknown })[ERROR_BRAND] !== true) return undefined;
    const { code } = error as { readonly code?: unknown };
    return typeof code === "string" ? code : undefined;
  } catch {
    // A proxy or a getter that throws is nobody's error code.
    return undefined;
  }
}

/**
 * True for an error of ours whose code is `code`, from any copy of the package that defines `E`; narrows to `E`.
 * Name the class, imported as a type: `hasErrorCode<NotMemberError>(error, "ERR_NOT_MEMBER")`. `code` must be the
 * class's own literal code, so a misspelt one, or a class whose code is any string (a base class), fails to compile.
 */
export function hasErrorCode<E extends Error & { readonly code: string }>(
  error: unknown,
  code: string extends E["code"] ? never : E["code"],
): error is E {
  return errorCode(error) === code;
}
