// Another user: as root (CI runs as root), a process switched to an unprivileged uid cannot connect to the broker's
// socket or read its directory or the registry, while the same probe as the owner can. Two layers are shown apart:
// the directory (0700) alone keeps others out, and with it opened to traversal (0711) the socket (0600) still does.
// Not root: the scenario cannot switch users, says why, and is skipped.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { readBrokerRegistry, resolveRegistryDir } from "@orphus/roundtable-locator";
import { report, spawnBroker, useHarness } from "../../../../test-support/reliability/harness.js";
import { tempDir } from "../../../../test-support/tmp.js";

const harness = useHarness();

/** The unprivileged identity: nobody/nogroup. */
const NOBODY = 65534;

/** What a process may do to the broker's files: each an errno code, or "ok" / "connected". */
const PROBE = `
const net = require("node:net");
const fs = require("node:fs");
const [socketPath, dir, registry] = process.argv.slice(1);
const seen = { uid: process.getuid() };
const attempt = (name, action) => {
  try { action(); seen[name] = "ok"; } catch (error) { seen[name] = error.code; }
};
attempt("listDirectory", () => fs.readdirSync(dir));
attempt("readPidFile", () => fs.readFileSync(dir + "/broker.pid"));
attempt("readLog", () => fs.readFileSync(dir + "/broker.log"));
attempt("listRegistry", () => fs.readdirSync(registry));
const socket = net.connect(socketPath);
const done = (result) => { seen.connect = result; socket.destroy(); console.log(JSON.stringify(seen)); };
socket.on("connect", () => done("connected"));
socket.on("error", (error) => done(error.code));
`;

/** Runs the probe as `as` ("owner", or nobody through setpriv or runuser) and returns what it saw. */
function probe(
  as: "owner" | "setpriv" | "runuser",
  socketPath: string,
  dir: string,
  registry: string,
): Record<string, unknown> {
  const node = ["-e", PROBE, socketPath, dir, registry];
  const [command, args] =
    as === "owner"
      ? [process.execPath, node]
      : as === "setpriv"
        ? ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", process.execPath, ...node]]
        : ["runuser", ["-u", "nobody", "--", process.execPath, ...node]];
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 15_000, cwd: "/" });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as Record<string, unknown>;
}

test("another user can neither connect to the socket nor read the broker's directory or the registry", (context) => {
  if (process.getuid?.() !== 0) {
    process.stdout.write(
      "[reliability] another user: skipped, this process is not root and cannot switch to another uid " +
        `(uid ${process.getuid?.() ?? "unknown"}); CI runs as root\n`,
    );
    context.skip();
  }
  return (async () => {
    const bundles = harness.bundles();
    const agentDir = tempDir();
    // Open the agent directory itself, so only the broker's own permissions stand between others and the broker.
    chmodSync(agentDir, 0o755);
    const broker = await spawnBroker(bundles, agentDir, ["--idle-ms", "60000"]);
    const dir = join(agentDir, "roundtable");
    // The registry is a directory of its own under the (world-traversable) temporary directory.
    const registry = resolveRegistryDir();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(broker.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(registry).mode & 0o777).toBe(0o700);
    const entry = readBrokerRegistry(registry).entries.find((e) => e.pid === broker.pid);
    expect(entry !== undefined && (statSync(entry.file).mode & 0o777) === 0o600).toBe(true);

    // The owner: everything works, so a refusal below is the permissions' doing, not the probe's.
    expect(probe("owner", broker.socketPath, dir, registry)).toEqual({
      uid: 0,
      listDirectory: "ok",
      readPidFile: "ok",
      readLog: "ok",
      listRegistry: "ok",
      connect: "connected",
    });
    const refused = {
      uid: NOBODY,
      listDirectory: "EACCES",
      readPidFile: "EACCES",
      readLog: "EACCES",
      listRegistry: "EACCES",
      connect: "EACCES",
    };
    const switchers = (["setpriv", "runuser"] as const).filter((tool) =>
      ["/usr/bin", "/usr/sbin", "/bin", "/sbin"].some((bin) => existsSync(join(bin, tool))),
    );
    expect(switchers.length).toBeGreaterThan(0);
    for (const as of switchers) expect(probe(as, broker.socketPath, dir, registry)).toEqual(refused);

    // Second layer: with the directory traversable by others, the socket's own 0600 still refuses them.
    chmodSync(dir, 0o711);
    let throughSocket: Record<string, unknown>;
    try {
      throughSocket = probe(switchers[0] as "setpriv", broker.socketPath, dir, registry);
    } finally {
      chmodSync(dir, 0o700);
    }
    expect(throughSocket).toMatchObject({
      uid: NOBODY,
      listDirectory: "EACCES",
      readPidFile: "EACCES",
      connect: "EACCES",
    });
    expect(broker.child.exitCode).toBeNull();
    report("another user", {
      as: `uid ${NOBODY} via ${switchers.join(" and ")}`,
      connect: "EACCES",
      listDirectory: "EACCES",
      readPidAndLog: "EACCES",
      listRegistry: "EACCES",
      socketAloneWithDirectory0711: `connect ${String(throughSocket["connect"])}`,
      ownerControl: "connected",
    });
  })();
});
