/**
 * The read floor of `forge-observe --json | forge-plan --json`: one Node
 * process that reads the files an observation reads (every `issue.md`,
 * every `pr.md`, every import file, parsed as JSON) and does nothing with
 * them. Prints the number of files.
 *
 * Usage: `node tools/dist/loop_floor.js <.forge dir>`
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const store = process.argv[2];
if (!store) {
  process.stderr.write("usage: node tools/dist/loop_floor.js <.forge dir>\n");
  process.exit(2);
}
let files = 0;
const list = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
for (const kind of ["issues", "prs"]) {
  const file = kind === "issues" ? "issue.md" : "pr.md";
  for (const base of [join(store, kind), join(store, "archive", kind)]) {
    for (const id of list(base)) {
      readFileSync(join(base, id, file), "utf8");
      files++;
    }
  }
}
const imports = join(store, "evidence", "imports");
for (const f of list(imports)) {
  JSON.parse(readFileSync(join(imports, f), "utf8"));
  files++;
}
process.stdout.write(`${files}\n`);
