// The broker of the fan-out benchmarks: the bin's code (startBroker, bundled the way the bin is), with the member
// limit raised so one room holds an author and 32 listeners (the default is 32 members), and the connection limit
// raised so the scaling series can hold 256 idle connections beside its members. Started as
// `node broker-entry.js <agentDir>`; it exits on SIGTERM. Spawned with an IPC channel (the scaling series, through
// support.ts's cpuMicros), it answers each message with its CPU time so far.
import { startBroker } from "@orphus/roundtable-broker";

const agentDir = process.argv[2] ?? "";
const start = await startBroker({
  agentDir,
  ownsProcess: true,
  idleMs: 600_000,
  maxMembers: 64,
  maxConnections: 512,
  registryDir: false,
});
if (start.status !== "listening") process.exit(1);
process.once("SIGTERM", () => void start.broker.close());
process.on("message", () => process.send?.(process.cpuUsage()));
