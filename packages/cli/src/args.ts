/**
 * A strict argv parser over citty's `ArgsDef`. citty's own parser is
 * `strict: false` (unknown flags pass silently) and has no repeatable or
 * optional-value flags; gh has both (`--label a --label b`, `--json [fields]`).
 */
import type { ArgDef, ArgsDef } from "citty";
import { UsageError } from "@forge/core";

/** citty's ArgDef plus what gh's flags need. */
export type FlagDef = ArgDef & {
  /**
   * Repeatable; each value is also split on commas (gh's StringSlice). On the
   * last positional: it takes every remaining argument, as a list (`FILE…`).
   */
  multiple?: boolean;
  /** May appear without a value (`--json` alone); takes the next token only if `acceptsValue` says so. */
  optionalValue?: boolean;
  acceptsValue?: (token: string) => boolean;
};

/** A command's flag table. */
export type FlagsDef = Record<string, FlagDef>;

/** Parsed values: strings, booleans, string lists, and positionals under `_`. */
export type Parsed = { _: string[] } & Record<string, string | boolean | string[] | undefined>;

/**
 * Parse `argv` against `defs`, strictly: an unknown flag, a missing value, a
 * bad enum value or an extra positional is a UsageError.
 * @param argv the tokens after the command path
 * @param defs the flag table (positionals declared with `type: "positional"`)
 * @returns parsed values; `help: true` when -h/--help was seen before `--` (and `fullHelp` for --help)
 * @throws UsageError
 * @example parseArgv(["-l", "bug,ui", "x"],
 * {label: {type: "string", alias: "l", multiple: true}, ref: {type: "positional"}})
 */
export function parseArgv(argvIn: readonly string[], defs: FlagsDef): Parsed & { help?: boolean; fullHelp?: boolean } {
  const argv = [...argvIn];
  const out: Parsed & { help?: boolean; fullHelp?: boolean } = { _: [] };
  const byName = new Map<string, [string, FlagDef]>();
  for (const [name, d] of Object.entries(defs)) {
    if (d.type === "positional") continue;
    byName.set(`--${name}`, [name, d]);
    for (const a of aliases(d)) byName.set(a.length === 1 ? `-${a}` : `--${a}`, [name, d]);
  }
  let i = 0;
  let rest = false;
  while (i < argv.length) {
    const tok = argv[i++]!;
    if (rest || tok === "-" || !tok.startsWith("-")) {
      out._.push(tok);
      continue;
    }
    if (tok === "--") {
      rest = true;
      continue;
    }
    if (tok === "-h" || tok === "--help") {
      out.help = true;
      // git's split: -h the short usage, --help the whole page.
      if (tok === "--help") out.fullHelp = true;
      continue;
    }
    const bundle = unbundle(tok, byName);
    if (bundle) {
      argv.splice(i, 0, ...bundle);
      continue;
    }
    let flag = tok;
    let inline: string | undefined;
    const eq = tok.startsWith("--") ? tok.indexOf("=") : -1;
    if (eq > 0) {
      flag = tok.slice(0, eq);
      inline = tok.slice(eq + 1);
    } else if (!tok.startsWith("--") && tok.length > 2) {
      flag = tok.slice(0, 2);
      inline = tok.slice(2);
    }
    const hit = byName.get(flag);
    if (!hit) throw new UsageError(`unknown flag '${flag.slice(0, 40)}'`);
    const [name, d] = hit;
    if (d.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`flag '${flag}' takes no value`);
      out[name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i];
      if (d.optionalValue) {
        if (next !== undefined && d.acceptsValue?.(next)) {
          value = next;
          i++;
        } else value = "";
      } else {
        // A value may start with "-" (`-S "-label:bug"`, as pflag takes it) unless it is one of the flags.
        const isFlag =
          next !== undefined &&
          next.startsWith("-") &&
          next !== "-" &&
          (next === "-h" ||
            next === "--help" ||
            next === "--" ||
            (next.startsWith("--") ? byName.has(next.split("=")[0]!) : next.length === 2 && byName.has(next)));
        if (next === undefined || isFlag) throw new UsageError(`flag '${flag}' needs a value`);
        value = next;
        i++;
      }
    }
    // A repeatable flag's value is a comma list; an enum checks each item.
    const items = d.multiple
      ? value
          .split(",")
          .map((v) => v.trim())
          .filter((v) => v !== "")
      : [value];
    for (const v of items) {
      if (d.type === "enum" && d.options && !d.options.includes(v)) {
        throw new UsageError(`invalid value for '${flag}': '${v.slice(0, 40)}' (one of ${d.options.join("|")})`);
      }
    }
    if (d.multiple) {
      const list = (out[name] as string[] | undefined) ?? [];
      list.push(...items);
      out[name] = list;
    } else {
      if (out[name] !== undefined && !d.optionalValue) throw new UsageError(`flag '${flag}' given twice`);
      out[name] = value;
    }
  }
  return out;
}

/**
 * pflag's shorthand bundles: `-dr` is `-d -r` when `-d` is a boolean; each
 * letter is a flag until one takes a value, which takes the rest (`-dlbug` is
 * `-d -l bug`). A letter that is no flag is left for the caller's unknown-flag error.
 * @returns the tokens the bundle stands for, or undefined when `tok` is no bundle
 */
function unbundle(tok: string, byName: Map<string, [string, FlagDef]>): string[] | undefined {
  if (tok.startsWith("--") || tok.length <= 2 || byName.get(tok.slice(0, 2))?.[1].type !== "boolean") return undefined;
  const out: string[] = [];
  for (let k = 1; k < tok.length; k++) {
    const short = `-${tok[k]}`;
    const d = byName.get(short)?.[1];
    if (d === undefined && short !== "-h") throw new UsageError(`unknown flag '${short}' in '${tok.slice(0, 40)}'`);
    if (d !== undefined && d.type !== "boolean") {
      out.push(short + tok.slice(k + 1));
      break;
    }
    out.push(short);
  }
  return out;
}

/**
 * Check positionals against the declared ones and put them under their
 * names, and check that required flags are there.
 * @throws UsageError for a missing or extra positional, or a missing required flag
 */
export function bindPositionals(parsed: Parsed, defs: FlagsDef): void {
  const pos = Object.entries(defs).filter(([, d]) => d.type === "positional");
  const rest = pos.at(-1)?.[1].multiple === true;
  if (parsed._.length > pos.length && !rest)
    throw new UsageError(`unexpected argument '${parsed._[pos.length]!.slice(0, 40)}'`);
  pos.forEach(([name, d], k) => {
    if (rest && k === pos.length - 1) {
      parsed[name] = parsed._.slice(k);
      return;
    }
    const v = parsed._[k];
    if (v === undefined && d.required) throw new UsageError(`missing <${d.valueHint ?? name}>`);
    parsed[name] = v;
  });
  for (const [name, d] of Object.entries(defs)) {
    if (d.type !== "positional" && d.required && parsed[name] === undefined) throw new UsageError(`missing --${name}`);
  }
}

/** The aliases of a flag, as a list. */
export function aliases(d: ArgDef): string[] {
  const a = (d as { alias?: string | string[] }).alias;
  return a === undefined ? [] : Array.isArray(a) ? a : [a];
}

/** The flag table of a citty command (args may not be lazy here). */
export function flagsOf(args: ArgsDef | undefined): FlagsDef {
  return (args ?? {}) as FlagsDef;
}

/**
 * A list flag's values (`--label a,b --label c` is already split by the
 * parser), `[]` when absent.
 */
export function listArg(args: Parsed, name: string): string[] {
  return (args[name] as string[] | undefined) ?? [];
}
