// The benchmark's viewer, in its own process as `roundtable view` runs: one broker watch on the socket given as the
// first argument, served to ten tabs that read their event streams as a browser does. Prints "ready" once every tab
// has its first view; runs until killed.
import { request } from "node:http";
import { watchBroker } from "@orphus/roundtable-client";
import { startViewer } from "@orphus/roundtable-viewer";

const socketPath = process.argv[2] as string;
const tabs = Number(process.argv[3] ?? "10");
const viewer = await startViewer({ watch: () => watchBroker({ socketPath, startBroker: false }) });
const { port } = new URL(viewer.url);
let ready = 0;
for (let i = 0; i < tabs; i++) {
  request({ host: "127.0.0.1", port, path: `/events?token=${viewer.token}` }, (response) => {
    let first = true;
    response.on("data", () => {
      if (first && ++ready === tabs) process.stdout.write("ready\n");
      first = false;
    });
  }).end();
}
process.once("SIGTERM", () => void viewer.close().then(() => process.exit(0)));
