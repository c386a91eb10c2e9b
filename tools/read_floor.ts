/**
 * The read-only floor for `forge-issue list` benchmarks: a Node process that
 * only reads the files `list` reads (every `issue.md` under `issues/` and
 * `archive/issues/`, `labels.md`, `milestones.md`) and does nothing with
 * them. Prints the number of files and bytes read.
 *
 * Usage: `node tools/dist/read_floor.js <.forge dir>`
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const store = process.argv[2];
if (!store) {
  process.stderr.write("usage: node tools/dist/read_floor.js <.forge dir>\n");
  process.exit(2);
}
let files = 0;
let bytes = 0;
const read = (p: string): void => {
  bytes += readFileSync(p, "utf8").length;
  files++;
};
for (const dir of [join(store, "issues"), join(store, "archive", "issues")]) {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    continue;
  }
  for (const n of names) read(join(dir, n, "issue.md"));
}
for (const f of ["labels.md", "milestones.md"]) read(join(store, f));
process.stdout.write(`${files} files, ${bytes} chars\n`);
