import type { Readable, Writable } from "node:stream";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { TOOL_MAX_POST_CHARS, boundedText } from "@orphus/roundtable-client";
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "@orphus/internal";
import { MAX_MCP_ERROR_MESSAGE_CHARS, MAX_MCP_INPUT_BYTES } from "./limits.js";
import { TopLevelFieldScanner } from "./top-level-fields.js";

/** Options of {@link LineBoundedStdioTransport}. */
export interface LineBoundedStdioTransportOptions {
  /** Bytes one incoming line may hold; default {@link MAX_MCP_INPUT_BYTES}. */
  readonly maxLineBytes?: number;
}

const NEWLINE = 0x0a;

/** A JSON-RPC request id, as the SDK's schema has it: a string or an integer. */
type RequestId = string | number;

function asRequestId(id: unknown): RequestId | undefined {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : undefined;
}

/** The request id in a member's raw JSON text, as the scanner found it. */
function parseRequestId(raw: string | undefined): RequestId | undefined {
  if (raw === undefined) return undefined;
  try {
    return asRequestId(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/**
 * `message` as it may leave: an error response's message sanitised and cut to MAX_MCP_ERROR_MESSAGE_CHARS, whoever
 * made it (this server, or the SDK quoting a host's input); anything else unchanged.
 */
function safeOutgoing(message: JSONRPCMessage): JSONRPCMessage {
  if (!("error" in message) || !isRecord(message.error) || typeof message.error.message !== "string") return message;
  const text = boundedText(message.error.message, MAX_MCP_ERROR_MESSAGE_CHARS);
  return text === message.error.message ? message : { ...message, error: { ...message.error, message: text } };
}

/**
 * The MCP stdio transport of the server (newline-delimited JSON-RPC on stdin and stdout), with each incoming line
 * bounded rather than the SDK's whole read buffer. A line past `maxLineBytes` is read on and discarded as it
 * arrives, never buffered, and answered with a JSON-RPC error naming the limit (addressed to its request id, which
 * is picked out of the stream as it passes); the session goes on. A line that is not JSON is reported through
 * `onerror` and skipped; a request that is JSON but not JSON-RPC gets an Invalid Request error when it has an id.
 */
export class LineBoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly maxLineBytes: number;
  /** The current line's pieces while it is within the limit. */
  #pieces: Buffer[] = [];
  #length = 0;
  /** Set once the current line passed the limit: its length so far, and the scanner looking for its id. */
  #oversize: { bytes: number; scanner: TopLevelFieldScanner } | undefined;
  #started = false;
  #closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    options: LineBoundedStdioTransportOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_MCP_INPUT_BYTES;
  }

  /** Bytes of the current line held in memory: at most `maxLineBytes`, whatever arrives. */
  get bufferedBytes(): number {
    return this.#length;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("LineBoundedStdioTransport already started");
    this.#started = true;
    this.stdin.on("data", this.#onData);
    this.stdin.on("error", this.#onStreamError);
  }

  /** Writes one message as a line; an error response's message passes the one sanitiser and its bound first. */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(safeOutgoing(message)))) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.stdin.off("data", this.#onData);
    this.stdin.off("error", this.#onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.#pieces = [];
    this.#oversize = undefined;
    this.onclose?.();
  }

  readonly #onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let offset = 0;
    while (offset <= bytes.length && !this.#closed) {
      const newline = bytes.indexOf(NEWLINE, offset);
      this.#take(bytes.subarray(offset, newline === -1 ? bytes.length : newline));
      if (newline === -1) return;
      this.#endLine();
      offset = newline + 1;
    }
  };

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#oversize !== undefined) {
      this.#oversize.bytes += piece.length;
      this.#oversize.scanner.feed(piece);
      return;
    }
    if (this.#length + piece.length <= this.maxLineBytes) {
      this.#pieces.push(piece);
      this.#length += piece.length;
      return;
    }
    // Past the limit: from here on the line is only scanned for its id, never kept.
    const scanner = new TopLevelFieldScanner(["id", "method"]);
    for (const kept of this.#pieces) scanner.feed(kept);
    scanner.feed(piece);
    this.#oversize = { bytes: this.#length + piece.length, scanner };
    this.#pieces = [];
    this.#length = 0;
  }

  #endLine(): void {
    const oversize = this.#oversize;
    const line = oversize === undefined ? Buffer.concat(this.#pieces, this.#length).toString("utf8") : "";
    this.#pieces = [];
    this.#length = 0;
    this.#oversize = undefined;
    if (oversize !== undefined) {
      this.#refuseOversize(oversize.bytes, oversize.scanner);
      return;
    }
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.onerror?.(new Error(`skipped a line that is not JSON (${(error as Error).message})`, { cause: error }));
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    this.onerror?.(new Error("skipped a line that is not a JSON-RPC message", { cause: parsed.error }));
    const id = isRecord(value) ? asRequestId(value["id"]) : undefined;
    if (id !== undefined && isRecord(value) && typeof value["method"] === "string") {
      this.#sendError(id, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 request this server can read");
    }
  }

  #refuseOversize(bytes: number, scanner: TopLevelFieldScanner): void {
    scanner.end();
    const id = parseRequestId(scanner.raw("id"));
    const message =
      `Request too large: the line was ${bytes} bytes, over this server's limit of ${this.maxLineBytes} bytes per ` +
      `message, and was discarded unread. Send less: a post body is at most ${TOOL_MAX_POST_CHARS} characters.`;
    this.onerror?.(new Error(`discarded a ${bytes}-byte line, over the limit of ${this.maxLineBytes} bytes`));
    if (id !== undefined)
      this.#sendError(id, ErrorCode.InvalidRequest, message, { bytes, maxLineBytes: this.maxLineBytes });
  }

  #sendError(id: RequestId, code: number, message: string, data?: Record<string, number>): void {
    const error = data === undefined ? { code, message } : { code, message, data };
    this.send({ jsonrpc: "2.0", id, error }).catch((cause: unknown) => {
      this.onerror?.(new Error("could not send an error response", { cause }));
    });
  }
}
