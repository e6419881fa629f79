// The broker of the fan-out benchmarks: the bin's code (startBroker, bundled the way the bin is), with the member
// limit raised so one room holds an author and 32 listeners (the default is 32 members). Started as
// `node broker-entry.js <agentDir>`; it exits on SIGTERM.
import { startBroker } from "@orphus/roundtable-broker";

const agentDir = process.argv[2] ?? "";
const start = await startBroker({ agentDir, ownsProcess: true, idleMs: 600_000, maxMembers: 64, registryDir: false });
if (start.status !== "listening") process.exit(1);
process.once("SIGTERM", () => void start.broker.close());
