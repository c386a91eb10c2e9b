/**
 * `forge migrate [--apply]`: bring a store of the previous version to this
 * one. A dry run by default (what would change, one line each); `--apply`
 * makes each change with one atomic write, the version marker last, so an
 * interrupted run is resumed by running it again (a change already made is
 * not planned again).
 *
 * Version 1 → 2: `.gitignore` gains the lines of this version (`*.lock`:
 * lock files never belong in a commit), then the one-hop note
 * `merges/migrations/v1-to-v2.md` (what changed, who, when: the store's
 * own record of its conversion, beside the merge records), then
 * `.forge/version` says 2. Commands read a version-1 store as it is
 * (N−1); migrating is what makes it version 2.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  atomicWrite,
  currentAuthor,
  findStore,
  ForgeError,
  formatFrontmatter,
  formatTimestamp,
  mkdirInside,
  STORE_VERSION,
  storeAt,
  storeVersion,
  toFrontmatter,
  UsageError,
  validate,
  versionFile,
  type EntitySchema,
} from "@forge/core";
import type { Io } from "@forge/cli";
import { IGNORED } from "./init.js";

/** One planned change: the file and what happens to it, and the new text. */
export interface Change {
  file: string;
  change: string;
  path: string;
  text: string;
}

/** `merges/migrations/v<from>-to-<to>.md`: the one-hop note `forge migrate --apply` leaves. */
export const MIGRATION_NOTE: EntitySchema = {
  kind: "migration-note",
  fields: [
    { name: "from", type: { t: "int" }, required: true },
    { name: "to", type: { t: "int" }, required: true },
    { name: "changes", type: { t: "strings" }, required: true },
    { name: "author", type: { t: "string" }, required: true },
    { name: "createdAt", type: { t: "timestamp" }, required: true },
  ],
};

/** The note's path (relative to the repository, and under `dir`, the `.forge/` folder). */
export function migrationNote(dir: string, from: number, to: number): { file: string; path: string } {
  const name = `v${from}-to-v${to}.md`;
  return { file: `.forge/merges/migrations/${name}`, path: join(dir, "merges", "migrations", name) };
}

/** The short help (`-h`). */
export const MIGRATE_HELP =
  "usage: forge migrate [--apply]\nUpgrade an older store: list the changes, or make them with --apply\n";

/**
 * The changes that bring the store at `dir` (its `.forge/`) to this version.
 * @throws ForgeError for a store newer than this forge, or older than the previous version
 */
export function planMigration(dir: string, author = "forge", now = formatTimestamp()): Change[] {
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
  const note = migrationNote(dir, v, STORE_VERSION);
  // Planned unless a run interrupted before the marker left it already (a rerun does not write it twice).
  if (!existsSync(note.path)) {
    const changes = [...out.map((c) => `${c.change}: ${c.file}`), `write ${STORE_VERSION} (was ${v}): .forge/version`];
    const data = validate(MIGRATION_NOTE, { from: v, to: STORE_VERSION, changes, author, createdAt: now }, note.file);
    const body =
      `forge migrate converted this store from version ${v} to version ${STORE_VERSION}, one hop: the changes ` +
      `above, each one atomic write, the version marker last. Nothing else was touched.\n`;
    out.push({
      file: note.file,
      change: `write the one-hop note (${v} → ${STORE_VERSION})`,
      path: note.path,
      text: formatFrontmatter(toFrontmatter(MIGRATION_NOTE, data.data), body),
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
export async function runMigrate(io: Io, argv: string[]): Promise<number> {
  let apply = false;
  for (const a of argv) {
    if (a === "--apply") apply = true;
    else if (a.startsWith("-")) throw new UsageError(`unknown flag '${a.slice(0, 40)}'`);
    else throw new UsageError(`unexpected argument '${a.slice(0, 40)}'`);
  }
  const dir = findStore({ cwd: io.cwd, env: io.env });
  const plan = planMigration(dir, await currentAuthor(io.env, io.cwd));
  if (plan.length === 0) {
    io.stderr.write(`forge migrate: the store is version ${STORE_VERSION} already; nothing to do\n`);
    return 0;
  }
  applyMigration(io, dir, plan, apply);
  if (!apply) io.stderr.write("forge migrate: dry run; run 'forge migrate --apply' to make these changes\n");
  return 0;
}

/**
 * Make (with `apply`) the changes of a migration plan in order, one line each on stdout, as `forge migrate` prints
 * them (`forge init` on a store without a marker migrates it with this too).
 * @param dir the `.forge/` folder
 */
export function applyMigration(io: Pick<Io, "stdout">, dir: string, plan: Change[], apply = true): void {
  for (const c of plan) {
    if (apply) {
      if (c.path.startsWith(join(dir, "merges"))) mkdirInside(storeAt(dir), join(dir, "merges", "migrations"));
      atomicWrite(c.path, c.text);
    }
    io.stdout.write(`${apply ? "" : "would "}${c.change}: ${c.file}\n`);
  }
}
