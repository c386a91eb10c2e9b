/**
 * Compact help, within DESIGN §6's budgets: root help ≤ 12 lines / 300
 * bytes, a subcommand's ≤ 8 lines / 250 bytes. Rendered from the same flag
 * tables the parser uses, so help never drifts from behaviour.
 */
import { aliases, type FlagsDef } from "./args.js";

/** What a usage line needs to know about a command. */
export interface UsageInfo {
  /** Full program path, e.g. `forge-issue list`. */
  prog: string;
  description: string;
  flags: FlagsDef;
  /** `--help`: every flag on its own line with its description (`-h` is the compact form). */
  full?: boolean;
}

/** The compact form's budget (DESIGN §6): lines and bytes. */
const BUDGET = { lines: 8, bytes: 250 };

/**
 * Render a leaf command's help.
 * @example renderUsage({prog: "forge-issue close", description: "Close issues", flags: {...}})
 */
export function renderUsage(u: UsageInfo): string {
  const pos = Object.entries(u.flags).filter(([, d]) => d.type === "positional");
  const posText = pos.map(([n, d]) => (d.required ? `<${d.valueHint ?? n}>` : `[<${d.valueHint ?? n}>]`)).join(" ");
  const flags = Object.entries(u.flags)
    .filter(([, d]) => d.type !== "positional")
    .map(([name, d]) => {
      const short = aliases(d).find((a) => a.length === 1);
      let s = short ? `-${short},--${name}` : `--${name}`;
      if (d.type === "enum" && d.options) s += ` ${d.options.join("|")}`;
      else if (d.optionalValue) s += " [f]";
      return s;
    });
  const lines = [`usage: ${u.prog}${posText ? " " + posText : ""}${flags.length ? " [flags]" : ""}`, u.description];
  if (u.full) {
    const descs = Object.entries(u.flags)
      .filter(([, d]) => d.type !== "positional")
      .map(([, d]) => d.description ?? "");
    const w = Math.max(0, ...flags.map((f) => f.length));
    flags.forEach((f, k) => lines.push(`  ${f.padEnd(w)}  ${descs[k]}`.trimEnd()));
    return lines.join("\n") + "\n";
  }
  // As many flags as fit the budget, in table order; the rest are on `--help`.
  const fit = (n: number): string[] => {
    const out = [...lines];
    let cur = "";
    for (const f of flags.slice(0, n)) {
      if (cur && cur.length + 2 + f.length > 78) {
        out.push(cur);
        cur = f;
      } else cur = cur ? `${cur}  ${f}` : f;
    }
    if (n < flags.length) cur = cur ? `${cur}  …(--help)` : "…(--help)";
    if (cur) out.push(cur);
    return out;
  };
  let n = flags.length;
  let out = fit(n);
  while (n > 0 && (out.length > BUDGET.lines || Buffer.byteLength(out.join("\n") + "\n") > BUDGET.bytes))
    out = fit(--n);
  return out.join("\n") + "\n";
}

/**
 * Render a noun executable's root help.
 * @example renderRootUsage("forge-issue", "0.1.0", "issues in .forge/issues", ["create", "list"])
 */
export function renderRootUsage(prog: string, version: string, description: string, commands: string[]): string {
  return (
    [
      `${prog} ${version} - ${description}`,
      `usage: ${prog} <command> [flags]`,
      `commands: ${commands.join(" ")}`,
      `help: ${prog} <command> -h`,
    ].join("\n") + "\n"
  );
}
