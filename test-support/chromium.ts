// The Chromium the browser tests drive: $ORPHUS_CHROMIUM, else `chromium` (Debian's package) or `chromium-browser`
// on the PATH. Missing, it is an error that says how to install one, never a skipped suite.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The variable naming a Chromium executable to use instead of the one on the PATH. */
export const CHROMIUM_ENV = "ORPHUS_CHROMIUM";

/** The Chromium executable, or throws saying how to get one. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[CHROMIUM_ENV];
  if (given !== undefined && given !== "") return given;
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    for (const name of ["chromium", "chromium-browser"]) {
      const path = join(dir, name);
      try {
        accessSync(path, constants.X_OK);
        return path;
      } catch {
        // not here
      }
    }
  }
  throw new Error(
    `no Chromium found: the browser tests need one (Debian: apt-get install chromium), on the PATH as chromium or ` +
      `chromium-browser, or named by ${CHROMIUM_ENV}`,
  );
}
