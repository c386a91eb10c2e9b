import test from "ava";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listPages } from "./list.js";
import { removeTemps, tempCtx } from "@forge/cli";

test.after.always(removeTemps);

function page(root: string, rel: string, text: string): void {
  const abs = join(root, ".forge", "wiki", rel);
  mkdirSync(join(abs, ".."), { recursive: true });
  writeFileSync(abs, text);
}

test("listPages() is empty when there is no wiki", (t) => {
  const ctx = tempCtx();
  t.deepEqual(listPages(ctx), { pages: [], failed: 0 });
});

test("listPages() indexes every page by path (code units), with size and first H1", (t) => {
  const ctx = tempCtx();
  page(ctx.root, "b.md", "intro\n\n# Bee\n");
  page(ctx.root, "a/z.md", "# Deep\n");
  page(ctx.root, "a.md", "no title\n");
  page(ctx.root, "A.md", "---\ntitle: x\n---\n# Upper\n");
  page(ctx.root, "a/b/c.md", "```\n# code\n```\n# C\n");
  t.deepEqual(listPages(ctx), {
    pages: [
      { path: "A.md", size: 25, title: "Upper" },
      { path: "a.md", size: 9, title: null },
      { path: "a/b/c.md", size: 19, title: "C" },
      { path: "a/z.md", size: 7, title: "Deep" },
      { path: "b.md", size: 13, title: "Bee" },
    ],
    failed: 0,
  });
  t.is(ctx.err(), "");
});

test("listPages() skips dot files and folders, temp files and non-.md files", (t) => {
  const ctx = tempCtx();
  page(ctx.root, "ok.md", "# Ok\n");
  page(ctx.root, ".hidden.md", "# no\n");
  page(ctx.root, ".ok.md.123.abcd.tmp", "# no\n");
  page(ctx.root, ".git/x.md", "# no\n");
  page(ctx.root, "image.png", "png");
  t.deepEqual(
    listPages(ctx).pages.map((p) => p.path),
    ["ok.md"]
  );
});

test("listPages() warns about a file whose name is not a page name and skips it", (t) => {
  const ctx = tempCtx();
  page(ctx.root, "My Page.md", "# Spaces\n");
  page(ctx.root, "ok.md", "# Ok\n");
  const r = listPages(ctx);
  t.deepEqual(
    r.pages.map((p) => p.path),
    ["ok.md"]
  );
  t.is(r.failed, 0);
  t.is(ctx.err(), "forge test: warning: .forge/wiki/My Page.md: not a valid page name (skipped)\n");
});

test(
  "listPages() lists a symlinked page inside the wiki, refuses one that leaves it, and does not follow symlinked " +
    "folders",
  (t) => {
    const ctx = tempCtx();
    page(ctx.root, "real.md", "# Real\n");
    page(ctx.root, "sub/x.md", "# X\n");
    writeFileSync(join(ctx.root, "secret.md"), "# Secret\n");
    symlinkSync(join(ctx.root, ".forge", "wiki", "real.md"), join(ctx.root, ".forge", "wiki", "alias.md"));
    symlinkSync(join(ctx.root, "secret.md"), join(ctx.root, ".forge", "wiki", "leak.md"));
    symlinkSync(join(ctx.root, ".forge", "wiki", "sub"), join(ctx.root, ".forge", "wiki", "loop"));
    const r = listPages(ctx);
    t.deepEqual(r.pages, [
      { path: "alias.md", size: 7, title: "Real" },
      { path: "real.md", size: 7, title: "Real" },
      { path: "sub/x.md", size: 4, title: "X" },
    ]);
    t.is(r.failed, 1);
    t.is(ctx.err(), "forge test: .forge/wiki/leak.md: symlink points outside .forge/wiki/ (refused)\n");
    t.false(ctx.err().includes("Secret"));
  }
);

test("listPages() reports a page over 256 KiB and lists the rest", (t) => {
  const ctx = tempCtx();
  page(ctx.root, "big.md", "# Big\n" + "x".repeat(300 * 1024));
  page(ctx.root, "ok.md", "# Ok\n");
  const r = listPages(ctx);
  t.deepEqual(
    r.pages.map((p) => p.path),
    ["ok.md"]
  );
  t.is(r.failed, 1);
  t.is(ctx.err(), "forge test: .forge/wiki/big.md: larger than 256 KiB\n");
});
