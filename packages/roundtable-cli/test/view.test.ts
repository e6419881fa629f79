// `roundtable view`: its arguments, the URL it prints (token included), --open through the injected opener, the
// page posting as --post-as through an ordinary client of a real broker, and Ctrl-C ending it with 0.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { expect, test } from "vitest";
import { CLI_EXIT, browserCommand, parseCliArguments, runCli } from "@orphus/roundtable-cli";
import type { WatchBrokerOptions } from "@orphus/roundtable-client";
import type { BrokerWatch } from "@orphus/roundtable-viewer";
import { TEST_IDLE_MS, useAgentDir } from "../../../test-support/brokers.js";
import { tempDir } from "../../../test-support/tmp.js";
import { cliIo } from "./support/cli-io.js";

const agent = useAgentDir();

/** A watch of no rooms that records whether it was closed. */
function idleWatch(): BrokerWatch & { closed: boolean } {
  const watch = {
    closed: false,
    snapshot: {
      broker: { pid: 1, instance: "i", store: "memory", protocol: 3, startedAt: "2026-12-05T00:00:00.000Z" },
      rooms: [],
    },
    onEvent: () => () => undefined,
    onClose: () => () => undefined,
    resnapshot: () => Promise.resolve(watch.snapshot),
    peek: (room: string) => Promise.resolve({ room, messages: [], more: false }),
    close: () => {
      watch.closed = true;
    },
  };
  return watch;
}

function call(url: string, method = "GET", body?: string): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method,
        headers: body === undefined ? {} : { origin: target.origin, "content-type": "application/json" },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function printedUrl(out: () => string): Promise<string> {
  for (;;) {
    const url = /^roundtable view: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})$/m.exec(out())?.[1];
    if (url !== undefined) return url;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test("view's arguments: port, open and post-as; defaults any free port, no browser, read only", () => {
  expect(parseCliArguments(["view"])).toEqual({
    agentDir: undefined,
    action: { command: "view", port: 0, open: false, postAs: undefined },
  });
  expect(parseCliArguments(["view", "--port", "8123", "--open", "--post-as", "human"])).toEqual({
    agentDir: undefined,
    action: { command: "view", port: 8123, open: true, postAs: "human" },
  });
});

test("prints the URL with its token, opens it with the opener when asked, serves it, and Ctrl-C ends with 0", async () => {
  const watch = idleWatch();
  const opened: string[] = [];
  const stop = new AbortController();
  const io = cliIo(agent, {
    signal: stop.signal,
    openWatch: () => Promise.resolve(watch),
    openUrl: (url) => void opened.push(url),
  });
  const running = runCli(["view", "--open"], io);
  const url = await printedUrl(io.out);
  expect(io.out()).toBe(
    `roundtable view: ${url}\nServing on 127.0.0.1 only; the token in the URL is needed on every request. Read only. ` +
      "Ctrl-C stops it.\n",
  );
  expect(opened).toEqual([url]);
  expect((await call(url)).status).toBe(200);
  expect((await call(url.replace(/token=.*/, "token=0"))).status).toBe(403);
  stop.abort();
  expect(await running).toBe(CLI_EXIT.ok);
  expect(watch.closed).toBe(true);
  expect(io.err()).toBe("");
});

test("an opener that fails is said on stderr; the viewer still serves", async () => {
  const stop = new AbortController();
  const io = cliIo(agent, {
    signal: stop.signal,
    openWatch: () => Promise.resolve(idleWatch()),
    openUrl: () => {
      throw new Error("no display");
    },
  });
  const running = runCli(["view", "--open"], io);
  const url = await printedUrl(io.out);
  expect(io.err()).toBe("roundtable view: could not open a browser (no display); open the URL above\n");
  expect((await call(url)).status).toBe(200);
  stop.abort();
  expect(await running).toBe(CLI_EXIT.ok);
});

test("a watch that cannot be opened fails the command with 1", async () => {
  const io = cliIo(agent, { openWatch: () => Promise.reject(new Error("broker refused the watcher")) });
  expect(await runCli(["view"], io)).toBe(CLI_EXIT.failed);
  expect(io.err()).toBe("roundtable view: broker refused the watcher\n");
});

test("--post-as: the page posts through an ordinary client of that role, which a member then reads", async () => {
  const stop = new AbortController();
  const io = cliIo(agent, { signal: stop.signal, openWatch: () => Promise.resolve(idleWatch()) });
  const running = runCli(["view", "--post-as", "human"], io);
  const url = await printedUrl(io.out);
  expect(io.out()).toContain("The page posts as human.");
  const posted = await call(
    url.replace("/?", "/post?"),
    "POST",
    JSON.stringify({ room: "design", text: "from the page" }),
  );
  expect(posted).toEqual({ status: 200, body: '{"seq":1}' });
  const reader = agent.client({ role: "critic" });
  await reader.join("design");
  const page = await reader.fetch("design", { afterSeq: 0 });
  expect(page.messages.map((m) => [m.author, m.body])).toEqual([["human", "from the page"]]);
  stop.abort();
  expect(await running).toBe(CLI_EXIT.ok);
});

test("the browser command of each platform", () => {
  expect(browserCommand("http://127.0.0.1:1/?token=a&b", "linux")).toEqual([
    "xdg-open",
    ["http://127.0.0.1:1/?token=a&b"],
  ]);
  expect(browserCommand("http://127.0.0.1:1/?token=a", "darwin")).toEqual(["open", ["http://127.0.0.1:1/?token=a"]]);
  expect(browserCommand("http://127.0.0.1:1/?token=a&b", "win32")).toEqual([
    "cmd",
    ["/c", "start", '""', "http://127.0.0.1:1/?token=a^&b"],
  ]);
});

/** The frames of a viewer's event stream, as they come. */
function streamFrames(url: string): { frames: { event: string; data: unknown }[]; close: () => void } {
  const target = new URL(url);
  const frames: { event: string; data: unknown }[] = [];
  let pending = "";
  const req = request(new URL(`/events${target.search}`, target.origin), (response) => {
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      pending += chunk;
      let end;
      while ((end = pending.indexOf("\n\n")) !== -1) {
        const block = pending.slice(0, end);
        pending = pending.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined) frames.push({ event, data: JSON.parse(data) as unknown });
      }
    });
  });
  req.on("error", () => undefined);
  req.end();
  return { frames, close: () => req.destroy() };
}

async function until<T>(find: () => T | undefined): Promise<T> {
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test("with the broker's own watch: a member's post reaches the page; the viewer joins no room", async () => {
  const planner = agent.client({ role: "planner" });
  await planner.join("design");
  await planner.post("design", "first");
  const stop = new AbortController();
  const io = cliIo(agent, { signal: stop.signal });
  const running = runCli(["view"], io);
  const url = await printedUrl(io.out);
  const stream = streamFrames(url);
  const view = (await until(() => stream.frames.find((f) => f.event === "view"))).data as {
    rooms: { room: string; members: { role: string }[]; posts: { author: string; headline: string }[] }[];
  };
  expect(view.rooms.map((r) => [r.room, r.members.map((m) => m.role), r.posts.map((p) => p.headline)])).toEqual([
    ["design", ["planner"], ["first"]],
  ]);
  await planner.post("design", "second");
  const post = (await until(() => stream.frames.find((f) => f.event === "post"))).data as {
    post: { author: string; headline: string };
  };
  expect([post.post.author, post.post.headline]).toEqual(["planner", "second"]);
  const { rooms } = await planner.rooms();
  expect(rooms.map((r) => [r.room, r.members])).toEqual([["design", 1]]);
  stream.close();
  stop.abort();
  expect(await running).toBe(CLI_EXIT.ok);
});

test("the watch is opened with --agent-dir and the client's broker settings, and nothing left undefined", async () => {
  const dir = tempDir("rtv-");
  const given: WatchBrokerOptions[] = [];
  const stop = new AbortController();
  // No env in the io: the watch is given none either (it then reads the process's own).
  const io = cliIo(agent, {
    env: undefined,
    signal: stop.signal,
    openWatch: (options) => {
      given.push(options);
      return Promise.resolve(idleWatch());
    },
  });
  const running = runCli(["view", "--agent-dir", dir], io);
  // The viewer opens its watch on the first page that asks for events.
  const stream = streamFrames(await printedUrl(io.out));
  await until(() => (given.length > 0 ? true : undefined));
  stream.close();
  stop.abort();
  expect(await running).toBe(CLI_EXIT.ok);
  expect(Object.keys(given[0] ?? {}).sort()).toEqual(["agentDir", "brokerCommand", "brokerIdleMs"]);
  expect(given[0]).toMatchObject({ agentDir: dir, brokerIdleMs: TEST_IDLE_MS });
});

test.runIf(process.platform === "linux")(
  "--open without an opener runs the platform's xdg-open from PATH; a missing one is no failure",
  async () => {
    const bin = tempDir("rtv-");
    const savedPath = process.env["PATH"];
    const run = async (): Promise<{ code: number; url: string; err: string }> => {
      const stop = new AbortController();
      const io = cliIo(agent, { signal: stop.signal, openWatch: () => Promise.resolve(idleWatch()) });
      const running = runCli(["view", "--open"], io);
      const url = await printedUrl(io.out);
      const opened = join(bin, "opened");
      // The file appears (empty) before the script writes the URL into it: wait for the URL.
      if (existsSync(join(bin, "xdg-open"))) {
        await until(() => (existsSync(opened) && readFileSync(opened, "utf8") !== "" ? true : undefined));
      }
      stop.abort();
      return { code: await running, url, err: io.err() };
    };
    try {
      process.env["PATH"] = bin;
      // No xdg-open anywhere on PATH: the spawn's error is swallowed, the viewer served and stopped as ever.
      expect(await run()).toMatchObject({ code: CLI_EXIT.ok, err: "" });
      // PATH holds nothing else, so the script uses only the shell's builtins.
      writeFileSync(join(bin, "xdg-open"), '#!/bin/sh\nprintf %s "$1" > "${0%/*}/opened"\n', { mode: 0o755 });
      const { code, url, err } = await run();
      expect([code, err]).toEqual([CLI_EXIT.ok, ""]);
      expect(readFileSync(join(bin, "opened"), "utf8")).toBe(url);
    } finally {
      process.env["PATH"] = savedPath;
    }
  },
);
