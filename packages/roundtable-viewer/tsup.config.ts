import { cpSync } from "node:fs";
import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base.js";

// The page (HTML, script, styles) ships beside the module that serves it: src/assets/ is copied to dist/assets/.
export default defineConfig({
  ...libraryBuild(),
  onSuccess: () => {
    cpSync("src/assets", "dist/assets", { recursive: true });
    return Promise.resolve();
  },
});
