// A naive reference of how a document is cut at its headings: line by line, each section its lines, a heading with
// nothing under it joined to the next section. chunkDocument works on offsets into the text instead (it is on the
// path of every file an ingest reads); the two must agree.
import { plainHeading, type Chunk } from "../../src/ingest/chunk.js";

/** The chunks of `text` when no section is longer than the maximum: one per section with visible text. */
export function sectionChunks(text: string): Chunk[] {
  const sections: { heading: string; lines: string[] }[] = [{ heading: "", lines: [] }];
  const trail: string[] = [];
  let fence: string | undefined;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const fenceMatch = /^ {0,3}(```|~~~)/.exec(line);
    if (fenceMatch !== null) fence = fence === undefined ? fenceMatch[1] : fence === fenceMatch[1] ? undefined : fence;
    const heading = fence === undefined && fenceMatch === null ? /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/.exec(line) : null;
    if (heading === null) {
      sections[sections.length - 1]?.lines.push(line);
      continue;
    }
    const level = (heading[1] ?? "#").length;
    trail.length = Math.min(trail.length, level - 1);
    trail[level - 1] = plainHeading(heading[2] ?? "");
    sections.push({ heading: trail.filter((t) => t !== undefined && t !== "").join(" › "), lines: [line] });
  }
  const chunks: Chunk[] = [];
  let pending: string[] = [];
  const add = (heading: string, lines: readonly string[]): void => {
    const body = lines.join("\n").trim();
    if (body !== "") chunks.push({ heading, text: body });
  };
  for (const section of sections) {
    if (section.heading !== "" && section.lines.slice(1).join("").trim() === "") pending.push(...section.lines);
    else {
      add(section.heading, [...pending, ...section.lines]);
      pending = [];
    }
  }
  add("", pending);
  return chunks;
}
