// What the `roundtable` CLI prints passes the one sanitiser, whatever reaches it: room names (the wire carries any
// up to 128 characters), message bodies, a broker's version and refusal texts, and names typed on the command line.
// A real Unix-socket server plays a broker of another build, answering with hostile text a real broker never sends.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { sanitizeText } from "@orphus/digest";
import { REGISTRY_DIR_ENV } from "@orphus/roundtable-locator";
import { HOSTILE_BODY, HOSTILE_BODY_LINES, expectShowable } from "../../../test-support/hostile-text.js";
import { CLI_EXIT, runCli, type CliIo } from "@orphus/roundtable-cli";
import { startFramedServer, type FramedServer } from "../../../test-support/framed-server.js";
import { shortTempDir } from "../../../test-support/tmp.js";

const ROOMS = ["design", "de\u206Aprecated", "red\u001b[31m", "x\u200b", "refusing"];

function reply(request: Record<string, unknown>, result: unknown): unknown {
  return { id: request["id"], ok: true, op: request["op"], result };
}

/** A broker of another build: its names, bodies and refusals carry what a hostile peer would write. */
function hostileBroker(request: Record<string, unknown>): unknown {
  switch (request["op"]) {
    case "hello":
      return reply(request, {
        protocol: "orphus-roundtable",
        version: 2,
        role: request["role"],
        brokerPid: 7,
        brokerVersion: "9",
        store: "memory",
      });
    case "status":
      return reply(request, {
        pid: 7,
        uptimeMs: 1000,
        version: "0.1\u202E\u001b[2J",
        protocol: "orphus-roundtable\u200b",
        protocolVersion: 2,
        rooms: ROOMS.length,
        connections: 2,
        socketPath: "/x",
        pingsDropped: 0,
        store: "redis://orphus:***@re\u202Edis\u001b[2J:6379/0",
        storeAvailable: false,
      });
    case "rooms":
      return reply(request, { rooms: ROOMS.map((room) => ({ room, members: 1, newestSeq: 4, joined: false })) });
    case "join":
      return reply(request, { room: request["room"], created: false, members: ["human"], newestSeq: 4, unread: 0 });
    case "fetch":
      if (request["room"] === "refusing") {
        const message = `refused: ${HOSTILE_BODY} ${"w".repeat(900)}`;
        return { id: request["id"], ok: false, op: "fetch", error: { code: "ERR_INVALID_REQUEST", message } };
      }
      return reply(request, {
        room: request["room"],
        messages: [{ seq: 3, author: "planner", body: HOSTILE_BODY, postedAt: 0 }],
        newestSeq: 3,
        more: false,
        nextAfterSeq: 3,
        maxChars: 8000,
      });
    default:
      return undefined;
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hostileAgentDir(): Promise<string> {
  const temp = shortTempDir();
  cleanups.push(() => temp.remove());
  mkdirSync(join(temp.dir, "roundtable"), { mode: 0o700 });
  const server: FramedServer = await startFramedServer(
    temp.dir,
    hostileBroker,
    join(temp.dir, "roundtable", "broker.sock"),
  );
  cleanups.push(() => server.close());
  return temp.dir;
}

async function cli(agentDir: string, argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIo = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    env: { ORPHUS_CODING_AGENT_DIR: agentDir },
  };
  const code = await runCli(argv, io);
  for (const text of [out, err]) {
    expectShowable(text);
    expect(sanitizeText(text)).toBe(text);
  }
  return { code, out, err };
}

test("rooms and status: room names, the broker's version and its store escaped", async () => {
  const dir = await hostileAgentDir();
  expect(await cli(dir, ["rooms"])).toEqual({
    code: CLI_EXIT.ok,
    out:
      "design              1 member  4 messages\n" +
      "de\\u{206A}precated  1 member  4 messages\n" +
      "red\\u{1B}\\u{5B}31m  1 member  4 messages\n" +
      "x\\u{200B}           1 member  4 messages\n" +
      "refusing            1 member  4 messages\n",
    err: "",
  });
  const status = await cli(dir, ["status"]);
  expect(status.out).toContain("version   0.1\\u{202E}\\u{1B}\\u{5B}2J (orphus-roundtable\\u{200B} v2)\n");
  expect(status.out).toContain(
    "store     redis://orphus:***@re\\u{202E}dis\\u{1B}[2J:6379/0 (shared by the brokers on it); unavailable: " +
      "requests fail until it answers\n",
  );
});

test("fetch: bodies sanitised and indented; a room typed on the command line and a refusal made safe", async () => {
  const dir = await hostileAgentDir();
  const page = await cli(dir, ["fetch", "design"]);
  expect(page.code).toBe(CLI_EXIT.ok);
  expect(page.out).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d #3 planner: ${HOSTILE_BODY_LINES.join("\n    ")}\n$`));
  // A room typed on the command line is checked before anything connects, and shown escaped in the refusal.
  const typed = await cli(dir, ["fetch", "plan\u200bner\u001b]0;x\u0007"]);
  expect(typed.code).toBe(CLI_EXIT.usage);
  expect(typed.err).toBe(
    'roundtable: "plan\\u{200B}ner\\u{1B}\\u{5D}0;x\\u{7}" is not a room name: a room name is lower-case letters, ' +
      "digits, '.', '_' or '-', starting with a letter or digit (^[a-z0-9][a-z0-9._-]{0,63}$)\n" +
      "(roundtable --help shows the usage)\n",
  );
  const missing = await cli(dir, ["fetch", "nowhere"]);
  expect(missing.code).toBe(CLI_EXIT.failed);
  expect(missing.err).toBe(
    'roundtable: no room "nowhere" on this broker ' +
      "(rooms: design, de\\u{206A}precated, red\\u{1B}\\u{5B}31m, x\\u{200B}, refusing)\n",
  );
  const refused = await cli(dir, ["fetch", "refusing"]);
  expect(refused.code).toBe(CLI_EXIT.failed);
  expect(refused.err.startsWith(`roundtable: refused: ${HOSTILE_BODY_LINES.join("\n")} www`)).toBe(true);
  expect(refused.err.length).toBeLessThanOrEqual("roundtable: ".length + 2500 + 1);
});

test("doctor: a path and a role name holding invisible characters are shown escaped, never as lookalikes", async () => {
  const temp = shortTempDir();
  cleanups.push(() => temp.remove());
  const dir = join(temp.dir, "age\u200bnt");
  let out = "";
  const io: CliIo = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: () => undefined },
    env: {
      ORPHUS_CODING_AGENT_DIR: dir,
      [REGISTRY_DIR_ENV]: join(temp.dir, "registry"),
      ORPHUS_ROUNDTABLE_ROLE: "plan\u200bner",
    },
  };
  expect(await runCli(["doctor"], io)).toBe(1);
  const shownDir = `${temp.dir}/age\\u{200B}nt`;
  expect(out.split("\n")[0]).toBe(`roundtable doctor: agent directory ${shownDir} (ORPHUS_CODING_AGENT_DIR)`);
  expect(out).toContain(`no broker directory yet (${shownDir}/roundtable)`);
  expect(out).toContain(
    'problem [ephemeral-role]: the configured role "plan\\u{200B}ner" (ORPHUS_ROUNDTABLE_ROLE) is not a role name',
  );
  expectShowable(out);
});
