/**
 * The one rule for "characters" in a fetch page: a message counts the UTF-16 code units (JavaScript's `.length`) of
 * its body plus those of its headline, the unit a digest budget counts in. Seq, author and time are bounded metadata
 * and not counted; a renderer adds one header line of its own per message.
 */
export function fetchMessageChars(message: { readonly body: string; readonly headline?: string | undefined }): number {
  return message.body.length + (message.headline?.length ?? 0);
}
