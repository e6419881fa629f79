// The benchmark's bare watcher, in its own process: one broker watch on the socket given as the first argument, its
// events heard and dropped, no viewer. The broker's side of watching, without what the viewer and its tabs add.
// Prints "ready" once watching; runs until killed.
import { watchBroker } from "@orphus/roundtable-client";

const watch = await watchBroker({ socketPath: process.argv[2] as string, startBroker: false });
watch.onEvent(() => undefined);
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  watch.close();
  process.exit(0);
});
