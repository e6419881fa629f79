// A librarian whose first ingest is creating the store when the test kills it: `creating-driver <dir>`. The store's
// migrations get one more step that never ends, so the process is still building `.memory.db.<pid>-<hex>.creating`
// (not yet linked into place) whenever the test finds that file and kills it.
import { openMemory } from "@orphus/memory";
import { MIGRATIONS } from "../../src/store/schema.js";

const dir = process.argv[2] ?? "";
const endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n";
const version = (MIGRATIONS.at(-1)?.version ?? 0) + 1;
const store = openMemory({
  dir,
  role: "librarian",
  env: {},
  migrations: [...MIGRATIONS, { version, statements: [endless] }],
});
store.ingestTexts([{ title: "never", body: "never stored" }]);
