/**
 * Aligned columns for a terminal: each column as wide as its widest cell,
 * two spaces apart, no trailing spaces.
 * @example formatTable([["#1", "a"], ["#10", "bb"]]) // "#1   a\n#10  bb\n"
 */
export function formatTable(rows: readonly string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(c))));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c + " ".repeat(widths[i]! - visibleLength(c))))
          .join("  ")
          .trimEnd()
      )
      .join("\n") + "\n"
  );
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

function visibleLength(s: string): number {
  return s.replace(ANSI, "").length;
}

/** Wrap `s` in an ANSI colour when `on`. */
export function paint(s: string, code: number, on: boolean): string {
  return on ? `\x1b[${code}m${s}\x1b[0m` : s;
}

/**
 * A `view` block: `key:\tvalue` lines as gh prints them off a TTY (for
 * `cut -f2`), `key: value` on a TTY.
 * @example formatFields(["title:\tx", "--", "body"], true) // "title: x\n--\nbody\n"
 */
export function formatFields(lines: readonly string[], tty: boolean): string {
  const text = lines.join("\n") + "\n";
  return tty ? text.replace(/^([a-zA-Z]+):\t/gm, (_, k: string) => `${k}: `) : text;
}

/** The lines of comments in a `view` block. */
export function commentLines(
  comments: ReadonlyArray<{ author: { login: string }; createdAt: string; body: string }>
): string[] {
  return comments.flatMap((c) => ["--", `author:\t${c.author.login}`, `createdAt:\t${c.createdAt}`, "--", c.body]);
}
