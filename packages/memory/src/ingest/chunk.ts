// Splitting a document into entries a query can rank and a reader can take in whole: at headings first, then at
// paragraphs (blank lines), then at line breaks, then at spaces, and only as a last resort inside a word.

/** One chunk of a document: the heading path it sits under (may be empty) and its text, heading line included. */
export interface Chunk {
  readonly heading: string;
  readonly text: string;
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/**
 * A heading's text without its Markdown and HTML markup, as a title shows it: images (badges) and HTML tags dropped,
 * a link shown as its text, code spans, emphasis and escapes as their characters, space runs squeezed. A heading of
 * markup only (a row of badges) has no text left and adds nothing to the title.
 */
export function plainHeading(heading: string): string {
  if (!/[!\[\]<`*_\\]/.test(heading)) return heading.trim();
  return heading
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, " ")
    .replace(/<\/?[A-Za-z][^>]*>/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, "$1")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/(?<!\\)(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=[^\s\\])\1/g, "$2")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

interface Section {
  heading: string;
  lines: string[];
}

/**
 * Whether a line may open a heading or a fence: its first character after at most three spaces is `#`, a backtick or
 * `~`. Most lines are neither, and this spares them both regular expressions.
 */
function mayBeMarkup(line: string): boolean {
  let i = 0;
  while (i < 3 && line.charCodeAt(i) === 32) i++;
  const c = line.charCodeAt(i);
  return c === 35 || c === 96 || c === 126;
}

/** Splits at Markdown ATX headings outside fenced code; text before the first heading is a section of its own. */
function sections(text: string): Section[] {
  const out: Section[] = [{ heading: "", lines: [] }];
  const trail: string[] = [];
  let fence: string | undefined;
  for (const line of text.split("\n")) {
    if (!mayBeMarkup(line)) {
      (out[out.length - 1] as Section).lines.push(line);
      continue;
    }
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch !== null) fence = fence === undefined ? fenceMatch[1] : fence === fenceMatch[1] ? undefined : fence;
    const heading = fence === undefined && fenceMatch === null ? ATX_HEADING.exec(line) : null;
    if (heading !== null) {
      const level = (heading[1] ?? "#").length;
      trail.length = Math.min(trail.length, level - 1);
      trail[level - 1] = plainHeading(heading[2] ?? "");
      out.push({ heading: trail.filter((t) => t !== undefined && t !== "").join(" › "), lines: [line] });
    } else (out[out.length - 1] as Section).lines.push(line);
  }
  return out;
}

/** Cuts one piece longer than `max` at the last space (or break) in its second half, else at `max`, never inside a surrogate pair. */
function hardSplit(piece: string, max: number): string[] {
  const out: string[] = [];
  let rest = piece;
  while (rest.length > max) {
    let cut = max;
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    const space = Math.max(rest.lastIndexOf(" ", cut), rest.lastIndexOf("\n", cut));
    if (space >= Math.ceil(max / 2)) cut = space + 1;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest !== "") out.push(rest);
  return out;
}

/** Packs `pieces` joined by `separator` into runs of at most `max` characters; a piece too long is split further by `split`. */
function pack(pieces: readonly string[], separator: string, max: number, split: (piece: string) => string[]): string[] {
  const out: string[] = [];
  let current = "";
  for (const piece of pieces) {
    if (piece.length > max) {
      if (current !== "") out.push(current);
      current = "";
      out.push(...split(piece));
      continue;
    }
    const joined = current === "" ? piece : current + separator + piece;
    if (joined.length <= max) current = joined;
    else {
      out.push(current);
      current = piece;
    }
  }
  if (current !== "") out.push(current);
  return out;
}

/** Splits a section's text to pieces of at most `max`: paragraphs, then lines, then spaces. */
function splitText(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const byLine = (paragraph: string): string[] => pack(paragraph.split("\n"), "\n", max, (line) => hardSplit(line, max));
  return pack(text.split(/\n[ \t]*\n/), "\n\n", max, byLine);
}

/**
 * The chunks of a document, each at most `max` characters (a positive integer): one per heading section while it
 * fits, else its paragraphs packed greedily, splitting further only what is still too long. Line breaks are
 * normalised to \n and blank space at either end of a chunk is dropped; chunks with no visible text are left out.
 */
export function chunkDocument(text: string, max: number): Chunk[] {
  const normalised = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  const out: Chunk[] = [];
  // A heading with nothing under it before the next heading joins the next section, so it is neither lost nor a
  // chunk of one line.
  let pending: string[] = [];
  const merged: Section[] = [];
  for (const section of sections(normalised)) {
    const headingOnly = section.heading !== "" && section.lines.slice(1).join("").trim() === "";
    if (headingOnly) {
      pending.push(...section.lines);
      continue;
    }
    merged.push({ heading: section.heading, lines: [...pending, ...section.lines] });
    pending = [];
  }
  if (pending.length > 0) merged.push({ heading: "", lines: pending });
  for (const section of merged) {
    const body = section.lines.join("\n").trim();
    if (body === "") continue;
    for (const piece of splitText(body, max)) {
      const trimmed = piece.trim();
      if (trimmed !== "") out.push({ heading: section.heading, text: trimmed });
    }
  }
  return out;
}
