// Import-and-call check of @orphus/roundtable-cli as installed from the registry: `roundtable post` starts the
// installed broker and posts; a bad room is refused with exit 2 before anything starts; the doctor, run once the
// broker has left, finds no problem in a shell without a role (a hint, exit 0) and opens the memory store through the
// installed @orphus/memory. Prints one line; throws otherwise.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "@orphus/roundtable-cli";

const agentDir = mkdtempSync(join(tmpdir(), "rt-cli-rehearsal-"));
// A registry of its own, so brokers of the other checks running meanwhile are no split fleet here.
const registryDir = join(agentDir, "registry");
const env = { ...process.env, ORPHUS_CODING_AGENT_DIR: agentDir, ORPHUS_ROUNDTABLE_REGISTRY_DIR: registryDir };
delete env.ORPHUS_ROUNDTABLE_ROLE;
delete env.ORPHUS_MEMORY_DIR;

async function cli(argv) {
  let out = "";
  let err = "";
  const io = {
    stdout: { write: (text) => (out += text) },
    stderr: { write: (text) => (err += text) },
    env,
    clientOptions: { brokerIdleMs: 300 },
  };
  return { code: await runCli(argv, io), out, err };
}

try {
  const posted = await cli(["post", "release", "Published from the rehearsal registry."]);
  assert.deepEqual(posted, {
    code: 0,
    out: 'Posted #1 to "release" as human.\n(The room is new and nobody else is in it; a broker keeps rooms only while sessions are connected.)\n',
    err: "",
  });
  const refused = await cli(["post", "Bad Room", "hi"]);
  assert.equal(refused.code, 2, refused.err);
  assert.match(
    refused.err,
    /^roundtable: "Bad\\u\{20\}Room" is not a room name: .*\n\(roundtable --help shows the usage\)\n$/,
  );

  // The broker leaves once idle and takes its registry entry with it.
  const deadline = Date.now() + 10_000;
  while (existsSync(registryDir) && readdirSync(registryDir).length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(readdirSync(registryDir), [], "the broker did not leave once idle");
  const doctor = await cli(["doctor"]);
  assert.equal(doctor.code, 0, doctor.out + doctor.err);
  assert.match(doctor.out, /\n {2}hint \[no-role\]: no role name is configured here/);
  assert.match(doctor.out, /memory store .*memory\.db \(from ORPHUS_CODING_AGENT_DIR\): none yet/);
  assert.match(doctor.out, /\nNo problem found; 1 hint above\.\n$/);
} finally {
  rmSync(agentDir, { recursive: true, force: true });
}
console.log(
  "roundtable-cli: roundtable post started the installed broker and posted; a bad room exited 2 first; " +
    "the doctor found no problem (one hint) and opened the memory store",
);
