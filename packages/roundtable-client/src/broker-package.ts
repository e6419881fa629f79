import { createRequire } from "node:module";
import { dirname } from "node:path";
import { ClientOptionError } from "./errors.js";

/**
 * The folder of the `@orphus/roundtable-broker` this client depends on, where the bin it spawns lives. Found by
 * resolving the package's manifest, a file: importing the package would load the whole server into every session,
 * which only needs to start the bin. Throws ClientOptionError when the package cannot be found from here (a client
 * bundled away from its dependencies), since a `brokerCommand` must then be given.
 */
export function brokerPackageRoot(): string {
  try {
    return dirname(createRequire(import.meta.url).resolve("@orphus/roundtable-broker/package.json"));
  } catch (cause) {
    throw new ClientOptionError(
      "brokerCommand",
      "a command, since @orphus/roundtable-broker cannot be found from the client to run its bin",
      undefined,
      { cause },
    );
  }
}
