import manifest from "../package.json" with { type: "json" };

/** This package's version, reported by hello and status. Inlined at build time, so the bin needs no file lookup. */
export const BROKER_VERSION: string = manifest.version;
