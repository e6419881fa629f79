import { expect, test } from "vitest";
import { errorCode, hasErrorCode } from "@orphus/internal";
import { NotMemberError } from "@orphus/rooms";
import { fromAnotherCopy } from "../another-copy.js";

test("an error of another copy keeps its fields and code; instanceof the original's class is false", () => {
  const original = new NotMemberError("design", "critic");
  const copy = fromAnotherCopy(original);
  expect(copy instanceof NotMemberError).toBe(false);
  expect(copy instanceof Error).toBe(true);
  expect(errorCode(copy)).toBe("ERR_NOT_MEMBER");
  expect(hasErrorCode<NotMemberError>(copy, "ERR_NOT_MEMBER") && copy.roomName).toBe("design");
  expect({ name: copy.name, message: copy.message, role: copy.role }).toEqual({
    name: "NotMemberError",
    message: 'Not a member of room "design": role "critic" must join it first',
    role: "critic",
  });
});
