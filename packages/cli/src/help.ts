/**
 * The full help page, `<verb> --help`, git's split: `-h` is the compact
 * usage (usage.ts, within its budget), `--help` the whole page. Rendered
 * from the same flag table the parser uses, plus what a verb declares in
 * `meta.help`: the settings it reads, the environment it honours beyond
 * the common variables, and examples.
 */
import type { CommandMeta } from "citty";
import { aliases, type FlagDef, type FlagsDef } from "./args.js";

/** What a verb's help page says beyond its flags. */
export interface HelpMeta {
  /** Settings files and what is read from them: `[path, keys and meaning]`. */
  reads?: ReadonlyArray<readonly [string, string]>;
  /** Environment variables it honours beyond FORGE_DIR, NO_COLOR and FORGE_DEBUG: `[name, meaning]`. */
  env?: ReadonlyArray<readonly [string, string]>;
  /** Two or three command lines. */
  examples?: readonly string[];
  /** More to say, one line each. */
  notes?: readonly string[];
}

/** citty's meta with forge's help additions. */
export type HelpCommandMeta = CommandMeta & { help?: HelpMeta };

/** What a help page needs. */
export interface HelpInfo {
  prog: string;
  description: string;
  flags: FlagsDef;
  help?: HelpMeta;
}

/** The variables every verb honours. */
export const COMMON_ENV: ReadonlyArray<readonly [string, string]> = [
  ["FORGE_DIR", "the store (default: the .forge/ found walking up from here)"],
  ["NO_COLOR", "no colour, even on a terminal"],
  ["FORGE_DEBUG", "a stack trace after an unexpected error"],
];

/** Descriptions of the positionals every batch verb shares, by value hint, when a verb gives none. */
const POSITIONALS: Record<string, string> = {
  "ref|-": "a number, #number, id or id prefix (4+ hex); - reads JSON lines on stdin (each record's id or number)",
  "pr|-": "a PR (number, #number, id or id prefix); - reads JSON lines on stdin",
};

/**
 * Render a verb's full help page.
 * @example renderHelp({ prog: "forge-issue close", description: "Close issues", flags: {} })
 */
export function renderHelp(u: HelpInfo): string {
  const pos = Object.entries(u.flags).filter(([, d]) => d.type === "positional");
  const flags = Object.entries(u.flags).filter(([, d]) => d.type !== "positional");
  const posText = pos
    .map(([n, d]) => {
      const one = `<${d.valueHint ?? n}>${d.multiple ? "..." : ""}`;
      return d.required ? one : `[${one}]`;
    })
    .join(" ");
  const out = [`usage: ${u.prog}${posText ? " " + posText : ""}${flags.length ? " [flags]" : ""}`, "", u.description];
  if (pos.length) {
    out.push("", "arguments:");
    for (const [n, d] of pos)
      out.push(row(`<${d.valueHint ?? n}>`, `${positionalText(d)}${d.required ? "" : " (optional)"}`));
  }
  out.push("", "flags:");
  for (const [name, d] of flags) out.push(row(flagColumn(name, d), withDefault(d)));
  out.push(row("-h, --help", "-h: the short usage; --help: this page"));
  if (u.help?.reads?.length) {
    out.push("", "reads:");
    for (const [file, what] of u.help.reads) out.push(row(file, what));
  }
  out.push("", "environment:");
  for (const [name, what] of [...(u.help?.env ?? []), ...COMMON_ENV]) out.push(row(name, what));
  if (u.help?.notes?.length) out.push("", ...u.help.notes);
  if (u.help?.examples?.length) out.push("", "examples:", ...u.help.examples.map((e) => `  ${e}`));
  out.push("", "exit: 0 ok, 1 runtime error, 2 usage error; errors are one line on stderr");
  return out.join("\n") + "\n";
}

/**
 * A flag's description with its default (or that it is required): the declared `default`, else
 * what its description already says, else off (a switch) or none.
 */
export function withDefault(d: FlagDef): string {
  const desc = d.description ?? "";
  if (d.required) return /\brequired\b/.test(desc) ? desc : `${desc} (required)`;
  if (d.default !== undefined) return `${desc} (default: ${String(d.default)})`;
  if (/\bdefault\b/.test(desc)) return desc;
  // "max (30)", as short descriptions write a default.
  const n = /^(.*) \(([0-9]+)\)$/.exec(desc);
  if (n) return `${n[1]} (default: ${n[2]})`;
  if (d.type === "boolean" || d.optionalValue) return `${desc} (default: off)`;
  return `${desc} (default: none)`;
}

// --- internal ---

function flagColumn(name: string, d: FlagDef): string {
  const short = aliases(d).find((a) => a.length === 1);
  const long = aliases(d)
    .filter((a) => a.length > 1)
    .map((a) => `--${a}`);
  let s = short ? `-${short}, --${name}` : `--${name}`;
  if (long.length) s += `, ${long.join(", ")}`;
  if (d.type === "enum" && d.options) s += ` ${d.options.join("|")}`;
  else if (d.optionalValue) s += " [<fields>]";
  else if (d.type !== "boolean") s += ` <${d.valueHint ?? "value"}>`;
  if (d.multiple) s += "...";
  return s;
}

function positionalText(d: FlagDef): string {
  return d.description || POSITIONALS[d.valueHint ?? ""] || "";
}

function row(left: string, right: string): string {
  const l = `  ${left}`;
  return l.length >= 26 ? `${l}  ${right}` : l.padEnd(26) + right;
}
