/**
 * `forge help [<noun> [<verb>]]`, `forge version`, and git's "did you mean"
 * for an unknown noun: the nouns that ship, plus every `forge-<noun>`
 * beside this executable (a noun added later, e.g. by another package).
 */
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { UsageError } from "@forge/core";
import { nearest } from "@forge/cli";

/**
 * `forge help` (the root help), `forge help <noun> [<verb>]` (= `forge
 * <noun> [<verb>] --help`), `forge version` (= `forge --version`).
 * @param run runs `forge` with other arguments (the dispatcher itself)
 */
export async function helpOrVersion(
  word: "help" | "version",
  rest: string[],
  run: (argv: string[]) => Promise<number>
): Promise<number> {
  if (word === "version") {
    if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]!.slice(0, 40)}'`);
    return run(["--version"]);
  }
  if (rest.length > 2) throw new UsageError(`unexpected argument '${rest[2]!.slice(0, 40)}'`);
  const bad = rest.find((a) => a.startsWith("-"));
  if (bad) throw new UsageError(`unknown flag '${bad.slice(0, 40)}'`);
  if (rest.length === 0) return run(["--help"]);
  if (rest[0] === "help" || rest[0] === "version") return run(["--help"]);
  if (rest[0] === "init") return run(["init", "--help"]);
  return run([...rest, "--help"]);
}

/** The nouns `forge` knows: the shipped ones, and every forge-<noun> beside `self`. */
export function knownNouns(shipped: readonly string[], self: string): string[] {
  const names = new Set([...shipped, "init", "help", "version"]);
  try {
    for (const f of readdirSync(self ? dirname(self) : ".")) {
      const m = /^forge-([a-z][a-z0-9-]{0,30})$/.exec(f);
      if (m) names.add(m[1]!);
    }
  } catch {
    // no sibling folder: the shipped nouns only
  }
  return [...names].sort();
}

/** The usage error for an unknown noun, with the nearest known one when there is one. */
export function unknownNounError(noun: string, known: readonly string[]): UsageError {
  const near = nearest(noun, known);
  return new UsageError(`unknown noun '${noun.slice(0, 40)}'${near ? ` (did you mean '${near}'?)` : ""}`);
}
