import fc from "fast-check";
import { describe, it } from "vitest";
import { expect } from "vitest";
import type { MemoryStore } from "@orphus/memory";
import { tempStore } from "./support/temp.js";

// A plain in-memory model of the store: sources by name, each with one text; a query for one word finds the
// sources whose text holds it (the generated words are distinct tokens, so stemming cannot merge two of them).
interface Model {
  sources: Map<string, string>;
  /** Whether anything was ever ingested: until then there is no store, and forget says so. */
  created: boolean;
}
type Real = MemoryStore;

const WORDS = ["apple", "banana", "cherry", "damson", "elder", "fig", "grape"] as const;
const SOURCES = ["s1", "s2", "s3", "s4"] as const;
const body = fc.subarray([...WORDS], { minLength: 1 }).map((ws) => ws.join(" "));

class Ingest implements fc.Command<Model, Real> {
  constructor(
    readonly source: string,
    readonly body: string,
  ) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    real.ingestTexts([{ title: "t", body: this.body, source: this.source }]);
    model.sources.set(this.source, this.body);
    model.created = true;
  }
  toString = (): string => `ingest(${this.source}, ${this.body})`;
}

class ForgetSource implements fc.Command<Model, Real> {
  constructor(readonly source: string) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    if (!model.created) {
      expect(() => real.forget({ source: this.source })).toThrow(
        expect.objectContaining({ code: "ERR_MEMORY_STORE_MISSING" }),
      );
      return;
    }
    const report = real.forget({ source: this.source });
    expect(report.sourcesRemoved).toBe(model.sources.has(this.source) ? 1 : 0);
    model.sources.delete(this.source);
  }
  toString = (): string => `forget(${this.source})`;
}

class ForgetById implements fc.Command<Model, Real> {
  constructor(readonly source: string) {}
  check = (model: Readonly<Model>): boolean => model.sources.has(this.source);
  run(model: Model, real: Real): void {
    const id = real
      .query(`"${model.sources.get(this.source)?.split(" ")[0]}"`, { limit: 50, budget: 50_000 })
      .hits.find((h) => h.source === this.source)?.id;
    expect(id).toBeDefined();
    real.forget({ id: id as number });
    model.sources.delete(this.source);
  }
  toString = (): string => `forgetById(${this.source})`;
}

class Query implements fc.Command<Model, Real> {
  constructor(readonly word: string) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const answer = real.query(this.word, { limit: 50, budget: 50_000 });
    const expected = [...model.sources]
      .filter(([, text]) => text.split(" ").includes(this.word))
      .map(([s]) => s)
      .sort();
    expect(answer.hits.map((h) => h.source).sort()).toEqual(expected);
    expect(answer.total).toBe(expected.length);
    const status =
      expected.length > 0 ? "hits" : !model.created ? "missing" : model.sources.size === 0 ? "empty" : "no-match";
    expect(answer.status).toBe(status);
  }
  toString = (): string => `query(${this.word})`;
}

describe("the store against a plain model", () => {
  it("ingest, forget and query agree with the model in any order", () => {
    const commands = [
      fc.tuple(fc.constantFrom(...SOURCES), body).map(([s, b]) => new Ingest(s, b)),
      fc.constantFrom(...SOURCES).map((s) => new ForgetSource(s)),
      fc.constantFrom(...SOURCES).map((s) => new ForgetById(s)),
      fc.constantFrom(...WORDS).map((w) => new Query(w)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 30 }), (cmds) => {
        const real = tempStore({ role: "librarian" });
        try {
          fc.modelRun(() => ({ model: { sources: new Map(), created: false }, real }), cmds);
        } finally {
          real.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
