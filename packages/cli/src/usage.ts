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
}

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
  let cur = "";
  for (const f of flags) {
    if (cur && cur.length + 2 + f.length > 78) {
      lines.push(cur);
      cur = f;
    } else cur = cur ? `${cur}  ${f}` : f;
  }
  if (cur) lines.push(cur);
  return lines.join("\n") + "\n";
}

/**
 * Render a noun executable's root help.
 * @example renderRootUsage("forge-issue", "0.1.0", "issues in .forge/issues", ["create", "list"])
 */
export function renderRootUsage(prog: string, version: string, description: string, commands: string[]): string {
  return [
    `${prog} ${version} - ${description}`,
    `usage: ${prog} <command> [flags]`,
    `commands: ${commands.join(" ")}`,
    `help: ${prog} <command> -h`,
  ].join("\n") + "\n";
}
