import { readdirSync, realpathSync, statSync } from "node:fs";
import { sep } from "node:path";
import { isWikiPagePath, readStoreBytes } from "@forge/core";
import { defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import { JSON_FLAGS, jsonRequest, pageRecord, pageRender, Wiki, within, type WikiPageJson } from "./_shared.js";

/**
 * The wiki index, sorted by path (code units): every `.md` file under
 * `wiki/`, computed from the tree and each page's first H1, never stored.
 * Dot files and folders are skipped (temp files of an atomic write start
 * with a dot); symlinked folders are not followed; a symlinked page is
 * listed when it stays inside `wiki/`. A page that cannot be read (a
 * symlink out, over 256 KiB) is reported on stderr and counted, a file whose
 * name is not a page name is skipped with a warning.
 */
export function listPages(ctx: Ctx): { pages: WikiPageJson[]; failed: number } {
  const wiki = new Wiki(ctx.io);
  const real = wiki.real();
  const pages: WikiPageJson[] = [];
  let failed = 0;
  if (!real) return { pages, failed };
  const page = (abs: string, rel: string): void => {
    if (!isWikiPagePath(rel)) {
      ctx.log.warn(`${wiki.show(abs)}: not a valid page name (skipped)`);
      return;
    }
    try {
      pages.push(pageRecord(rel, readStoreBytes(wiki.store, abs)));
    } catch (err) {
      failed++;
      ctx.log.error(err);
    }
  };
  const walk = (dir: string, prefix: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const name = e.name;
      if (name.charCodeAt(0) === 46) continue;
      const abs = dir + sep + name;
      const rel = prefix + name;
      if (e.isDirectory()) walk(abs, rel + "/");
      else if (e.isFile()) {
        if (name.endsWith(".md")) page(abs, rel);
      } else if (e.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(abs);
        } catch {
          if (name.endsWith(".md")) {
            failed++;
            ctx.log.error(`${wiki.show(abs)}: dangling symlink`);
          }
          continue;
        }
        if (!within(target, real)) {
          failed++;
          ctx.log.error(`${wiki.show(abs)}: symlink points outside .forge/wiki/ (refused)`);
        } else if (name.endsWith(".md") && statSync(target).isFile()) page(abs, rel);
      }
    }
  };
  walk(wiki.dir, "");
  pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { pages, failed };
}

export default defineCommand({
  meta: {
    name: "list",
    description: "List wiki pages: path and title",
    help: {
      reads: [[".forge/wiki/<page>.md", "the pages (markdown; the title is the first # heading)"]],
      examples: ["forge-wiki list", "forge-wiki list --json path --jq '.[].path'"],
    },
  },
  args: { ...JSON_FLAGS },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const req = jsonRequest(args);
    const { pages, failed } = listPages(ctx);
    await emit(ctx.io, ctx.out, pages, pageRender(args, req, false));
    return failed ? 1 : 0;
  },
});
