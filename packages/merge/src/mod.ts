/**
 * @module
 * forge-merge: `forge-merge <pr>` merges a pull request the careful way
 * (a disposable worktree, hooks off, CI, a fast-forward of the base, a
 * record in `.forge/merges/`); `forge-merge import <dir|zip>` brings in a
 * foreign `.forge/`, validated before anything is written. Verb bodies
 * load lazily so `--help` stays cheap.
 */
import { defineNoun } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

/** The verbs; any other first argument is a PR ref (`forge-merge 12` = `forge-merge pr 12`). */
export const VERBS = ["pr", "import"];

/**
 * `forge-merge <ref> …` → `forge-merge pr <ref> …`: a first argument that
 * is neither a verb nor a flag is a PR ref.
 * @example withVerb(["12", "--json"]) // ["pr", "12", "--json"]
 */
export function withVerb(argv: string[]): string[] {
  const first = argv[0];
  if (first === undefined || VERBS.includes(first) || (first.startsWith("-") && first !== "-")) return argv;
  return ["pr", ...argv];
}

export default defineNoun({
  meta: { name: "forge-merge", version: VERSION, description: "merge a PR (forge-merge <pr>); import a store" },
  subCommands: {
    pr: () => import("./pr.js").then((m) => m.default),
    import: () => import("./import.js").then((m) => m.default),
  },
});
