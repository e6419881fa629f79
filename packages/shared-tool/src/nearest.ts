import { MAX_COMPARED_NAME_CHARS } from "./limits.js";

/** Case, `_`, `-` and spaces do not tell two argument names apart: `timeout_seconds` is `timeoutSeconds`. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[\s_-]/g, "");
}

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. Both are short argument names. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The known name closest to `name`: the same name spelled another way, else one containing it (or contained in it,
 * `timeout` → `timeoutSeconds`), else the fewest edits (`bugdet` → `budget`); ties go to the earlier known name.
 * Undefined when nothing is known. Reads at most 64 characters of `name` (MAX_COMPARED_NAME_CHARS).
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const wanted = normalise(name.slice(0, MAX_COMPARED_NAME_CHARS));
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const form = normalise(candidate);
    const contained = Math.min(form.length, wanted.length) >= 3 && (form.includes(wanted) || wanted.includes(form));
    const score = form === wanted ? 0 : contained ? 0.5 : editDistance(wanted, form);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
