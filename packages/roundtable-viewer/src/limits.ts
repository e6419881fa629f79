// The viewer's bounds: what a user may set is exported from the index; the rest is internal tuning.

/** Posts per room the server keeps and sends a new tab (the page shows at most this many; older ones on demand). */
export const VIEWER_MAX_POSTS_PER_ROOM = 100;

/** Rooms the viewer follows; rooms past this many in a snapshot are counted, not shown. */
export const VIEWER_MAX_ROOMS = 200;

/** Points of served and held history per room kept for the chart (one per served or room event, oldest dropped). */
export const VIEWER_MAX_CHART_POINTS = 600;

/** Default bytes of events one tab may have waiting in the server before it is dropped (the tab reconnects). */
export const DEFAULT_MAX_CLIENT_BUFFER_BYTES = 256 * 1024;

/** Default tabs served at once; one more is answered 503. */
export const DEFAULT_MAX_CLIENTS = 32;

/** Most messages one peek page asks the broker for. */
export const VIEWER_MAX_PEEK_LIMIT = 50;

/** Most characters of message text one peek page asks the broker for (the first message of a page comes whole). */
export const VIEWER_MAX_PEEK_CHARS = 32_000;

/** Characters of a headline or name the viewer keeps; a longer one is cut with "…". */
export const VIEWER_MAX_TEXT_CHARS = 300;

/** Most characters of a post typed in the page. */
export const VIEWER_MAX_POST_CHARS = 32 * 1024;

/** Milliseconds between comment lines that keep an idle event stream open through proxies and browsers. */
export const SSE_KEEPALIVE_MS = 15_000;
