import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base.js";

// The in-memory fakes are a subpath of their own, `@orphus/orkeon-crew/testing`: test doubles are no part of the
// adapter a runtime loads.
export default defineConfig(libraryBuild({ subpaths: { testing: "src/testing.ts" } }));
