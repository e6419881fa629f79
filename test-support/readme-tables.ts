// Reading a README's tables, for tests that hold a README to the code it describes (an options table against an
// interface, a tool table against what a server registers), so each package's test does not parse markdown its own way.

/**
 * The names in the first column of the markdown table that follows `heading` in `markdown`: the identifier that
 * opens each row's first code span (`name`, `name(args)`, `name: type`). A row that opens otherwise comes back as
 * `?` and the row, so a test's comparison shows it.
 */
export function tableNames(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(heading);
  if (start === -1) throw new Error(`the README has no ${heading}`);
  const table =
    markdown
      .slice(start)
      .split("\n\n")
      .find((block) => block.startsWith("| ")) ?? "";
  return table
    .split("\n")
    .slice(2)
    .map((row) => /^\| `([A-Za-z_]\w*)/.exec(row)?.[1] ?? `?${row}`);
}
