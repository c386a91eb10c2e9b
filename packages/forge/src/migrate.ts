/**
 * `forge migrate [--apply]`: bring a store of the previous version to this
 * one. A dry run by default (what would change, one line each); `--apply`
 * makes each change with one atomic write, the version marker last, so an
 * interrupted run is resumed by running it again (a change already made is
 * not planned again).
 *
 * Version 1 → 2: `.gitignore` gains the lines of this version (`*.lock`:
 * lock files never belong in a commit), then `.forge/version` says 2.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite, findStore, ForgeError, STORE_VERSION, storeVersion, UsageError, versionFile } from "@forge/core";
import type { Io } from "@forge/cli";
import { IGNORED } from "./init.js";

/** One planned change: the file and what happens to it, and the new text. */
export interface Change {
  file: string;
  change: string;
  path: string;
  text: string;
}

/** The short help (`-h`). */
export const MIGRATE_HELP =
  "usage: forge migrate [--apply]\nUpgrade an older store: list the changes, or make them with --apply\n";

/**
 * The changes that bring the store at `dir` (its `.forge/`) to this version.
 * @throws ForgeError for a store newer than this forge, or older than the previous version
 */
export function planMigration(dir: string): Change[] {
  const v = storeVersion(dir);
  if (v === STORE_VERSION) return [];
  if (v > STORE_VERSION)
    throw new ForgeError(
      `this store is version ${v}, newer than this forge reads (${STORE_VERSION}): upgrade forge`,
      "E_STORE_NEW",
      1
    );
  if (v < STORE_VERSION - 1)
    throw new ForgeError(
      `this store is version ${v}: migrate it with an older forge to version ${STORE_VERSION - 1} first`,
      "E_STORE_OLD",
      1
    );
  const out: Change[] = [];
  const gi = join(dir, ".gitignore");
  let have = "";
  try {
    have = readFileSync(gi, "utf8");
  } catch {
    // none yet
  }
  const lines = have.split("\n");
  const missing = IGNORED.filter((l) => !lines.includes(l));
  if (missing.length) {
    out.push({
      file: ".forge/.gitignore",
      change: `add ${missing.join(" ")}`,
      path: gi,
      text: (have === "" || have.endsWith("\n") ? have : have + "\n") + missing.join("\n") + "\n",
    });
  }
  out.push({
    file: ".forge/version",
    change: `write ${STORE_VERSION} (was ${v})`,
    path: versionFile(dir),
    text: `${STORE_VERSION}\n`,
  });
  return out;
}

/**
 * Run `forge migrate`: print the plan, and with `apply` make it.
 * @returns the exit code
 */
export function runMigrate(io: Io, argv: string[]): number {
  let apply = false;
  for (const a of argv) {
    if (a === "--apply") apply = true;
    else if (a.startsWith("-")) throw new UsageError(`unknown flag '${a.slice(0, 40)}'`);
    else throw new UsageError(`unexpected argument '${a.slice(0, 40)}'`);
  }
  const dir = findStore({ cwd: io.cwd, env: io.env });
  const plan = planMigration(dir);
  if (plan.length === 0) {
    io.stderr.write(`forge migrate: the store is version ${STORE_VERSION} already; nothing to do\n`);
    return 0;
  }
  for (const c of plan) {
    if (apply) atomicWrite(c.path, c.text);
    io.stdout.write(`${apply ? "" : "would "}${c.change}: ${c.file}\n`);
  }
  if (!apply) io.stderr.write("forge migrate: dry run; run 'forge migrate --apply' to make these changes\n");
  return 0;
}
