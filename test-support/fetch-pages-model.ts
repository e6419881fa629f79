// The naive model of fetch paging that the broker, MCP and CLI tests compare real pages against: pages of whole
// messages in order, never empty, each ending before the first message that would pass the limit, the character
// cap or the byte cap. Written as plainly as possible, apart from the broker's code.
import fc from "fast-check";

/** A posted message as the model sees it: its seq, its characters (body plus headline) and, if capped, its bytes. */
export interface ModelMessage {
  readonly seq: number;
  readonly chars: number;
  readonly bytes?: number;
}

/** What a page may hold. */
export interface ModelCaps {
  readonly limit: number;
  readonly maxChars: number;
  readonly maxBytes?: number;
}

/** The seqs of each page when reading `messages` from the first to the last. */
export function modelFetchPages(messages: readonly ModelMessage[], caps: ModelCaps): number[][] {
  const pages: number[][] = [];
  let page: number[] = [];
  let chars = 0;
  let bytes = 0;
  for (const message of messages) {
    const fits =
      page.length < caps.limit &&
      chars + message.chars <= caps.maxChars &&
      bytes + (message.bytes ?? 0) <= (caps.maxBytes ?? Infinity);
    if (page.length > 0 && !fits) {
      pages.push(page);
      page = [];
      chars = 0;
      bytes = 0;
    }
    page.push(message.seq);
    chars += message.chars;
    bytes += message.bytes ?? 0;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/** One page as a reader's text showed it: the messages read back, and the afterSeq it says reads on (if more). */
export interface ReadPage {
  readonly messages: readonly { readonly seq: number; readonly body: string }[];
  readonly next: number | undefined;
}

/** How a paging property reaches a real room: post a body (resolving its seq), and read one page through a reader. */
export interface PagingReader {
  post(body: string): Promise<number>;
  readPage(afterSeq: number, caps: { limit?: number; maxChars?: number }): Promise<ReadPage>;
  /** The reader's page size when the call names none (the tool asks for 10, the wire default is 20). */
  readonly defaultLimit: number;
}

/**
 * The end-to-end paging property of a reader (the MCP tool, the CLI): post bodies of random sizes (round sizes too,
 * so pages land exactly on the cap), read from just before them by following what each page says, and compare the
 * pages with the naive model. Bodies are one line of letters, so a reader's text can be read back.
 */
export function pagingProperty(
  reader: PagingReader,
): fc.IAsyncPropertyWithHooks<[number[], number | undefined, number | undefined]> {
  let newest = 0;
  // Mostly round sizes and caps, so that pages often land exactly on the cap: the boundary an off-by-one misses.
  const size = fc.oneof(
    { weight: 1, arbitrary: fc.nat({ max: 12_000 }) },
    { weight: 3, arbitrary: fc.constantFrom(0, 1, 1000, 2000, 4000, 8000) },
  );
  const sizes = fc.array(size, { maxLength: 12 });
  const cap = fc.option(
    fc.oneof(
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
      { weight: 3, arbitrary: fc.constantFrom(1000, 2000, 4000, 8000) },
    ),
    { nil: undefined },
  );
  const limit = fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined });
  return fc.asyncProperty(sizes, cap, limit, async (lengths, maxChars, pageLimit) => {
    // One room for every run (a broker holds few rooms): each run reads from the newest seq before its posts.
    const base = newest;
    const bodies = lengths.map((length, i) => "abcdefghij"[i % 10]?.repeat(length) ?? "");
    for (const body of bodies) newest = await reader.post(body);
    const caps = {
      ...(pageLimit === undefined ? {} : { limit: pageLimit }),
      ...(maxChars === undefined ? {} : { maxChars }),
    };
    const pages: number[][] = [];
    let next: number | undefined = base;
    while (next !== undefined) {
      const page = await reader.readPage(next, caps);
      for (const message of page.messages) {
        if (message.body !== bodies[message.seq - base - 1]) throw new Error(`#${message.seq} did not arrive whole`);
      }
      if (page.messages.length > 0) pages.push(page.messages.map((m) => m.seq));
      next = page.next;
    }
    const model = bodies.map((body, i) => ({ seq: base + i + 1, chars: body.length }));
    const expected = modelFetchPages(model, { limit: pageLimit ?? reader.defaultLimit, maxChars: maxChars ?? 8000 });
    if (JSON.stringify(pages) !== JSON.stringify(expected)) {
      throw new Error(`pages ${JSON.stringify(pages)}, the model says ${JSON.stringify(expected)}`);
    }
  });
}
