import { expect, test } from "vitest";
import * as internal from "@orphus/internal";

test("the surface each package bundles is exactly these names", () => {
  expect(Object.keys(internal).sort()).toEqual([
    "ERROR_BRAND",
    "PREVIEW_CHARS",
    "brandErrorClass",
    "errorCode",
    "globalTimers",
    "hasErrorCode",
    "isHighSurrogate",
    "isLowSurrogate",
    "isRecord",
    "plural",
    "previewValue",
    "typeName",
  ]);
});
