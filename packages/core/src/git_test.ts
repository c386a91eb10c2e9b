import test from "ava";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, gitBytes, gitMessage, gitTopLevel, withWorktree } from "./git.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

test("gitBytes() keeps stdout byte for byte where git() would decode it", async (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-git-")));
  made.push(dir);
  execFileSync("git", ["init", "-q", dir]);
  const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0x0a]);
  writeFileSync(join(dir, "latin1.txt"), bytes);
  const id = (await git(["hash-object", "-w", "latin1.txt"], { cwd: dir })).stdout.trim();
  const r = await gitBytes(["cat-file", "blob", id], { cwd: dir });
  t.is(r.code, 0);
  t.deepEqual(r.stdout, bytes);
  t.notDeepEqual(Buffer.from((await git(["cat-file", "blob", id], { cwd: dir })).stdout), bytes);
});

test("gitBytes() reports a non-zero exit with stderr, without throwing", async (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-git-")));
  made.push(dir);
  execFileSync("git", ["init", "-q", dir]);
  const r = await gitBytes(["cat-file", "blob", "0000000000000000000000000000000000000000"], { cwd: dir });
  t.not(r.code, 0);
  t.true(r.stderr.length > 0);
});

/** A repo with one commit; returns its folder and commit. */
function repo(): { dir: string; sha: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-git-")));
  made.push(dir);
  const g = (...a: string[]) => execFileSync("git", a, { cwd: dir, encoding: "utf8" });
  g("init", "-q", "-b", "main");
  writeFileSync(join(dir, "a.txt"), "a\n");
  g("add", ".");
  g("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "one");
  return { dir, sha: g("rev-parse", "HEAD").trim() };
}

test("withWorktree() runs in a detached worktree of the commit and removes it after, also when fn throws", async (t) => {
  const { dir, sha } = repo();
  let seen = "";
  const head = await withWorktree(dir, sha, undefined, async (wt, tmp) => {
    seen = wt;
    t.true(existsSync(tmp));
    writeFileSync(join(wt, "a.txt"), "changed\n");
    return (await git(["rev-parse", "HEAD"], { cwd: wt })).stdout.trim();
  });
  t.is(head, sha);
  t.false(existsSync(seen));
  await t.throwsAsync(withWorktree(dir, sha, undefined, async (wt) => {
    seen = wt;
    throw new Error("boom");
  }), { message: "boom" });
  t.false(existsSync(seen));
  t.is((await git(["worktree", "list", "--porcelain"], { cwd: dir })).stdout.split("\n").filter((l) => l.startsWith("worktree ")).length, 1);
  t.is(execFileSync("git", ["status", "--porcelain"], { cwd: dir, encoding: "utf8" }), "", "the live checkout is untouched");
  await t.throwsAsync(withWorktree(dir, "f".repeat(40), undefined, async () => 1), { message: /^cannot check out ffffffffffff in a worktree: / });
});

test("gitMessage() is git's first meaningful line; gitTopLevel() names why a repository was needed", async (t) => {
  t.is(gitMessage("hint: try this\nfatal: not a git repository\n"), "not a git repository");
  t.is(gitMessage("error: a\x1bb\n"), "a?b");
  t.is(gitMessage(""), "no message");
  const { dir } = repo();
  t.is(await gitTopLevel(join(dir), undefined, "x"), dir);
  const none = realpathSync(mkdtempSync(join(tmpdir(), "forge-nogit-")));
  made.push(none);
  await t.throwsAsync(gitTopLevel(none, { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() }, "a merge needs one"), { message: "not in a git repository (a merge needs one)" });
});
