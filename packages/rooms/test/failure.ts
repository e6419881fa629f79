import { expect } from "vitest";
import { RoomsError } from "@orphus/rooms";

/** Runs `fn`, expecting it to throw a RoomsError; returns its name, code and message for literal comparison. */
export function failure(fn: () => unknown): { name: string; code: string; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(RoomsError);
    const { name, code, message } = error as RoomsError;
    return { name, code, message };
  }
  throw new Error("expected a throw");
}
