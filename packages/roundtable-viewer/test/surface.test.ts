import { expect, test } from "vitest";
import * as viewer from "@orphus/roundtable-viewer";

test("the public surface is exactly this", () => {
  expect(Object.keys(viewer).sort()).toEqual([
    "DEFAULT_MAX_CLIENTS",
    "DEFAULT_MAX_CLIENT_BUFFER_BYTES",
    "SECURITY_HEADERS",
    "VIEWER_MAX_CHART_POINTS",
    "VIEWER_MAX_PEEK_CHARS",
    "VIEWER_MAX_PEEK_LIMIT",
    "VIEWER_MAX_POSTS_PER_ROOM",
    "VIEWER_MAX_ROOMS",
    "ViewerError",
    "ViewerOptionsError",
    "startViewer",
  ]);
});

test("limits and codes are stable", () => {
  expect([
    viewer.VIEWER_MAX_POSTS_PER_ROOM,
    viewer.VIEWER_MAX_ROOMS,
    viewer.VIEWER_MAX_CHART_POINTS,
    viewer.VIEWER_MAX_PEEK_LIMIT,
    viewer.VIEWER_MAX_PEEK_CHARS,
    viewer.DEFAULT_MAX_CLIENT_BUFFER_BYTES,
    viewer.DEFAULT_MAX_CLIENTS,
  ]).toEqual([100, 200, 600, 50, 32_000, 262_144, 32]);
  const error = new viewer.ViewerOptionsError("bad");
  expect([error.name, error.code, error.message]).toEqual(["ViewerOptionsError", "ERR_VIEWER_OPTIONS", "bad"]);
});
