/**
 * A generator of wiki trees for the `forge-wiki list` benchmark and tests:
 * N pages under `.forge/wiki/` in nested folders (one to three levels),
 * each with a few lines before its H1 (some with frontmatter, some with a
 * fenced `#` line that is not a title) and a few paragraphs after it.
 * Deterministic from a seed.
 *
 * CLI: `node tools/dist/gen_wiki.js <dir> <N> [seed]` (makes `<dir>/.forge/wiki`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { writeStoreVersion } from "@forge/core";
import { mulberry32 } from "./gen_store.js";

/** What was written, for tests and for checking the benchmark's output. */
export interface WikiSummary {
  /** The `.forge/wiki` folder. */
  wiki: string;
  /** Every page, path under `wiki/` (with `.md`) and title, in write order. */
  pages: Array<{ path: string; title: string }>;
}

const WORDS = [
  "forge",
  "store",
  "issue",
  "release",
  "build",
  "index",
  "page",
  "title",
  "markdown",
  "folder",
  "commit",
  "patch",
  "review",
  "label",
];

/**
 * Write `n` pages under `<dir>/.forge/wiki/`.
 * @example generateWiki("/tmp/w", 500)
 */
export function generateWiki(dir: string, n: number, seed = 1): WikiSummary {
  const rnd = mulberry32(seed);
  const word = (): string => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const sentence = (k: number): string => Array.from({ length: k }, word).join(" ");
  const wiki = join(resolve(dir), ".forge", "wiki");
  mkdirSync(wiki, { recursive: true });
  writeStoreVersion(join(wiki, ".."));
  const pages: WikiSummary["pages"] = [];
  for (let i = 0; i < n; i++) {
    const depth = 1 + (i % 3);
    const folders = Array.from(
      { length: depth },
      (_, d) => `${["guides", "ref", "notes", "howto"][(i + d) % 4]}-${(i >> (2 + d)) % 5}`
    );
    const path = [...folders, `page-${String(i).padStart(4, "0")}.md`].join("/");
    const title = `${sentence(3)} ${i}`;
    const before: string[] = [];
    if (i % 4 === 0) before.push("---", `tags: [${word()}, ${word()}]`, "---");
    if (i % 5 === 0) before.push("```sh", "# a shell comment, not a title", "forge-wiki list", "```");
    for (let k = 0; k < 1 + (i % 3); k++) before.push(sentence(8), "");
    const after: string[] = [];
    for (let k = 0; k < 6; k++) after.push("", sentence(12), sentence(10), "", `## ${sentence(2)}`);
    const abs = join(wiki, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, [...before, `# ${title}`, ...after, ""].join("\n"));
    pages.push({ path, title });
  }
  return { wiki, pages };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, n, seed] = process.argv.slice(2);
  if (!dir || !n) {
    process.stderr.write("usage: node tools/dist/gen_wiki.js <dir> <N> [seed]\n");
    process.exit(2);
  }
  const s = generateWiki(dir, Number(n), seed ? Number(seed) : 1);
  process.stdout.write(`${s.pages.length} pages in ${s.wiki}\n`);
}
