import test from "ava";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codeTree, headSha } from "./code_tree.js";

const env = { PATH: process.env.PATH, HOME: process.env.HOME, GIT_CONFIG_NOSYSTEM: "1" };

function repo(): string {
  const d = mkdtempSync(join(tmpdir(), "loop-tree-"));
  const g = (...a: string[]) => execFileSync("git", a, { cwd: d, env });
  g("init", "-q", "-b", "main");
  g("config", "user.name", "a");
  g("config", "user.email", "a@x");
  writeFileSync(join(d, "a.txt"), "a\n");
  mkdirSync(join(d, ".forge"));
  writeFileSync(join(d, ".forge", "x.md"), "x\n");
  g("add", "-A");
  g("commit", "-qm", "one");
  return d;
}

test("codeTree() of a clean workspace is its commit's code tree, and .forge/ never changes it", (t) => {
  const d = repo();
  const head = headSha(d, env)!;
  t.regex(head, /^[0-9a-f]{40}$/);
  const tree = codeTree(d, env);
  t.regex(tree!, /^[0-9a-f]{40}$/);
  t.is(codeTree(d, env, head), tree);
  writeFileSync(join(d, ".forge", "x.md"), "changed\n");
  writeFileSync(join(d, ".forge", "new.md"), "new\n");
  t.is(codeTree(d, env), tree);
});

test("codeTree() sees uncommitted and untracked changes, and leaves the real index alone", (t) => {
  const d = repo();
  const tree = codeTree(d, env);
  const index = readFileSync(join(d, ".git", "index"));
  writeFileSync(join(d, "b.txt"), "b\n");
  const withB = codeTree(d, env);
  t.not(withB, tree);
  writeFileSync(join(d, "a.txt"), "a2\n");
  t.not(codeTree(d, env), withB);
  t.deepEqual(readFileSync(join(d, ".git", "index")), index);
});

test("codeTree() and headSha() are null outside git", (t) => {
  const d = mkdtempSync(join(tmpdir(), "loop-nogit-"));
  t.is(headSha(d, env), null);
  t.is(codeTree(d, env), null);
});

test("codeTree() of a commit is core's codeTree() of it (one definition of a code tree, spec/loop.md §4)", async (t) => {
  const { codeTree: coreCodeTree } = await import("@forge/core");
  const d = repo();
  const head = headSha(d, env)!;
  t.is(codeTree(d, env, head), await coreCodeTree(d, head, env as NodeJS.ProcessEnv));
  t.is(codeTree(d, env), await coreCodeTree(d, head, env as NodeJS.ProcessEnv), "a clean workspace too");
});
