// The viewer's HTTP layer over a real socket: the token, Host and Origin refusals with their literal answers, the
// security headers on every answer, the event stream's framing, peek and post, and the bounds a tab cannot pass.
import { afterEach, describe, expect, test } from "vitest";
import { manualTimers } from "../../../test-support/manual-timers.js";
import { startViewer, type Viewer, type ViewerOptions } from "@orphus/roundtable-viewer";
import { fakeSnapshot, fakeWatch, type FakeWatch } from "./support/fake-watch.js";
import { openStream, portOf, request, type Frame, type Stream } from "./support/http.js";

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const open: { viewer: Viewer; streams: Stream[] }[] = [];
afterEach(async () => {
  for (const { viewer, streams } of open.splice(0)) {
    for (const stream of streams) stream.close();
    await viewer.close();
  }
});

async function viewerWith(
  watch: FakeWatch = fakeWatch(),
  options: Omit<ViewerOptions, "watch"> = {},
): Promise<{ viewer: Viewer; watch: FakeWatch; stream: (paused?: boolean) => Promise<Stream> }> {
  const viewer = await startViewer({ watch, timers: manualTimers(), ...options });
  const streams: Stream[] = [];
  open.push({ viewer, streams });
  return {
    viewer,
    watch,
    stream: async (paused = false) => {
      const stream = await openStream(viewer, { paused });
      streams.push(stream);
      return stream;
    },
  };
}

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers["content-security-policy"]).toBe(CSP);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["cache-control"]).toBe("no-store");
}

describe("who is served", () => {
  test("the page with the token: 200, its scripts from itself only, every security header", async () => {
    const { viewer } = await viewerWith();
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
    expect(viewer.token).toMatch(/^[0-9a-f]{64}$/);
    const page = await request(viewer, `/?token=${viewer.token}`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expectSecurityHeaders(page.headers);
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([
      ` src="/assets/uplot.js?token=${viewer.token}" defer`,
      ` src="/assets/viewer.js?token=${viewer.token}" defer`,
    ]);
    expect(page.body).not.toMatch(/https?:\/\//);
    for (const asset of ["/assets/viewer.js", "/assets/viewer.css", "/assets/uplot.js", "/assets/uplot.css"]) {
      const answer = await request(viewer, `${asset}?token=${viewer.token}`);
      expect(answer.status).toBe(200);
      expectSecurityHeaders(answer.headers);
    }
  });

  test("no token, a wrong one, or one cut short: 403 'forbidden: token', headers still set", async () => {
    const { viewer } = await viewerWith();
    const wrong = viewer.token.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    for (const path of [
      "/",
      "/?token=",
      `/?token=${wrong}`,
      `/?token=${viewer.token.slice(0, 63)}`,
      `/?token=${viewer.token}0`,
      "/assets/viewer.js",
      "/events",
      "/peek?room=plan",
    ]) {
      const answer = await request(viewer, path);
      expect([path, answer.status, answer.body]).toEqual([path, 403, "forbidden: token\n"]);
      expectSecurityHeaders(answer.headers);
    }
  });

  test("a Host other than the served address (DNS rebinding, localhost, no port): 403 'forbidden: host'", async () => {
    const { viewer } = await viewerWith();
    const port = portOf(viewer);
    for (const host of [`evil.example:${port}`, `localhost:${port}`, "127.0.0.1", `127.0.0.1:${port + 1}`]) {
      const answer = await request(viewer, `/?token=${viewer.token}`, { headers: { host } });
      expect([host, answer.status, answer.body]).toEqual([host, 403, "forbidden: host\n"]);
    }
  });

  test("a foreign Origin: 403 'forbidden: origin'; the served origin passes; a POST must carry it", async () => {
    const { viewer } = await viewerWith();
    const port = portOf(viewer);
    for (const origin of ["http://evil.example", `http://localhost:${port}`, "null", `https://127.0.0.1:${port}`]) {
      const answer = await request(viewer, `/?token=${viewer.token}`, { headers: { origin } });
      expect([origin, answer.status, answer.body]).toEqual([origin, 403, "forbidden: origin\n"]);
    }
    const same = await request(viewer, `/?token=${viewer.token}`, { headers: { origin: `http://127.0.0.1:${port}` } });
    expect(same.status).toBe(200);
    const post = await request(viewer, `/post?token=${viewer.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ room: "plan", text: "hi" }),
    });
    expect([post.status, post.body]).toEqual([403, "forbidden: origin\n"]);
  });

  test("wrong method 405, unknown path 404, posting when off 404", async () => {
    const { viewer } = await viewerWith();
    const origin = `http://127.0.0.1:${portOf(viewer)}`;
    expect(
      (await request(viewer, `/events?token=${viewer.token}`, { method: "POST", headers: { origin } })).status,
    ).toBe(405);
    expect((await request(viewer, `/post?token=${viewer.token}`)).status).toBe(405);
    expect((await request(viewer, `/nothing?token=${viewer.token}`)).status).toBe(404);
    const post = await request(viewer, `/post?token=${viewer.token}`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ room: "plan", text: "hi" }),
    });
    expect(post.status).toBe(404);
  });

  test("listens on 127.0.0.1 only", async () => {
    const { viewer } = await viewerWith();
    expect(new URL(viewer.url).hostname).toBe("127.0.0.1");
  });

  test("an option out of range is refused with ERR_VIEWER_OPTIONS", async () => {
    await expect(startViewer({ watch: fakeWatch(), port: 70_000 })).rejects.toMatchObject({
      code: "ERR_VIEWER_OPTIONS",
      name: "ViewerOptionsError",
    });
    await expect(startViewer({ watch: fakeWatch(), maxClientBufferBytes: 10 })).rejects.toMatchObject({
      code: "ERR_VIEWER_OPTIONS",
    });
  });
});

describe("the event stream", () => {
  const room = {
    room: "plan",
    lastSeq: 2,
    held: { messages: 2, chars: 30 },
    members: [{ role: "planner", unread: 0 }],
    served: [{ role: "planner", digestChars: 10, fetchChars: 5, pingChars: 1 }],
    recent: [
      { seq: 1, author: "critic", at: "2026-12-05T00:00:01.000Z", headline: "one", chars: 12 },
      { seq: 2, author: "critic", at: "2026-12-05T00:00:02.000Z", headline: "two", chars: 18 },
    ],
  };

  test("framed as 'event: <kind>\\ndata: <one line of JSON>\\n\\n': the view first, then each event", async () => {
    const { viewer, watch, stream } = await viewerWith(fakeWatch(fakeSnapshot([room])), { now: () => 1_000 });
    const tab = await stream();
    const first = await tab.next(() => true);
    expect(first.event).toBe("view");
    expect(first.data).toEqual({
      broker: {
        pid: 4242,
        instance: "fake-instance",
        store: "memory",
        protocol: 3,
        startedAt: "2026-12-05T00:00:00.000Z",
      },
      rooms: [
        {
          ...room,
          recent: undefined,
          posts: room.recent,
          chart: [
            { at: 1000, role: null, chars: 30 },
            { at: 1000, role: "planner", chars: 16 },
          ],
        },
      ].map(({ recent: _recent, ...rest }) => rest),
      roomsLeftOut: 0,
      postAs: null,
      closed: null,
    });
    watch.emit({
      kind: "post",
      room: "plan",
      seq: 3,
      author: "critic",
      at: "2026-12-05T00:00:03.000Z",
      headline: "line\nbreak",
      chars: 9,
    });
    await tab.next((f) => f.event === "post");
    expect(tab.raw()).toContain(
      'event: post\ndata: {"kind":"post","room":"plan","post":{"seq":3,"author":"critic","at":"2026-12-05T00:00:03.000Z","headline":"line\\nbreak","chars":9}}\n\n',
    );
    watch.emit({
      kind: "served",
      room: "plan",
      at: "2026-12-05T00:00:04.000Z",
      role: "critic",
      digestChars: 7,
      fetchChars: 0,
      pingChars: 3,
    });
    const served = await tab.next((f) => f.event === "served");
    expect(served.data).toEqual({
      kind: "served",
      room: "plan",
      served: { role: "critic", digestChars: 7, fetchChars: 0, pingChars: 3 },
      point: { at: Date.parse("2026-12-05T00:00:04.000Z"), role: "critic", chars: 10 },
    });
    expect(viewer.stats().clients).toBe(1);
  });

  test("a keep-alive comment on the injected timer", async () => {
    const timers = manualTimers();
    const { stream } = await viewerWith(fakeWatch(), { timers });
    const tab = await stream();
    await tab.next(() => true);
    expect(timers.fire(15_000)).toBe(1);
    await new Promise<void>((resolve) => {
      const check = (): void => (tab.raw().includes(": keepalive\n\n") ? resolve() : void setImmediate(check));
      check();
    });
    expect(timers.pending().map((t) => t.ms)).toEqual([15_000]);
  });

  test("a gap takes the snapshot again and sends every tab the new view", async () => {
    const watch = fakeWatch();
    const { viewer, stream } = await viewerWith(watch);
    const tab = await stream();
    await tab.next(() => true);
    watch.next = fakeSnapshot([{ ...room, recent: [] }]);
    watch.emit({ kind: "gap", dropped: 3 });
    const view = (await tab.next((f: Frame) => f.event === "view", 1)).data as { rooms: { room: string }[] };
    expect(view.rooms.map((r) => r.room)).toEqual(["plan"]);
    expect(viewer.stats().resnapshots).toBe(1);
  });

  test("the watch closing is shown, and closing the viewer closes the watch", async () => {
    const watch = fakeWatch();
    const { viewer, stream } = await viewerWith(watch);
    const tab = await stream();
    await tab.next(() => true);
    watch.fail(new Error("broker gone"));
    const view = (await tab.next((f) => f.event === "view", 1)).data as { closed: string };
    expect(view.closed).toBe("the broker watch ended: broker gone");
    await viewer.close();
    expect(watch.closed).toBe(true);
  });

  test("a room keeps at most 100 posts; a new tab is sent the newest 100", async () => {
    const { watch, stream } = await viewerWith(fakeWatch(fakeSnapshot([{ ...room, recent: [] }])));
    for (let i = 1; i <= 150; i++) watch.post("plan", "critic", `message ${i}`);
    const tab = await stream();
    const view = (await tab.next(() => true)).data as { rooms: { posts: { seq: number }[] }[] };
    const seqs = view.rooms[0]?.posts.map((p) => p.seq) ?? [];
    expect(seqs.length).toBe(100);
    expect([seqs[0], seqs[99]]).toEqual([51, 150]);
  });

  test("headlines and names are cut to 300 characters", async () => {
    const { watch, stream } = await viewerWith();
    const tab = await stream();
    await tab.next(() => true);
    watch.emit({
      kind: "post",
      room: "plan",
      seq: 1,
      author: "a".repeat(400),
      at: "2026-12-05T00:00:01.000Z",
      headline: "h".repeat(5000),
      chars: 5000,
    });
    const post = (await tab.next((f) => f.event === "post")).data as { post: { author: string; headline: string } };
    expect([post.post.author.length, post.post.headline.length]).toEqual([300, 300]);
    expect(post.post.headline.endsWith("…")).toBe(true);
  });

  test("every tab is fed by the one broker watch", async () => {
    let opened = 0;
    const watch = fakeWatch();
    const listening: number[] = [];
    const onEvent = watch.onEvent.bind(watch);
    watch.onEvent = (listener) => {
      listening.push(1);
      return onEvent(listener);
    };
    const viewer = await startViewer({
      watch: () => {
        opened++;
        return Promise.resolve(watch);
      },
      timers: manualTimers(),
    });
    const tabs = await Promise.all([openStream(viewer), openStream(viewer), openStream(viewer)]);
    open.push({ viewer, streams: tabs });
    for (const tab of tabs) await tab.next(() => true);
    watch.post("plan", "critic", "to all");
    for (const tab of tabs) await tab.next((f) => f.event === "post");
    expect([opened, listening.length, viewer.stats().clients]).toEqual([1, 1, 3]);
  });

  test("more tabs than allowed: 503", async () => {
    const { viewer, stream } = await viewerWith(fakeWatch(), { maxClients: 2 });
    await (await stream()).next(() => true);
    await (await stream()).next(() => true);
    const third = await request(viewer, `/events?token=${viewer.token}`);
    expect([third.status, third.body]).toEqual([503, "too many tabs\n"]);
  });
});

describe("peek", () => {
  test("a bounded page of full texts, moving nothing; a limit over 50 is refused 400", async () => {
    const { viewer, watch } = await viewerWith();
    for (let i = 1; i <= 5; i++) watch.post("plan", "critic", `text ${i} <b>`);
    const page = await request(viewer, `/peek?token=${viewer.token}&room=plan&afterSeq=1&limit=2`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(page.body)).toEqual({
      room: "plan",
      more: true,
      messages: [
        { seq: 2, author: "critic", at: "2026-12-05T00:00:02.000Z", text: "text 2 <b>" },
        { seq: 3, author: "critic", at: "2026-12-05T00:00:03.000Z", text: "text 3 <b>" },
      ],
    });
    const over = await request(viewer, `/peek?token=${viewer.token}&room=plan&limit=51`);
    expect(over.status).toBe(400);
    const none = await request(viewer, `/peek?token=${viewer.token}`);
    expect(none.status).toBe(400);
  });
});

describe("the page's script", () => {
  test("puts no text in as HTML and evaluates no string", async () => {
    const { viewer } = await viewerWith();
    const script = (await request(viewer, `/assets/viewer.js?token=${viewer.token}`)).body;
    expect(script).toContain("textContent");
    expect(script.match(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/g)).toBeNull();
  });
});

describe("posting from the page", () => {
  function stubPoster(fail?: Error) {
    const calls: string[] = [];
    return {
      calls,
      poster: {
        role: "human",
        join: (room: string) => {
          calls.push(`join ${room}`);
          return Promise.resolve({ room, created: false, newestSeq: 0, members: [] }) as never;
        },
        post: (room: string, text: string, options?: { headline?: string }) => {
          calls.push(`post ${room} ${text} ${options?.headline ?? "-"}`);
          return (fail === undefined ? Promise.resolve({ seq: 7 }) : Promise.reject(fail)) as never;
        },
      },
    };
  }

  async function post(viewer: Viewer, body: string, type = "application/json") {
    return request(viewer, `/post?token=${viewer.token}`, {
      method: "POST",
      headers: { origin: `http://127.0.0.1:${portOf(viewer)}`, "content-type": type },
      body,
    });
  }

  test("joins, then posts as the poster's role; the view says who posts", async () => {
    const { poster, calls } = stubPoster();
    const { viewer, stream } = await viewerWith(fakeWatch(), { poster });
    const view = (await (await stream()).next(() => true)).data as { postAs: string };
    expect(view.postAs).toBe("human");
    const answer = await post(viewer, JSON.stringify({ room: "plan", text: "hello", headline: "hi" }));
    expect([answer.status, answer.body]).toEqual([200, '{"seq":7}']);
    expect(calls).toEqual(["join plan", "post plan hello hi"]);
  });

  test("refusals: 415 not JSON typed, 400 not JSON or the wrong shape, 413 too large, 502 the broker refused", async () => {
    const { poster, calls } = stubPoster();
    const { viewer } = await viewerWith(fakeWatch(), { poster });
    expect((await post(viewer, "room=plan", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await post(viewer, "{nope")).status).toBe(400);
    expect((await post(viewer, JSON.stringify({ room: "plan", text: "" }))).status).toBe(400);
    expect((await post(viewer, JSON.stringify({ room: "plan", text: "a", extra: 1 }))).status).toBe(400);
    expect((await post(viewer, JSON.stringify({ room: "plan", text: "a".repeat(200_000) }))).status).toBe(413);
    expect(calls).toEqual([]);
    const failing = stubPoster(new Error("Not a member"));
    const second = await viewerWith(fakeWatch(), { poster: failing.poster });
    const refused = await post(second.viewer, JSON.stringify({ room: "plan", text: "hello" }));
    expect([refused.status, refused.body]).toEqual([502, '{"error":"Not a member"}']);
  });
});

describe("what the watch says", () => {
  test("members and room events reach every tab, a room's held size becoming a chart point", async () => {
    const { watch, stream } = await viewerWith(fakeWatch(), { now: () => 5_000 });
    const tab = await stream();
    await tab.next(() => true);
    watch.emit({ kind: "members", room: "plan", members: [{ role: "critic", unread: 3 }] });
    watch.emit({ kind: "room", room: "plan", held: { messages: 3, chars: 90 }, lastSeq: 3 });
    expect((await tab.next((f) => f.event === "members")).data).toEqual({
      kind: "members",
      room: "plan",
      members: [{ role: "critic", unread: 3 }],
    });
    expect((await tab.next((f) => f.event === "room")).data).toEqual({
      kind: "room",
      room: "plan",
      held: { messages: 3, chars: 90 },
      lastSeq: 3,
      point: { at: 5_000, role: null, chars: 90 },
    });
  });

  test("a reset takes the snapshot again; one that fails is shown as the view closed", async () => {
    const watch = fakeWatch();
    const { viewer, stream } = await viewerWith(watch);
    const tab = await stream();
    await tab.next(() => true);
    watch.resnapshot = () => Promise.reject(new Error("store unavailable"));
    watch.emit({ kind: "reset", room: "plan" });
    const view = (await tab.next((f) => f.event === "view", 1)).data as { closed: string };
    expect(view.closed).toBe("could not take the broker's rooms again: store unavailable");
    expect(viewer.stats().resnapshots).toBe(1);
  });

  test("rooms past 200 are counted, not followed", async () => {
    const rooms = Array.from({ length: 203 }, (_, i) => ({
      room: `r${i}`,
      lastSeq: 0,
      held: { messages: 0, chars: 0 },
      members: [],
      served: [],
      recent: [],
    }));
    const { watch, stream } = await viewerWith(fakeWatch(fakeSnapshot(rooms)));
    const tab = await stream();
    const view = (await tab.next(() => true)).data as { rooms: unknown[]; roomsLeftOut: number };
    expect([view.rooms.length, view.roomsLeftOut]).toEqual([200, 3]);
    watch.post("r202", "critic", "unseen");
    watch.post("r0", "critic", "seen");
    expect(((await tab.next((f) => f.event === "post")).data as { room: string }).room).toBe("r0");
  });

  test("a peek the broker refuses: 502 with its message", async () => {
    const watch = fakeWatch();
    watch.peek = () => Promise.reject(new Error("Not a watcher"));
    const { viewer } = await viewerWith(watch);
    const answer = await request(viewer, `/peek?token=${viewer.token}&room=plan`);
    expect([answer.status, answer.body]).toEqual([502, '{"error":"Not a watcher"}']);
  });

  test("a port in use: the listen error, and the watch opened for it closed", async () => {
    const { viewer } = await viewerWith();
    const watch = fakeWatch();
    await expect(startViewer({ watch: () => Promise.resolve(watch), port: portOf(viewer) })).rejects.toMatchObject({
      code: "EADDRINUSE",
    });
    expect(watch.closed).toBe(true);
  });
});
