// The throwaway registry of `pnpm release:rehearse`: Verdaccio on 127.0.0.1 and a port the system picks (so two
// rehearsals never collide), with storage and users in the folder given as the only argument, no uplink (packages
// of others come from the public registry through the consumer's own configuration), and publishing open to any
// registered user. Prints "listening <port>" once it accepts connections; SIGTERM closes it.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { runServer } from "verdaccio";

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write("usage: node serve.mjs <storage-folder>\n");
  process.exit(2);
}
mkdirSync(join(dir, "storage"), { recursive: true });
const server = await runServer({
  self_path: join(dir, "config.yaml"),
  storage: join(dir, "storage"),
  auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 10 } },
  uplinks: {},
  packages: { "**": { access: "$all", publish: "$authenticated", unpublish: "$authenticated" } },
  log: { type: "stdout", format: "pretty", level: "warn" },
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
const close = () => server.close(() => process.exit(0));
process.on("SIGTERM", close);
process.on("SIGINT", close);
