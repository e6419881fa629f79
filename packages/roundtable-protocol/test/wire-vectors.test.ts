import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { parseRequest } from "@orphus/roundtable-protocol";

// docs/wire.md shows framing's stored vectors; a vector that looks like a request must be one this protocol accepts,
// so the page never teaches a field the protocol does not have (it once showed "type" where requests carry "op").
const vectorsPath = join(import.meta.dirname, "..", "..", "framing", "test", "vectors", "wire-vectors.json");
const vectors = JSON.parse(readFileSync(vectorsPath, "utf8")) as { name: string; value: unknown }[];
const requestShaped = vectors.filter(
  (vector) => typeof vector.value === "object" && vector.value !== null && "id" in vector.value,
);

test("the wire page has a request vector", () => {
  expect(requestShaped.map((vector) => vector.name)).toEqual(["a hello request"]);
});

test.each(requestShaped)("vector $name is a request the protocol accepts", (vector) => {
  expect(parseRequest(vector.value)).toMatchObject({ ok: true, request: { op: "hello", role: "critic" } });
});
