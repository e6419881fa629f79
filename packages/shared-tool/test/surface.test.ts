import { expect, test } from "vitest";
import * as api from "@orphus/shared-tool";

test("the public surface is exactly this", () => {
  expect(Object.keys(api).sort()).toEqual([
    "MAX_COMPARED_NAME_CHARS",
    "MAX_LISTED_ARGUMENT_ISSUES",
    "MAX_LISTED_UNKNOWN_ARGUMENTS",
    "MAX_QUOTED_NAME_CHARS",
    "SHOWN_VALUE_CHARS",
    "actionArgumentsJsonSchema",
    "argumentsOf",
    "boundedText",
    "checkActionArguments",
    "checkToolCall",
    "describeArgumentIssues",
    "nearestName",
    "quotedName",
    "showableJson",
    "shownValue",
    "toolJsonSchema",
    "withoutNulls",
  ]);
});

test("limits", () => {
  expect([
    api.MAX_LISTED_UNKNOWN_ARGUMENTS,
    api.MAX_LISTED_ARGUMENT_ISSUES,
    api.MAX_COMPARED_NAME_CHARS,
    api.MAX_QUOTED_NAME_CHARS,
    api.SHOWN_VALUE_CHARS,
  ]).toEqual([3, 3, 64, 64, 60]);
});
