// An error as another copy of its package makes it: a process can hold two copies of one package (a bundled bin
// beside the installed library, two versions under one host), and an error of one copy is no instance of the other's
// classes. Tests of a caller that classifies errors by code use this to prove `instanceof` is not what it relies on.
import { brandErrorClass } from "@orphus/internal";

/**
 * The same error (its own fields: message, name, code and the rest) on a prototype chain of its own, branded the
 * way every package's base error class is: `instanceof` the original's class is false, its code reads the same.
 */
export function fromAnotherCopy<E extends Error>(error: E): E {
  abstract class AnotherCopyError extends Error {
    static {
      brandErrorClass(this);
    }
  }
  return Object.create(AnotherCopyError.prototype, Object.getOwnPropertyDescriptors(error)) as E;
}
