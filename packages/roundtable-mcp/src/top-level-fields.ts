/** Longest raw value kept for a field: an id or a method name is short; anything longer is not kept. */
const MAX_VALUE_BYTES = 256;

/** Longest key compared: the fields looked for have short names. */
const MAX_KEY_BYTES = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

function isOpening(byte: number): boolean {
  return byte === 0x7b || byte === 0x5b; // { [
}

function isClosing(byte: number): boolean {
  return byte === 0x7d || byte === 0x5d; // } ]
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** A bounded byte buffer: keeps at most `limit` bytes and remembers whether more came. */
class Capture {
  readonly #bytes: number[] = [];
  #overflowed = false;
  constructor(private readonly limit: number) {}
  push(byte: number): void {
    if (this.#bytes.length < this.limit) this.#bytes.push(byte);
    else this.#overflowed = true;
  }
  /** The captured text, or undefined when it did not fit. */
  text(): string | undefined {
    return this.#overflowed ? undefined : Buffer.from(this.#bytes).toString("utf8");
  }
}

/**
 * Reads the raw JSON of chosen members of a top-level JSON object from a byte stream fed piece by piece, without
 * keeping the stream: memory stays a few hundred bytes however long the line is. The transport uses it on a request
 * line past its limit, to find the `id` to address its refusal to while discarding the rest. Members nested deeper
 * (an `id` inside `params.arguments`) are not taken for top-level ones. Not a validator: on malformed input it finds
 * what it can.
 */
export class TopLevelFieldScanner {
  readonly #wanted: ReadonlySet<string>;
  readonly #found = new Map<string, string>();
  #depth = 0;
  #topIsObject = false;
  #inString = false;
  #escaped = false;
  /** At depth 1: what comes next in the object. */
  #expect: "key" | "colon" | "value" | "comma" = "key";
  #key: Capture | undefined;
  #currentKey: string | undefined;
  /** The value being kept (a wanted member's), or undefined. */
  #value: Capture | undefined;
  #valueIsString = false;

  constructor(wanted: readonly string[]) {
    this.#wanted = new Set(wanted);
  }

  /** The raw JSON text of a wanted top-level member seen so far (`"abc"`, `42`), or undefined. */
  raw(name: string): string | undefined {
    return this.#found.get(name);
  }

  feed(bytes: Uint8Array): void {
    for (const byte of bytes) this.#step(byte);
  }

  /** Call at the end of the line, so a number that ends the object without a delimiter is kept. */
  end(): void {
    if (this.#value !== undefined && !this.#valueIsString) this.#keepValue();
  }

  #step(byte: number): void {
    if (this.#inString) {
      this.#value?.push(byte);
      this.#key?.push(byte);
      if (this.#escaped) this.#escaped = false;
      else if (byte === BACKSLASH) this.#escaped = true;
      else if (byte === QUOTE) this.#endString();
      return;
    }
    if (this.#value !== undefined && !this.#valueIsString) {
      if (!isSpace(byte) && byte !== COMMA && !isClosing(byte)) {
        this.#value.push(byte);
        return;
      }
      this.#keepValue();
    }
    const atTop = this.#depth === 1 && this.#topIsObject;
    if (byte === QUOTE) {
      this.#inString = true;
      if (atTop && this.#expect === "key") {
        this.#key = new Capture(MAX_KEY_BYTES);
      } else if (atTop && this.#expect === "value" && this.#isWanted()) {
        this.#value = new Capture(MAX_VALUE_BYTES);
        this.#value.push(byte);
        this.#valueIsString = true;
      }
    } else if (isOpening(byte)) {
      if (this.#depth === 0) this.#topIsObject = byte === 0x7b;
      else if (atTop && this.#expect === "value") this.#expect = "comma";
      this.#depth++;
    } else if (isClosing(byte)) {
      this.#depth = Math.max(0, this.#depth - 1);
    } else if (atTop && byte === COLON) {
      this.#expect = "value";
    } else if (atTop && byte === COMMA) {
      this.#expect = "key";
    } else if (atTop && this.#expect === "value" && !isSpace(byte)) {
      this.#expect = "comma";
      if (this.#isWanted()) {
        this.#value = new Capture(MAX_VALUE_BYTES);
        this.#value.push(byte);
        this.#valueIsString = false;
      }
    }
  }

  #isWanted(): boolean {
    return this.#currentKey !== undefined && this.#wanted.has(this.#currentKey);
  }

  #endString(): void {
    this.#inString = false;
    if (this.#key !== undefined) {
      const text = this.#key.text();
      // The closing quote was captured with the key: drop it, and decode the key as JSON would.
      this.#currentKey = text === undefined ? undefined : safeParseString(`"${text}`);
      this.#key = undefined;
      this.#expect = "colon";
    } else if (this.#value !== undefined) {
      this.#keepValue();
      this.#expect = "comma";
    } else if (this.#depth === 1 && this.#topIsObject && this.#expect === "value") {
      this.#expect = "comma";
    }
  }

  #keepValue(): void {
    const text = this.#value?.text();
    if (text !== undefined && this.#currentKey !== undefined && !this.#found.has(this.#currentKey)) {
      this.#found.set(this.#currentKey, text);
    }
    this.#value = undefined;
  }
}

function safeParseString(json: string): string | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
