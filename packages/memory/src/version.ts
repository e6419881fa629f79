import manifest from "../package.json" with { type: "json" };

/** This package's version, printed by `orphus-memory --version`. Inlined at build time. */
export const MEMORY_VERSION: string = manifest.version;
