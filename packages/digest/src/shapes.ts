// Why the digest keeps its newest working objects alive. V8 holds a hidden class (map) only weakly once no object has
// it, and optimized code that checks a map is thrown away when that map is collected. Every working object of a
// digest dies with the digest, so each full garbage collection threw the digest's optimized code away (reason "weak
// objects" under --trace-deopt: some 300 deoptimizations over 20 collections) and the digests after it ran
// unoptimized, about ten times slower, until V8 optimized them again. Keeping the newest object of each working class
// keeps those maps, and the code, across collections. The cost: one digest's working objects (what the last call read
// and built) stay reachable until the next digest replaces them.

/** The working classes whose newest instance is kept, one slot each. */
export const Shape = { Spending: 0, BlockForms: 1, BodyRendering: 2, Scanner: 3 } as const;

const newest: object[] = [];

/** Keeps `instance` as the newest of its kind (see the top of this file). */
export function keepShape(kind: (typeof Shape)[keyof typeof Shape], instance: object): void {
  newest[kind] = instance;
}
