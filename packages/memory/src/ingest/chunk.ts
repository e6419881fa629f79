// Splitting a document into entries a query can rank and a reader can take in whole: at headings first, then at
// paragraphs (blank lines), then at line breaks, then at spaces, and only as a last resort inside a word.

/** One chunk of a document: the heading path it sits under (may be empty) and its text, heading line included. */
export interface Chunk {
  readonly heading: string;
  readonly text: string;
}

const ATX_HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(```|~~~)/;
/** Anything `trim` would keep. */
const NOT_BLANK = /\S/;

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

/** A heading section of a document: the heading path it sits under and where its lines lie in the text. */
interface Section {
  heading: string;
  /** Offset of its first line (its heading line, when it has one). */
  start: number;
  /** Offset past its last line: the line break before the next section's first line, or the text's end. */
  end: number;
}

/**
 * Whether a line may open a heading or a fence: its first character after at most three spaces is `#`, a backtick or
 * `~`. Most lines are neither, and this spares them both regular expressions.
 */
function mayBeMarkup(text: string, at: number): boolean {
  let i = at;
  while (i < at + 3 && text.charCodeAt(i) === 32) i++;
  const c = text.charCodeAt(i);
  return c === 35 || c === 96 || c === 126;
}

/**
 * Splits at Markdown ATX headings outside fenced code; text before the first heading is a section of its own (empty
 * when the text opens with a heading). Sections are offsets into the text, so no line is copied.
 */
function sections(text: string): Section[] {
  const out: Section[] = [{ heading: "", start: 0, end: text.length }];
  const trail: string[] = [];
  let fence: string | undefined;
  for (let at = 0; at <= text.length;) {
    const lineBreak = text.indexOf("\n", at);
    const lineEnd = lineBreak === -1 ? text.length : lineBreak;
    if (mayBeMarkup(text, at)) {
      const line = text.slice(at, lineEnd);
      const fenceMatch = FENCE.exec(line);
      if (fenceMatch !== null)
        fence = fence === undefined ? fenceMatch[1] : fence === fenceMatch[1] ? undefined : fence;
      const heading = fence === undefined && fenceMatch === null ? ATX_HEADING.exec(line) : null;
      if (heading !== null) {
        const level = (heading[1] ?? "#").length;
        trail.length = Math.min(trail.length, level - 1);
        trail[level - 1] = plainHeading(heading[2] ?? "");
        (out[out.length - 1] as Section).end = Math.max(at - 1, (out[out.length - 1] as Section).start);
        out.push({
          heading: trail.filter((t) => t !== undefined && t !== "").join(" › "),
          start: at,
          end: text.length,
        });
      }
    }
    if (lineBreak === -1) break;
    at = lineBreak + 1;
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
  const byLine = (paragraph: string): string[] =>
    pack(paragraph.split("\n"), "\n", max, (line) => hardSplit(line, max));
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
  // chunk of one line. Sections are contiguous, so a section with the heading-only ones before it is one slice.
  let pending: number | undefined;
  const merged: { heading: string; body: string }[] = [];
  for (const section of sections(normalised)) {
    const lineBreak = normalised.indexOf("\n", section.start);
    const afterHeading = lineBreak === -1 || lineBreak >= section.end ? section.end : lineBreak + 1;
    if (section.heading !== "" && !NOT_BLANK.test(normalised.slice(afterHeading, section.end))) {
      pending ??= section.start;
      continue;
    }
    merged.push({ heading: section.heading, body: normalised.slice(pending ?? section.start, section.end) });
    pending = undefined;
  }
  if (pending !== undefined) merged.push({ heading: "", body: normalised.slice(pending) });
  for (const section of merged) {
    const body = section.body.trim();
    if (body === "") continue;
    for (const piece of splitText(body, max)) {
      const trimmed = piece.trim();
      if (trimmed !== "") out.push({ heading: section.heading, text: trimmed });
    }
  }
  return out;
}
