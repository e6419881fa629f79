import { chmodSync, linkSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";

/**
 * Leaves a socket file nobody listens on at `socketPath`, as a broker killed with SIGKILL does: bind a private name
 * beside it, make it user-only as a broker does, hard-link that into place, close (libuv unlinks only the name it bound).
 */
export async function staleSocket(socketPath: string): Promise<void> {
  mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
  const server = createServer();
  const temporary = `${socketPath}.old`;
  await new Promise<void>((resolve) => server.listen(temporary, resolve));
  chmodSync(temporary, 0o600);
  linkSync(temporary, socketPath);
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
