/**
 * @orphus/roundtable-viewer — a live view of a roundtable broker in the browser, served on 127.0.0.1 only: the
 * broker, its rooms with their members and unread counts, posts as they arrive (full text on click, in bounded
 * pages), and a chart of what the broker served each role (digest, fetch and ping characters) against what the room
 * holds. One broker watch feeds every tab through server-sent events; the watcher is no member of anything. Every
 * request carries the viewer's token; the page runs only its own scripts and shows every text as text.
 *
 * ```ts
 * import { watchBroker } from "@orphus/roundtable-client";
 * import { startViewer } from "@orphus/roundtable-viewer";
 *
 * const viewer = await startViewer({ watch: () => watchBroker() });
 * console.log(viewer.url); // http://127.0.0.1:<port>/?token=<64 hex digits>
 * ```
 */
export { startViewer } from "./viewer.js";
export { ViewerError, ViewerOptionsError } from "./errors.js";
export {
  DEFAULT_MAX_CLIENT_BUFFER_BYTES,
  DEFAULT_MAX_CLIENTS,
  VIEWER_MAX_CHART_POINTS,
  VIEWER_MAX_PEEK_CHARS,
  VIEWER_MAX_PEEK_LIMIT,
  VIEWER_MAX_POSTS_PER_ROOM,
  VIEWER_MAX_ROOMS,
} from "./limits.js";
export { SECURITY_HEADERS } from "./security.js";
export type { Viewer, ViewerOptions, ViewerStats } from "./viewer.js";
export type { TimerHandle, Timers } from "@orphus/internal";
export type {
  BrokerWatch,
  ServedCounts,
  WatchEvent,
  WatchPage,
  WatchPost,
  WatchRoom,
  WatchSnapshot,
} from "./watch-types.js";
