import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateWiki } from "./gen_wiki.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

test("generateWiki() writes N nested pages whose first H1 forge-wiki list finds, and nothing else", (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-genwiki-")));
  try {
    const s = generateWiki(dir, 60, 7);
    t.is(s.pages.length, 60);
    t.true(
      s.pages.some((p) => p.path.split("/").length === 4),
      "three folders deep"
    );
    const r = spawnSync(join(ROOT, "bin", "forge-wiki"), ["list", "--json", "path,title"], {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
    });
    t.is(r.status, 0, r.stderr);
    t.is(r.stderr, "");
    const got = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { path: string; title: string });
    const want = [...s.pages].sort((a, b) => (a.path < b.path ? -1 : 1));
    t.deepEqual(got, want);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("generateWiki() is deterministic for a seed", (t) => {
  const a = realpathSync(mkdtempSync(join(tmpdir(), "forge-genwiki-")));
  const b = realpathSync(mkdtempSync(join(tmpdir(), "forge-genwiki-")));
  try {
    t.deepEqual(generateWiki(a, 20, 3).pages, generateWiki(b, 20, 3).pages);
  } finally {
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  }
});
