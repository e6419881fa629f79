import { TOKEN_MASK } from "../limits.js";

/** Where a resolved token came from: the settings key, or the variable that held it. */
export type GitHubTokenSource =
  { readonly kind: "setting"; readonly key: string } | { readonly kind: "variable"; readonly name: string };

/**
 * A resolved GitHub token. It prints as `***` wherever it lands (string, JSON, console.log); `reveal()` is the one
 * way to the value, for the request that needs it.
 */
export class GitHubToken {
  readonly #value: string;

  constructor(
    value: string,
    /** Where the value came from. */
    readonly source: GitHubTokenSource,
  ) {
    this.#value = value;
  }

  /** The token itself. */
  reveal(): string {
    return this.#value;
  }

  /** A line naming the source, never the value. */
  describe(): string {
    return this.source.kind === "setting"
      ? `GitHub token from the setting ${this.source.key} (${TOKEN_MASK})`
      : `GitHub token from the variable ${this.source.name} (${TOKEN_MASK})`;
  }

  toString(): string {
    return TOKEN_MASK;
  }

  toJSON(): string {
    return TOKEN_MASK;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `GitHubToken(${TOKEN_MASK})`;
  }
}
