/**
 * The read-only floor for `list` benchmarks: a Node process that only reads
 * the files `list` reads and does nothing with them. Prints the number of
 * files and bytes read.
 *
 * Issues (default): every `issue.md` under `issues/` and `archive/issues/`
 * and the records of its `comments/` and `edits/` folders (an item's
 * `updatedAt` is the latest of them: spec/schema.md), `labels.md`,
 * `milestones.md`.
 * PRs (`prs [N]`): every `pr.md` under `prs/` and `archive/prs/` with its
 * `comments/` and `edits/` records, `labels.md`, `milestones.md`, and the
 * `patch.diff` and review files of N live PRs (all when N is left out): what
 * `forge-pr list --json` reads for N listed PRs.
 *
 * Usage: `node tools/dist/read_floor.js <.forge dir> [prs [N]]`
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [store, kind, count] = process.argv.slice(2);
if (!store || (kind !== undefined && kind !== "prs") || (count !== undefined && !/^[0-9]+$/.test(count))) {
  process.stderr.write("usage: node tools/dist/read_floor.js <.forge dir> [prs [N]]\n");
  process.exit(2);
}
let files = 0;
let bytes = 0;
const read = (p: string): void => {
  bytes += readFileSync(p, "utf8").length;
  files++;
};
const list = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const plural = kind === "prs" ? "prs" : "issues";
const owning = kind === "prs" ? "pr.md" : "issue.md";
for (const dir of [join(store, plural), join(store, "archive", plural)])
  for (const n of list(dir)) {
    read(join(dir, n, owning));
    for (const sub of ["comments", "edits"]) for (const r of list(join(dir, n, sub))) read(join(dir, n, sub, r));
  }
for (const f of ["labels.md", "milestones.md"]) read(join(store, f));
if (kind === "prs") {
  const live = list(join(store, "prs"));
  for (const n of live.slice(0, count === undefined ? live.length : Number(count))) {
    read(join(store, "prs", n, "patch.diff"));
    for (const r of list(join(store, "prs", n, "reviews"))) read(join(store, "prs", n, "reviews", r));
  }
}
process.stdout.write(`${files} files, ${bytes} chars\n`);
