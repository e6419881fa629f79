// Requests to a viewer over a real socket, with the headers a test chooses (Host and Origin included, which fetch
// will not set), and a reader of its event stream frame by frame.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { Viewer } from "@orphus/roundtable-viewer";

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export function portOf(viewer: Viewer): number {
  return Number(new URL(viewer.url).port);
}

export function request(
  viewer: Viewer,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const port = portOf(viewer);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** One event-stream frame as received: the event's name and its data parsed. */
export interface Frame {
  readonly event: string;
  readonly data: unknown;
}

/** An open event stream: frames as they come, and the raw text for framing checks. */
export interface Stream {
  readonly response: IncomingMessage;
  readonly frames: Frame[];
  raw(): string;
  /** Resolves with the first frame (from index `from`) the test accepts. */
  next(accept: (frame: Frame) => boolean, from?: number): Promise<Frame>;
  close(): void;
}

export function openStream(viewer: Viewer, options: { paused?: boolean } = {}): Promise<Stream> {
  const port = portOf(viewer);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path: `/events?token=${viewer.token}`, headers: { host: `127.0.0.1:${port}` } },
      (response) => {
        let text = "";
        let pending = "";
        const frames: Frame[] = [];
        const waiters = new Set<() => void>();
        if (options.paused === true) response.socket.pause();
        else {
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            text += chunk;
            pending += chunk;
            let end;
            while ((end = pending.indexOf("\n\n")) !== -1) {
              const block = pending.slice(0, end);
              pending = pending.slice(end + 2);
              if (block.startsWith(":")) continue;
              const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
              const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
              frames.push({ event, data: JSON.parse(data) as unknown });
            }
            for (const waiter of waiters) waiter();
          });
        }
        response.on("error", () => undefined);
        resolve({
          response,
          frames,
          raw: () => text,
          next: (accept, from = 0) =>
            new Promise((done) => {
              const look = (): void => {
                const found = frames.slice(from).find(accept);
                if (found === undefined) return;
                waiters.delete(look);
                done(found);
              };
              waiters.add(look);
              look();
            }),
          close: () => req.destroy(),
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}
