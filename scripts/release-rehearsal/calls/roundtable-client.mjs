// Import-and-call check of @orphus/roundtable-client as installed from the registry: the first call finds no
// broker and starts the one from the installed @orphus/roundtable-broker; one role posts, another reads the digest;
// both close and the broker exits once idle. Prints one line; throws otherwise.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRoundtableClient } from "@orphus/roundtable-client";

const agentDir = mkdtempSync(join(tmpdir(), "rt-rehearsal-"));
const options = { agentDir, brokerIdleMs: 300, onWarning: () => undefined };
const writer = createRoundtableClient({ ...options, role: "planner" });
const reader = createRoundtableClient({ ...options, role: "critic" });
let brokerPid;
try {
  brokerPid = (await writer.connect()).brokerPid;
  await writer.join("release");
  await reader.join("release");
  await writer.post("release", "Published from the rehearsal registry.");
  const { text } = await reader.digest("release");
  assert.ok(text.includes("Published from the rehearsal registry."), `digest was ${JSON.stringify(text)}`);
} finally {
  writer.close();
  reader.close();
}
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const deadline = Date.now() + 10_000;
while (brokerPid !== undefined && alive(brokerPid) && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 50));
const exited = brokerPid === undefined || !alive(brokerPid);
if (!exited) process.kill(brokerPid, "SIGKILL");
rmSync(agentDir, { recursive: true, force: true });
assert.ok(exited, `the broker (pid ${brokerPid}) did not exit once idle`);
console.log(
  `roundtable-client: spawned the installed broker (pid ${brokerPid}), posted, read the digest; the broker exited once idle`,
);
