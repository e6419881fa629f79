/**
 * UTF-8 size of `text` when it exceeds `maxBytes`, else undefined. Sizes are UTF-8 bytes (what the wire carries),
 * not UTF-16 code units; a lone surrogate counts as the 3 bytes of the U+FFFD it is encoded as.
 */
export function utf8BytesOver(text: string, maxBytes: number): number | undefined {
  // Every UTF-16 code unit encodes to 1 to 3 UTF-8 bytes, so short text needs no count.
  if (text.length * 3 <= maxBytes) return undefined;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > maxBytes ? bytes : undefined;
}
