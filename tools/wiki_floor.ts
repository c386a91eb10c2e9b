/**
 * The read-only floor for the `forge-wiki list` benchmark: a Node process
 * that walks `.forge/wiki/` and reads every `.md` file (what the index must
 * read) and does nothing with them. Prints the number of files and bytes.
 *
 * Usage: `node tools/dist/wiki_floor.js <.forge/wiki dir>`
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const wiki = process.argv[2];
if (!wiki) {
  process.stderr.write("usage: node tools/dist/wiki_floor.js <.forge/wiki dir>\n");
  process.exit(2);
}
let files = 0;
let bytes = 0;
const walk = (dir: string): void => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name.endsWith(".md")) {
      bytes += readFileSync(p).length;
      files++;
    }
  }
};
walk(wiki);
process.stdout.write(`${files} files, ${bytes} bytes\n`);
