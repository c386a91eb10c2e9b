import { defineCommand as cittyDefine, type CommandDef, type CommandMeta } from "citty";
import type { FlagsDef, Parsed } from "./args.js";
import type { HelpCommandMeta } from "./help.js";
import type { Ctx } from "./main.js";

/** A verb: citty's command shape with forge's flag table and context. */
export interface ForgeCommand {
  /** citty's meta, plus `help`: settings read, environment, examples (the `--help` page). */
  meta: HelpCommandMeta;
  args: FlagsDef;
  /** Returns an exit code (default 0). */
  run: (c: { args: Parsed; data: Ctx; rawArgs: string[] }) => unknown;
}

/**
 * Define a verb (citty's `defineCommand`, typed for forge's parser).
 * @example export default defineCommand({ meta: { name: "list" }, args: {}, run: () => 0 })
 */
export function defineCommand(def: ForgeCommand): ForgeCommand {
  return cittyDefine(def as unknown as CommandDef) as unknown as ForgeCommand;
}

/**
 * Define a noun executable: meta plus lazily loaded verbs.
 */
export function defineNoun(def: {
  meta: CommandMeta;
  subCommands: Record<string, () => Promise<ForgeCommand>>;
  flags?: FlagsDef;
}): CommandDef {
  return cittyDefine(def as unknown as CommandDef);
}

/** The flags a noun gives every verb (`-R/--repo`), as `defineNoun`'s `flags` keeps them. */
export function nounFlags(root: CommandDef): FlagsDef {
  return (root as { flags?: FlagsDef }).flags ?? {};
}

/** gh's persistent `-R/--repo`: checked against the repository this store serves. */
export const REPO_FLAG: FlagsDef = {
  repo: {
    type: "string",
    alias: "R",
    valueHint: "OWNER/REPO",
    description: "the repository; it must be the one this store serves (default: this one)",
  },
};
