// The standard linter, type-aware (typescript-eslint over the root tsconfig, one program for the whole repository):
// the rules a machine can check that a regex cannot. What no tool checks (the errors.ts rules, the benchmark
// harness rule, leaf packages, manifests, docs, workflows) stays in scripts/lint.ts; `pnpm lint` runs both.
import importX from "eslint-plugin-import-x";
import n from "eslint-plugin-n";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/dist/**", "**/node_modules/**", "**/coverage/**", "**/*.js", "**/*.mjs", "**/*.cjs"],
  },
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: "./tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin, "import-x": importX, n },
    settings: {
      "import-x/extensions": [".ts", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/resolver-next": [
        importX.createNodeResolver({
          conditionNames: ["@orphus/source", "types", "import", "node", "default"],
          extensionAlias: { ".js": [".ts", ".js"] },
        }),
      ],
    },
    rules: {
      // A promise nobody awaits or handles loses its failure: in a socket daemon that is a crash or a silent hang.
      "@typescript-eslint/no-floating-promises": "error",
      // A promise where a callback's return is ignored (an event listener, a condition) is never awaited.
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": [
        "error",
        // A lazily loaded module is typed by import(): the annotation keeps it out of the eager graph.
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      "@typescript-eslint/no-explicit-any": "error",
      // An unused import or binding is a reader's false lead; a deliberate one is named with a leading underscore.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // Node's built-ins by their node: names, so they can never be shadowed by a package of the same name.
      "n/prefer-node-protocol": "error",
      // Import cycles inside the sources; tests and scripts may lean on anything.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    // The public API is src/index.ts's named exports: each one said, none re-exported wholesale, none default.
    files: ["packages/*/src/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "ExportAllDeclaration", message: "Name each export; export * hides what the API promises." },
      ],
      "import-x/no-default-export": "error",
    },
  },
  {
    // pi loads an extension from the default export of the entry its manifest lists in `pi.extensions`: there, and
    // only there, a default export is the host's contract rather than a style choice.
    files: ["packages/pi-roundtable/src/index.ts"],
    rules: { "import-x/no-default-export": "off" },
  },
);
