import manifest from "../package.json" with { type: "json" };

/** The name the server gives in its MCP `initialize` answer. */
export const MCP_SERVER_NAME = "orphus-roundtable";

/** This package's version, given in the `initialize` answer and by `--version`. Inlined at build time. */
export const MCP_SERVER_VERSION: string = manifest.version;
