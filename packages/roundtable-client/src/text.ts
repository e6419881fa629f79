/** Control characters other than tab and newline, escape sequences' introducers included, and bidi overrides. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Peer text made safe for a terminal or a transcript: control characters become U+FFFD, newlines stay. */
export function safeText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(UNSAFE, "\ufffd");
}

/** Peer text on one line: line breaks become spaces, control characters become U+FFFD. */
export function safeLine(text: string): string {
  return safeText(text).replace(/[\n\t\u2028\u2029]+/g, " ");
}

/** `1 message` / `3 messages`. */
export function plural(count: number, one: string, many: string = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A sorted list of names, or a dash when there are none. */
export function nameList(names: readonly string[]): string {
  return names.length === 0 ? "—" : names.map(safeLine).join(", ");
}
