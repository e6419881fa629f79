import { describe, expect, test } from "vitest";
import { duplicateErrorCodeFindings, foreignInstanceofFindings } from "../lib/lint-errors.js";

const fix = "classify by code: hasErrorCode from @orphus/internal";

describe("instanceof a class of another package", () => {
  test("a named import, a renamed one and a namespace's member are found, at their lines", () => {
    const text = [
      'import { NotMemberError, StoreResetError as Reset, type RoomStore } from "@orphus/rooms";',
      'import * as protocol from "@orphus/roundtable-protocol";',
      "export function f(error: unknown, store: RoomStore): string {",
      "  if (error instanceof NotMemberError) return 'member';",
      "  if ((error) instanceof (Reset)) return 'reset';",
      "  return error instanceof protocol.WireRefusalError ? 'wire' : String(store);",
      "}",
    ].join("\n");
    expect(foreignInstanceofFindings({ file: "packages/x/src/f.ts", text })).toEqual([
      {
        file: "packages/x/src/f.ts",
        line: 4,
        message: `instanceof NotMemberError of @orphus/rooms is false for an error made by another copy of that package; ${fix}`,
      },
      {
        file: "packages/x/src/f.ts",
        line: 5,
        message: `instanceof StoreResetError of @orphus/rooms is false for an error made by another copy of that package; ${fix}`,
      },
      {
        file: "packages/x/src/f.ts",
        line: 6,
        message: `instanceof WireRefusalError of @orphus/roundtable-protocol is false for an error made by another copy of that package; ${fix}`,
      },
    ]);
  });

  test("a class of a dynamically imported package is found too", () => {
    const text = [
      "export async function g(error: unknown): Promise<boolean> {",
      '  const memory = await import("@orphus/memory");',
      '  const { StoreBusyError: Busy } = await import("@orphus/memory");',
      "  return error instanceof memory.StoreMissingError || error instanceof Busy;",
      "}",
    ].join("\n");
    expect(
      foreignInstanceofFindings({ file: "g.ts", text }).map((f) => `${f.line}: ${f.message.split(" is false")[0]}`),
    ).toEqual(["4: instanceof StoreMissingError of @orphus/memory", "4: instanceof StoreBusyError of @orphus/memory"]);
  });

  test("a package's own classes, built-ins and other modules' classes are left alone; so is text that only looks alike", () => {
    const text = [
      'import { RefusalError } from "./errors.js";',
      'import { Socket } from "node:net";',
      'import { z } from "zod";',
      'import type { NotMemberError } from "@orphus/rooms";',
      'import { checkRoomName } from "@orphus/rooms";',
      "export function h(error: unknown, value: unknown): unknown {",
      "  // error instanceof NotMemberError would be wrong here",
      '  const text = "x instanceof checkRoomName";',
      "  return error instanceof RefusalError || value instanceof Socket || value instanceof z.ZodError || error instanceof Error || text;",
      "}",
      "export type Member = NotMemberError;",
    ].join("\n");
    expect(foreignInstanceofFindings({ file: "h.ts", text })).toEqual([]);
  });
});

describe("one code per error class", () => {
  const rooms = {
    file: "packages/rooms/src/errors.ts",
    text: [
      "export abstract class RoomsError extends Error {",
      "  abstract readonly code: string;",
      "}",
      "export class NotMemberError extends RoomsError {",
      '  override readonly name = "NotMemberError";',
      '  readonly code = "ERR_NOT_MEMBER";',
      "}",
      "export class RoomLimitError extends RoomsError {",
      '  readonly code = "ERR_ROOM_LIMIT";',
      "}",
    ].join("\n"),
  };

  test("distinct codes give no finding; a code that is not ERR_ or not readonly is not a class's code", () => {
    const other = {
      file: "packages/client/src/errors.ts",
      text: [
        "export class NotJoinedError extends Error {",
        '  readonly code = "ERR_NOT_JOINED";',
        "}",
        "export class Options {",
        '  code = "ERR_NOT_MEMBER";',
        '  readonly kind = "ERR_NOT_MEMBER";',
        "}",
        'export const code = "ERR_ROOM_LIMIT";',
      ].join("\n"),
    };
    expect(duplicateErrorCodeFindings([rooms, other])).toEqual([]);
  });

  test("two classes of two packages with one code: both are named, each with the other's place", () => {
    const client = {
      file: "packages/client/src/errors.ts",
      text: ["export class NotJoinedError extends Error {", "  readonly code = 'ERR_NOT_MEMBER';", "}"].join("\n"),
    };
    expect(duplicateErrorCodeFindings([rooms, client])).toEqual([
      {
        file: "packages/rooms/src/errors.ts",
        line: 6,
        message:
          "NotMemberError's code ERR_NOT_MEMBER is also NotJoinedError (packages/client/src/errors.ts:2)'s; " +
          "two classes with one code pass for each other: give each its own",
      },
      {
        file: "packages/client/src/errors.ts",
        line: 2,
        message:
          "NotJoinedError's code ERR_NOT_MEMBER is also NotMemberError (packages/rooms/src/errors.ts:6)'s; " +
          "two classes with one code pass for each other: give each its own",
      },
    ]);
  });
});
