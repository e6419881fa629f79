// The server's memory with 1,000 posts and ten tabs: what waits for a tab that stops reading never passes the
// viewer's per-tab bound (the tab is dropped instead, and its page reconnects to a fresh view), while a tab that
// reads is sent every event. Counted in bytes the server holds, not timed.
import { setImmediate as yieldToIo } from "node:timers/promises";
import { afterEach, expect, test } from "vitest";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { VIEWER_MAX_POSTS_PER_ROOM, startViewer, type Viewer } from "@orphus/roundtable-viewer";
import { fakeWatch } from "./support/fake-watch.js";
import { openStream, type Stream } from "./support/http.js";

const BOUND = 64 * 1024;
const TABS = 10;
let viewer: Viewer | undefined;
const streams: Stream[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await viewer?.close();
});

test("1,000 posts, ten tabs that stop reading: each holds at most the bound, then is dropped; a reading tab gets all", async () => {
  const watch = fakeWatch();
  viewer = await startViewer({ watch, timers: manualTimers(), maxClientBufferBytes: BOUND, maxClients: TABS + 1 });
  const reading = await openStream(viewer);
  streams.push(reading);
  await reading.next(() => true);
  for (let i = 0; i < TABS; i++) streams.push(await openStream(viewer, { paused: true }));
  while (viewer.stats().clients < TABS + 1) await yieldToIo();

  let posts = 0;
  let most = 0;
  const body = "x".repeat(250);
  // 1,000 posts, then on until every stalled tab has passed the bound (the kernel's socket buffers take the first
  // few hundred kilobytes of each): at most 40,000, far past any socket buffer.
  while (posts < 1000 || (viewer.stats().dropped < TABS && posts < 40_000)) {
    for (let i = 0; i < 20; i++) {
      posts++;
      watch.post("plan", "critic", `${posts} ${body}`);
      most = Math.max(most, ...viewer.stats().bufferedBytes);
    }
    // The reading tab reads between batches, as a live page does.
    await yieldToIo();
    most = Math.max(most, ...viewer.stats().bufferedBytes);
    await yieldToIo();
  }
  expect(most).toBeLessThanOrEqual(BOUND);
  expect(viewer.stats().dropped).toBe(TABS);
  expect(viewer.stats().clients).toBe(1);
  const last = await reading.next(
    (f) => f.event === "post" && (f.data as { post: { seq: number } }).post.seq === posts,
  );
  expect(last.event).toBe("post");
  expect(reading.frames.filter((f) => f.event === "post").length).toBe(posts);

  // What the server keeps of the room stays at its bound whatever was posted: a new tab is sent the newest 100.
  const fresh = await openStream(viewer);
  streams.push(fresh);
  const view = (await fresh.next(() => true)).data as { rooms: { posts: unknown[] }[] };
  expect(view.rooms[0]?.posts.length).toBe(VIEWER_MAX_POSTS_PER_ROOM);
});
