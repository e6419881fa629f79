import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base.js";

export default defineConfig(libraryBuild({ bins: { "bin/orphus-memory": "src/bin/orphus-memory.ts" } }));
