// Writes corpus/deliberation.json: the fixed deliberation the digest benchmark spends budgets on. Run once (and
// again only on purpose): `npx tsx packages/digest/bench/make-corpus.ts`. The output is checked in, so the figures
// never depend on this generator's behaviour, only on the file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "../../../bench-support/stats.js";

const random = seededRandom(13);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const WORDS = (
  "ring cursor seq digest budget headline marker evict fetch room broker socket frame client join post read " +
  "the a of to and is in that it for on with as must never always should bound context agent message restart " +
  "test case fails passes because after before when then we they this plan review change keep drop"
).split(" ");
const AUTHORS = ["planner", "critic", "reviewer", "implementer", "tester"];

function sentence(): string {
  const words = Array.from({ length: 5 + Math.floor(random() * 14) }, () => pick(WORDS));
  const text = words.join(" ");
  return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
}

function prose(chars: number): string {
  const paragraphs: string[] = [];
  let total = 0;
  while (total < chars) {
    const paragraph = Array.from({ length: 1 + Math.floor(random() * 4) }, sentence).join(" ");
    paragraphs.push(paragraph);
    total += paragraph.length + 2;
  }
  return paragraphs.join("\n\n").slice(0, chars);
}

function list(chars: number): string {
  const lines = [`${sentence()}`];
  let total = lines[0]?.length ?? 0;
  for (let i = 1; total < chars; i++) {
    const line = `${i}. ${sentence()}`;
    lines.push(line);
    total += line.length + 1;
  }
  return lines.join("\n").slice(0, chars);
}

function log(chars: number): string {
  const lines = ["\x1b[1mRUN\x1b[0m v4.1.12 /work/repo"];
  let total = 0;
  for (let i = 0; total < chars; i++) {
    const ok = random() > 0.05;
    const line = `${ok ? "\x1b[32m✓\x1b[39m" : "\x1b[31m×\x1b[39m"} test/${pick(WORDS)}.test.ts > ${sentence()} ${Math.floor(random() * 900)}ms`;
    lines.push(line);
    total += line.length + 1;
  }
  return lines.join("\n").slice(0, chars);
}

function size(): number {
  const r = random();
  if (r < 0.6) return 40 + Math.floor(random() * 360);
  if (r < 0.85) return 400 + Math.floor(random() * 1600);
  if (r < 0.97) return 2000 + Math.floor(random() * 6000);
  return 20_000 + Math.floor(random() * 10_000);
}

const messages = Array.from({ length: 150 }, (_, i) => {
  const chars = size();
  const kind = random();
  const body = kind < 0.6 ? prose(chars) : kind < 0.85 ? list(chars) : log(chars);
  const headline = random() < 0.25 ? sentence().slice(0, 80) : undefined;
  return { seq: i + 1, author: pick(AUTHORS), body, ...(headline === undefined ? {} : { headline }) };
});
writeFileSync(join(import.meta.dirname, "corpus", "deliberation.json"), `${JSON.stringify(messages, null, 1)}\n`);
const total = messages.reduce((sum, m) => sum + m.body.length, 0);
process.stdout.write(`wrote ${messages.length} messages, ${total} characters of bodies\n`);
