// `pnpm bench:report`: regenerates BENCHMARKS.md and its charts (benchmarks/charts/) from the benchmark record,
// benchmarks/record.jsonl, without running anything: after a change to how the page is made, or to the record.
import { join } from "node:path";
import { BENCHMARKS_DOC_PATH, CHARTS_DIR, writeBenchmarksDoc } from "./lib/bench-doc.js";

const doc = writeBenchmarksDoc(join(import.meta.dirname, ".."));
process.stdout.write(`bench:report: wrote ${BENCHMARKS_DOC_PATH} and ${doc.charts.size} charts in ${CHARTS_DIR}/\n`);
