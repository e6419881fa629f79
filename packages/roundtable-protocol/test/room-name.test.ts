import fc from "fast-check";
import * as z from "zod";
import { expect, test } from "vitest";
import { roomNameSchema, validRoomNameSchema } from "@orphus/roundtable-protocol";

test("the room name a caller validates carries the broker's pattern and length in its JSON Schema", () => {
  expect(z.toJSONSchema(validRoomNameSchema)).toMatchObject({
    type: "string",
    minLength: 1,
    maxLength: 64,
    pattern: "^[a-z0-9][a-z0-9._-]{0,63}$",
  });
});

test.each([
  ["design-review", true],
  ["a", true],
  ["r.1_x-2", true],
  ["x".repeat(64), true],
  ["x".repeat(65), false],
  ["Design", false],
  ["", false],
  ["-lead", false],
  [".hidden", false],
  ["has space", false],
])("%j is a valid room name: %s", (name, valid) => {
  expect(validRoomNameSchema.safeParse(name).success).toBe(valid);
});

test("an uppercase room name is refused with the syntax spelled out", () => {
  const parsed = validRoomNameSchema.safeParse("Design");
  expect(parsed.success).toBe(false);
  expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
    "a room name is lower-case letters, digits, '.', '_' or '-', starting with a letter or digit " +
      "(^[a-z0-9][a-z0-9._-]{0,63}$)",
  ]);
});

test("property: every valid room name also passes the wire's room schema (the wire is never the stricter one)", () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,63}$/), (name) => {
      expect(validRoomNameSchema.parse(name)).toBe(name);
      expect(roomNameSchema.parse(name)).toBe(name);
    }),
  );
});
