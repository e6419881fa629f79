// startViewer: one broker watch shared by every tab, served over node:http on 127.0.0.1 only. The page and its
// scripts ship in the package (assets/ beside this module, uPlot from its own package); nothing comes from the network.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { globalTimers, type Timers } from "@orphus/internal";
import type { RoundtableClient } from "@orphus/roundtable-client";
import { ViewerOptionsError } from "./errors.js";
import { SseHub, sseFrame, type HubStats } from "./hub.js";
import {
  DEFAULT_MAX_CLIENT_BUFFER_BYTES,
  DEFAULT_MAX_CLIENTS,
  SSE_KEEPALIVE_MS,
  VIEWER_MAX_PEEK_CHARS,
  VIEWER_MAX_PEEK_LIMIT,
  VIEWER_MAX_POST_CHARS,
  VIEWER_MAX_TEXT_CHARS,
} from "./limits.js";
import { SECURITY_HEADERS, refusalOf } from "./security.js";
import { ViewModel, cut } from "./state.js";
import type { BrokerWatch, WatchSnapshot } from "./watch-types.js";

/** Options of {@link startViewer}. */
export interface ViewerOptions {
  /** The broker watch to show, or how to open it; the viewer closes it on close. */
  readonly watch: BrokerWatch | (() => Promise<BrokerWatch>);
  /** Port on 127.0.0.1; default 0, any free port. */
  readonly port?: number;
  /** A client whose role the page may post as (it joins the room first); none: the page cannot post. Not closed. */
  readonly poster?: Pick<RoundtableClient, "role" | "join" | "post">;
  /** Bytes of events one tab may have waiting before it is dropped (its page reconnects); default 256 KiB. */
  readonly maxClientBufferBytes?: number;
  /** Tabs served at once; default 32. */
  readonly maxClients?: number;
  /** Timers for the keep-alive comments (tests pass fake ones). */
  readonly timers?: Timers;
  /** The clock, in ms (the chart's time for events that carry none). */
  readonly now?: () => number;
}

/** Counts of a running viewer. */
export interface ViewerStats {
  /** Tabs connected now. */
  readonly clients: number;
  /** Bytes waiting to be written, per tab: at most maxClientBufferBytes, or one turn's events when none waited. */
  readonly bufferedBytes: readonly number[];
  /** Tabs dropped for passing that bound, since start. */
  readonly dropped: number;
  /** Snapshots taken again after a gap or a reset, since start. */
  readonly resnapshots: number;
}

/** A running viewer. */
export interface Viewer {
  /** The page's address, token included: http://127.0.0.1:<port>/?token=<token>. */
  readonly url: string;
  /** The token every request must carry (64 hex digits). */
  readonly token: string;
  /** Counts for tests and the CLI. */
  stats(): ViewerStats;
  /** Stops serving, ends every tab's stream and closes the broker watch. */
  close(): Promise<void>;
}

const optionsSchema = z.object({
  port: z.number().int().min(0).max(65_535).default(0),
  maxClientBufferBytes: z
    .number()
    .int()
    .min(4096)
    .max(64 * 1024 * 1024)
    .default(DEFAULT_MAX_CLIENT_BUFFER_BYTES),
  maxClients: z.number().int().min(1).max(1000).default(DEFAULT_MAX_CLIENTS),
});

const seq = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const peekQuery = z.object({
  room: z.string().min(1).max(VIEWER_MAX_TEXT_CHARS),
  beforeSeq: seq.optional(),
  afterSeq: seq.optional(),
  limit: z.coerce.number().int().min(1).max(VIEWER_MAX_PEEK_LIMIT).default(20),
});
const postBody = z
  .object({
    room: z.string().min(1).max(VIEWER_MAX_TEXT_CHARS),
    text: z.string().min(1).max(VIEWER_MAX_POST_CHARS),
    headline: z.string().min(1).max(VIEWER_MAX_TEXT_CHARS).optional(),
  })
  .strict();

/** Bytes of a POST body read at most. */
const MAX_POST_BODY_BYTES = 4 * VIEWER_MAX_POST_CHARS + 4096;

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

function loadAssets(): Map<string, Asset> {
  const here = new URL("./assets/", import.meta.url);
  const require = createRequire(import.meta.url);
  const own = (name: string): Buffer => readFileSync(new URL(name, here));
  return new Map<string, Asset>([
    ["/assets/viewer.js", { type: "text/javascript; charset=utf-8", body: own("viewer.js") }],
    ["/assets/viewer.css", { type: "text/css; charset=utf-8", body: own("viewer.css") }],
    ["/assets/favicon.svg", { type: "image/svg+xml", body: own("favicon.svg") }],
    [
      "/assets/uplot.js",
      { type: "text/javascript; charset=utf-8", body: readFileSync(require.resolve("uplot/dist/uPlot.iife.min.js")) },
    ],
    [
      "/assets/uplot.css",
      { type: "text/css; charset=utf-8", body: readFileSync(require.resolve("uplot/dist/uPlot.min.css")) },
    ],
    ["/", { type: "text/html; charset=utf-8", body: own("index.html") }],
  ]);
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  response.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, "application/json; charset=utf-8", JSON.stringify(value));
}

function readBody(request: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the bound the rest is read and dropped (the server's request timeout ends a body that never ends), so the
    // client reads the 413 rather than a reset connection.
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.on("end", () => resolve(size > max ? undefined : Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function message(error: unknown): string {
  return cut(error instanceof Error ? error.message : String(error), 500);
}

/**
 * Starts the viewer: opens the broker watch (one for every tab), then serves the page on 127.0.0.1. Resolves once it
 * listens; the URL it gives holds the token every request needs.
 */
export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const parsed = optionsSchema.safeParse({
    port: options.port,
    maxClientBufferBytes: options.maxClientBufferBytes,
    maxClients: options.maxClients,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ViewerOptionsError(`viewer option ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}`, {
      cause: parsed.error,
    });
  }
  const settings = parsed.data;
  const timers = options.timers ?? globalTimers;
  const now = options.now ?? Date.now;
  const assets = loadAssets();
  const token = randomBytes(32).toString("hex");
  const watch = typeof options.watch === "function" ? await options.watch() : options.watch;
  const poster = options.poster;
  const model = new ViewModel(watch.snapshot, poster?.role ?? null, now);
  const hub = new SseHub({ maxBufferBytes: settings.maxClientBufferBytes, keepaliveMs: SSE_KEEPALIVE_MS, timers });
  let resnapshots = 0;
  let resnapshotting = false;
  let closed = false;

  const reload = (snapshot: WatchSnapshot): void => {
    model.load(snapshot);
    hub.broadcast("view", model.state);
  };
  const resnapshot = (): void => {
    if (resnapshotting || closed) return;
    resnapshotting = true;
    resnapshots++;
    watch.resnapshot().then(
      (snapshot) => {
        resnapshotting = false;
        reload(snapshot);
      },
      (error: unknown) => {
        resnapshotting = false;
        model.close(`could not take the broker's rooms again: ${message(error)}`);
        hub.broadcast("view", model.state);
      },
    );
  };
  const stopEvents = watch.onEvent((event) => {
    const shown = model.apply(event);
    if (shown !== undefined) hub.broadcast(shown.kind, shown);
    else if (event.kind === "gap" || event.kind === "reset") resnapshot();
  });
  const stopClose = watch.onClose((error) => {
    if (closed) return;
    model.close(error === undefined ? "the broker watch ended" : `the broker watch ended: ${message(error)}`);
    hub.broadcast("view", model.state);
  });

  let host = "";
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    const refusal = refusalOf(request, host, token);
    if (refusal !== undefined) return send(response, 403, "text/plain; charset=utf-8", `forbidden: ${refusal}\n`);
    const url = new URL(request.url ?? "/", `http://${host}`);
    const method = request.method ?? "GET";
    if (url.pathname === "/post") {
      if (method !== "POST") return send(response, 405, "text/plain; charset=utf-8", "method not allowed\n");
      return post(request, response);
    }
    if (method !== "GET") return send(response, 405, "text/plain; charset=utf-8", "method not allowed\n");
    if (url.pathname === "/events") {
      if (hub.size >= settings.maxClients) return send(response, 503, "text/plain; charset=utf-8", "too many tabs\n");
      hub.add(response, sseFrame("view", model.state));
      return;
    }
    if (url.pathname === "/peek") return peek(url, response);
    const asset = assets.get(url.pathname);
    if (asset === undefined) return send(response, 404, "text/plain; charset=utf-8", "not found\n");
    const body =
      url.pathname === "/" ? Buffer.from(asset.body.toString("utf8").replaceAll("__TOKEN__", token)) : asset.body;
    send(response, 200, asset.type, body);
  };

  const peek = async (url: URL, response: ServerResponse): Promise<void> => {
    const query = peekQuery.safeParse(Object.fromEntries([...url.searchParams].filter(([key]) => key !== "token")));
    if (!query.success) return sendJson(response, 400, { error: message(query.error.issues[0]?.message) });
    const { room, beforeSeq, afterSeq, limit } = query.data;
    try {
      const page = await watch.peek(room, {
        limit,
        maxChars: VIEWER_MAX_PEEK_CHARS,
        ...(beforeSeq === undefined ? {} : { beforeSeq }),
        ...(afterSeq === undefined ? {} : { afterSeq }),
      });
      sendJson(response, 200, {
        room: page.room,
        more: page.more,
        ...(page.evicted === undefined ? {} : { evicted: page.evicted }),
        messages: page.messages.map((m) => ({ seq: m.seq, author: cut(m.author), at: m.at, text: m.text })),
      });
    } catch (error) {
      sendJson(response, 502, { error: message(error) });
    }
  };

  const post = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (poster === undefined)
      return sendJson(response, 404, { error: "posting is off (start the viewer with a role)" });
    if (!/^application\/json\b/.test(request.headers["content-type"] ?? "")) {
      return sendJson(response, 415, { error: "a post is JSON: { room, text, headline? }" });
    }
    const text = await readBody(request, MAX_POST_BODY_BYTES);
    if (text === undefined) return sendJson(response, 413, { error: `a post is at most ${MAX_POST_BODY_BYTES} bytes` });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return sendJson(response, 400, { error: `not JSON: ${message(error)}` });
    }
    const body = postBody.safeParse(json);
    if (!body.success) return sendJson(response, 400, { error: message(body.error.issues[0]?.message) });
    try {
      await poster.join(body.data.room);
      const result = await poster.post(
        body.data.room,
        body.data.text,
        body.data.headline === undefined ? {} : { headline: body.data.headline },
      );
      sendJson(response, 200, { seq: result.seq });
    } catch (error) {
      sendJson(response, 502, { error: message(error) });
    }
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: message(error) });
      else response.destroy();
    });
  });
  // Headers and bodies arrive within bounds, or the connection goes.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.maxHeadersCount = 64;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(settings.port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    stopEvents();
    stopClose();
    hub.close();
    watch.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;

  return {
    url: `http://${host}/?token=${token}`,
    token,
    stats: (): ViewerStats => {
      const hubStats: HubStats = hub.stats();
      return { ...hubStats, resnapshots };
    },
    close: async (): Promise<void> => {
      if (closed) return;
      closed = true;
      stopEvents();
      stopClose();
      hub.close();
      watch.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
