import test from "ava";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bindPositionals, parseArgv } from "@forge/cli";
import { getPage } from "./get.js";
import put, { parsePutOptions, putPage, readPageText } from "./put.js";
import { removeTemps, tempCtx } from "@forge/cli";

test.after.always(removeTemps);

test("putPage() creates the page and its folders, then updates it; getPage() returns the bytes", (t) => {
  const ctx = tempCtx();
  const first = putPage(ctx, { name: "docs/setup" }, Buffer.from("# Setup\n"));
  t.deepEqual(first, { page: { path: "docs/setup.md", size: 8, title: "Setup" }, created: true });
  const again = putPage(ctx, { name: "docs/setup.md" }, Buffer.from("# Set up\nmore\n"));
  t.deepEqual(again, { page: { path: "docs/setup.md", size: 14, title: "Set up" }, created: false });
  t.is(readFileSync(join(ctx.root, ".forge/wiki/docs/setup.md"), "utf8"), "# Set up\nmore\n");
  t.deepEqual(getPage(ctx, { name: "docs/setup" }), Buffer.from("# Set up\nmore\n"));
  t.deepEqual(readdirSync(join(ctx.root, ".forge/wiki/docs")), ["setup.md"], "no temp file left");
});

test("putPage() stores bytes that are not UTF-8 unchanged", (t) => {
  const ctx = tempCtx();
  const bytes = Buffer.from([0x23, 0x20, 0x41, 0x0a, 0xff, 0x00, 0x0a]);
  putPage(ctx, { name: "bin" }, bytes);
  t.deepEqual(readFileSync(join(ctx.root, ".forge/wiki/bin.md")), bytes);
  t.deepEqual(getPage(ctx, { name: "bin" }), bytes);
});

test("putPage() refuses an empty text and a page over 256 KiB, writing nothing", (t) => {
  const ctx = tempCtx();
  t.throws(() => putPage(ctx, { name: "x" }, Buffer.alloc(0)), { message: /no page text/ });
  t.throws(() => putPage(ctx, { name: "x" }, Buffer.alloc(256 * 1024 + 1, 0x61)), {
    message: "page larger than 256 KiB (refused)",
  });
  t.false(existsSync(join(ctx.root, ".forge/wiki")));
});

test("readPageText() stops reading past 256 KiB", async (t) => {
  await t.throwsAsync(readPageText(tempCtx("x".repeat(256 * 1024 + 1))), {
    message: "page larger than 256 KiB (refused)",
  });
  t.is((await readPageText(tempCtx("# Hi\n"))).toString(), "# Hi\n");
});

test("putPage() refuses to write through a symlinked page or a folder that leaves the wiki", (t) => {
  const ctx = tempCtx();
  const wiki = join(ctx.root, ".forge", "wiki");
  mkdirSync(wiki);
  writeFileSync(join(ctx.root, "target.md"), "keep\n");
  symlinkSync(join(ctx.root, "target.md"), join(wiki, "link.md"));
  mkdirSync(join(ctx.root, "outside"));
  symlinkSync(join(ctx.root, "outside"), join(wiki, "out"));
  t.throws(() => putPage(ctx, { name: "link" }, Buffer.from("x")), {
    message: ".forge/wiki/link.md: is a symlink (refused)",
  });
  t.throws(() => putPage(ctx, { name: "out/x" }, Buffer.from("x")), {
    message: ".forge/wiki/out: symlink points outside .forge/ (refused)",
  });
  t.is(readFileSync(join(ctx.root, "target.md"), "utf8"), "keep\n");
  t.deepEqual(readdirSync(join(ctx.root, "outside")), []);
});

test("putPage() refuses a folder where the page would go", (t) => {
  const ctx = tempCtx();
  mkdirSync(join(ctx.root, ".forge", "wiki", "x.md"), { recursive: true });
  t.throws(() => putPage(ctx, { name: "x" }, Buffer.from("# X\n")), {
    message: ".forge/wiki/x.md: not a regular file",
  });
});

const parse = (argv: string[]) => {
  const args = parseArgv(argv, put.args);
  bindPositionals(args, put.args);
  return parsePutOptions(args);
};

test("parsePutOptions() checks the name before anything is read", (t) => {
  t.deepEqual(parse(["docs/a"]), { name: "docs/a", rel: "docs/a.md" });
  t.throws(() => parse(["../a"]), { message: /invalid page name/ });
});

test("getPage() says which page is missing, and refuses a folder symlinked out of the wiki", (t) => {
  const ctx = tempCtx();
  t.throws(() => getPage(ctx, { name: "nope" }), { message: "no page 'nope.md' in .forge/wiki/" });
  mkdirSync(join(ctx.root, ".forge", "wiki"));
  mkdirSync(join(ctx.root, "outside"));
  writeFileSync(join(ctx.root, "outside", "secret.md"), "secret\n");
  symlinkSync(join(ctx.root, "outside"), join(ctx.root, ".forge", "wiki", "out"));
  t.throws(() => getPage(ctx, { name: "out/secret" }), {
    message: ".forge/wiki/out/secret.md: folder resolves outside .forge/wiki/ (refused)",
  });
});
