// Writes docs/protocol.md from the schemas: `pnpm --filter @orphus/roundtable-protocol generate-doc`.
// test/doc.test.ts fails whenever the committed file differs from what this writes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROTOCOL_DOC_PATH, renderProtocolDoc } from "../src/doc.js";

const target = join(import.meta.dirname, "..", "..", "..", PROTOCOL_DOC_PATH);
writeFileSync(target, renderProtocolDoc());
process.stdout.write(`wrote ${PROTOCOL_DOC_PATH}\n`);
