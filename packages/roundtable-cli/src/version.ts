import manifest from "../package.json" with { type: "json" };

/** This package's version, printed by `roundtable --version`. Inlined at build time, so the bin needs no file lookup. */
export const CLI_VERSION: string = manifest.version;
