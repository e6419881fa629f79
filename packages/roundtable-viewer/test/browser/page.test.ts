// The viewer's page in a real Chromium (Debian's chromium, driven by playwright-core through its executable path):
// it loads with the token and is refused without it, a post appears within a second, hostile bodies and headlines
// show as text and run nothing, the chart has one series per role, and a screenshot is written.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { chromiumPath } from "../../../../test-support/chromium.js";
import { watchBroker } from "@orphus/roundtable-client";
import { startViewer, type Viewer } from "@orphus/roundtable-viewer";
import { useAgentDir } from "../../../../test-support/brokers.js";
import { fakeSnapshot, fakeWatch, type FakeWatch } from "../support/fake-watch.js";

/** Set to a path to write the screenshot there (the README's is packages/roundtable-viewer/docs/viewer.png). */
const SCREENSHOT_ENV = "ORPHUS_VIEWER_SCREENSHOT";

const agent = useAgentDir();
let browser: Browser;
let viewer: Viewer | undefined;
const temp = mkdtempSync(join(tmpdir(), "rtv-"));
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser.close();
  rmSync(temp, { recursive: true, force: true });
});
afterEach(async () => {
  await viewer?.close();
  viewer = undefined;
});

/** A page of the browser that records what would show a script ran or the policy refused something. */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, problems };
}

const ROOM = {
  room: "release-1.2",
  lastSeq: 0,
  held: { messages: 0, chars: 0 },
  members: [
    { role: "planner", unread: 0 },
    { role: "critic", unread: 2 },
    { role: "reviewer", unread: 5 },
  ],
  served: [],
  recent: [],
};

async function started(watch: FakeWatch, now?: () => number): Promise<Viewer> {
  viewer = await startViewer({ watch, ...(now === undefined ? {} : { now }) });
  return viewer;
}

test("the page loads with the token, and without it the answer is 403", async () => {
  const watch = fakeWatch(fakeSnapshot([ROOM]));
  const { url, token } = await started(watch);
  const refusedPage = await openPage();
  const refused = await refusedPage.page.goto(url.replace(`?token=${token}`, ""));
  expect(refused?.status()).toBe(403);
  expect(await refusedPage.page.textContent("body")).toBe("forbidden: token\n");
  // The refused page is closed before the next opens: the browser may still ask for its default favicon, without a
  // token, and that refusal's console line must not land among the loaded page's problems.
  await refusedPage.page.close();
  const { page, problems } = await openPage();
  const loaded = await page.goto(url);
  expect(loaded?.status()).toBe(200);
  await page.waitForSelector("#status.live");
  expect(await page.textContent("#broker")).toContain("4242");
  expect(await page.locator("#rooms .member").allTextContents()).toEqual([
    "planner · 0 unread",
    "critic · 2 unread",
    "reviewer · 5 unread",
  ]);
  expect(problems).toEqual([]);
  await page.close();
});

test("a post made by another client appears within a second", async () => {
  // The broker's own watch: a real broker, a member posting through an ordinary client.
  const critic = agent.client({ role: "critic" });
  await critic.join("release-1.2");
  viewer = await startViewer({
    watch: () => watchBroker({ agentDir: agent.dir(), brokerCommand: agent.brokerCommand() }),
  });
  const { page, problems } = await openPage();
  await page.goto(viewer.url);
  await page.waitForSelector("#status.live");
  await page.waitForSelector('#rooms li[data-room="release-1.2"]');
  const { seq } = await critic.post("release-1.2", "Ship it on Friday", { headline: "Ship Friday" });
  await page.waitForSelector(`#posts tr[data-seq="${seq}"]`, { timeout: 1000 });
  expect(await page.locator(`#posts tr[data-seq="${seq}"] td`).allTextContents()).toEqual([
    String(seq),
    "critic",
    expect.any(String),
    "Ship Friday",
    // The broker's size of a message: its body and its headline, 17 + 11 characters.
    "28",
  ]);
  await page.click(`#posts tr[data-seq="${seq}"]`);
  await expect.poll(() => page.textContent("#full-text")).toBe("Ship it on Friday");
  expect(problems).toEqual([]);
  await page.close();
});

test("bodies and headlines holding <script> or <img onerror> show as text and run nothing", async () => {
  const watch = fakeWatch(fakeSnapshot([ROOM]));
  const { url } = await started(watch);
  const { page, problems } = await openPage();
  await page.goto(url);
  await page.waitForSelector("#status.live");
  const script = "<script>window.__pwned = 'script'; alert(1)</script>";
  const image = `<img src=x onerror="window.__pwned = 'img'; alert(2)">`;
  const first = watch.post("release-1.2", "critic", `before ${script} after`, image);
  const second = watch.post("release-1.2", `<img src=x onerror="window.__pwned='author'">`, image, script);
  await page.waitForSelector(`#posts tr[data-seq="${second}"]`);
  expect(await page.textContent(`#posts tr[data-seq="${first}"] td:nth-child(4)`)).toBe(image);
  expect(await page.textContent(`#posts tr[data-seq="${second}"] td:nth-child(4)`)).toBe(script);
  await page.click(`#posts tr[data-seq="${first}"]`);
  await expect.poll(() => page.textContent("#full-text")).toMatch(/^before/);
  expect(await page.textContent("#full-text")).toBe(`before ${script} after`);
  await page.click(`#posts tr[data-seq="${second}"]`);
  await expect.poll(() => page.textContent("#full-text")).toMatch(/^<img/);
  expect(await page.textContent("#full-text")).toBe(image);
  expect(await page.evaluate(() => (globalThis as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(await page.locator("img, main script").count()).toBe(0);
  expect(problems).toEqual([]);
  await page.close();
});

test("the chart shows one series per role, beside what the room holds; a screenshot is written", async () => {
  const start = Date.now() - 24 * 60_000;
  let clock = start;
  const watch = fakeWatch(
    fakeSnapshot([ROOM, { ...ROOM, room: "triage", members: [{ role: "planner", unread: 1 }] }]),
    () => clock,
  );
  // The room's held size carries no time: the viewer stamps it with its clock, which follows the scene's.
  const { url } = await started(watch, () => clock);
  const { page, problems } = await openPage();
  await page.goto(url);
  await page.waitForSelector("#status.live");
  const totals = new Map([
    ["planner", { digestChars: 0, fetchChars: 0, pingChars: 0 }],
    ["critic", { digestChars: 0, fetchChars: 0, pingChars: 0 }],
    ["reviewer", { digestChars: 0, fetchChars: 0, pingChars: 0 }],
  ]);
  let held = 0;
  const lines = ["Plan: split the migration in two", "The second half needs a lock", "Agreed; lock by room"];
  for (let step = 0; step < 24; step++) {
    const role = ["planner", "critic", "reviewer"][step % 3] as string;
    const text = `${lines[step % 3]} (${step + 1})`;
    clock = start + step * 60_000;
    watch.post("release-1.2", role, `${text}\n\n${"Details follow. ".repeat(20 + step)}`, text);
    held += text.length + 2 + 16 * (20 + step);
    watch.emit({ kind: "room", room: "release-1.2", held: { messages: step + 1, chars: held }, lastSeq: step + 1 });
    for (const [name, counts] of totals) {
      if (name === role) continue;
      counts.pingChars += 40;
      if (step % 4 === 0) counts.digestChars += 600;
      if (name === "reviewer" && step % 6 === 5) counts.fetchChars += 1200;
      watch.emit({
        kind: "served",
        room: "release-1.2",
        at: new Date(start + step * 60_000).toISOString(),
        role: name,
        ...counts,
      });
    }
  }
  await page.waitForSelector('#posts tr[data-seq="24"]');
  await expect.poll(() => page.locator("#chart .u-legend .u-series").count()).toBe(5);
  const labels = await page.locator("#chart .u-legend .u-series .u-label").allTextContents();
  expect(labels.slice(1)).toEqual(["critic", "planner", "reviewer", "room holds"]);
  expect(await page.getAttribute("#chart", "data-roles")).toBe("3");
  await page.click('#posts tr[data-seq="23"]');
  await page.waitForSelector("#full:not([hidden])");
  const path = process.env[SCREENSHOT_ENV] ?? join(temp, "viewer.png");
  await page.screenshot({ path, fullPage: true });
  expect(readFileSync(path).subarray(1, 4).toString("latin1")).toBe("PNG");
  expect(problems).toEqual([]);
  await page.close();
});

test("older posts come on demand in a bounded page, never more than 100 live ones", async () => {
  const watch = fakeWatch(fakeSnapshot([ROOM]));
  const { url } = await started(watch);
  for (let i = 1; i <= 160; i++) watch.post("release-1.2", "critic", `message ${i}\nsecond line`);
  const { page, problems } = await openPage();
  await page.goto(url);
  await page.waitForSelector('#posts tr[data-seq="160"]');
  for (let i = 161; i <= 180; i++) watch.post("release-1.2", "critic", `message ${i}`);
  await page.waitForSelector('#posts tr[data-seq="180"]');
  expect(await page.locator("#posts tbody tr").count()).toBe(100);
  expect(await page.getAttribute("#posts tbody tr:first-child", "data-seq")).toBe("81");
  await page.click("#older");
  await page.waitForSelector("#older-posts:not([hidden])");
  const older: number[] = [];
  for (const row of await page.locator("#older-posts tbody tr").all())
    older.push(Number(await row.getAttribute("data-seq")));
  expect([older.length, older[0], older[older.length - 1]]).toEqual([50, 31, 80]);
  expect(await page.textContent('#older-posts tr[data-seq="31"] td:nth-child(4)')).toBe("message 31");
  expect(problems).toEqual([]);
  await page.close();
});
