import { expect, test } from "vitest";
import * as api from "@orphus/shared-tool";

test("the public surface is exactly this", () => {
  expect(Object.keys(api).sort()).toEqual([
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
  expect(api.SHOWN_VALUE_CHARS).toBe(60);
});
