import test from "ava";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  branchCommit,
  checkBranch,
  currentBranch,
  hasCommit,
  isSha,
  leftOutLine,
  makePatch,
  withPatchApplied,
} from "./_git.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_DATE: "2020-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2020-01-01T00:00:00Z",
};

/** main: one commit; topic: two more. */
function repo(): { dir: string; git: (...a: string[]) => string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-prgit-")));
  made.push(dir);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8", env: ENV });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "t");
  git("config", "user.email", "t@e");
  writeFileSync(join(dir, "a.txt"), "1\n");
  git("add", ".");
  git("commit", "-qm", "base");
  git("checkout", "-qb", "topic");
  writeFileSync(join(dir, "a.txt"), "1\n2\n");
  git("commit", "-qam", "two");
  writeFileSync(join(dir, "b.txt"), "b\n");
  git("add", ".");
  git("commit", "-qm", "b");
  return { dir, git };
}

function worktrees(git: (...a: string[]) => string): number {
  return git("worktree", "list", "--porcelain")
    .split("\n")
    .filter((l) => l.startsWith("worktree ")).length;
}

test("checkBranch() accepts what git accepts and refuses flags, spaces and control characters", async (t) => {
  const { dir } = repo();
  t.is(await checkBranch(dir, "feat/x;y"), "feat/x;y");
  for (const bad of ["--upload-pack=x", "-x", "a b", "a..b", "x\ny", "x\x1b[31m", "", "HEAD"]) {
    await t.throwsAsync(
      checkBranch(dir, bad),
      { code: "E_USAGE", message: /^invalid branch name '[^\n\x1b]*'$/ },
      JSON.stringify(bad)
    );
  }
});

test("currentBranch() names the checked-out branch and refuses a detached HEAD", async (t) => {
  const { dir, git } = repo();
  t.is(await currentBranch(dir), "topic");
  git("checkout", "-q", "--detach");
  await t.throwsAsync(currentBranch(dir), { code: "E_USAGE", message: /detached/ });
});

test("branchCommit() resolves a branch and says which one is missing", async (t) => {
  const { dir, git } = repo();
  t.is(await branchCommit(dir, "main"), git("rev-parse", "main").trim());
  await t.throwsAsync(branchCommit(dir, "nope"), { code: "E_NOT_FOUND", message: "no branch 'nope'" });
});

test("makePatch() is format-patch of merge-base..head, and refuses an empty range", async (t) => {
  const { dir, git } = repo();
  const p = await makePatch(dir, "main", "topic");
  t.is(p.baseSha, git("rev-parse", "main").trim());
  t.is(p.headSha, git("rev-parse", "topic").trim());
  t.deepEqual(
    p.bytes,
    execFileSync("git", ["format-patch", "--stdout", "--no-signature", "main..topic"], { cwd: dir, env: ENV })
  );
  await t.throwsAsync(makePatch(dir, "topic", "main"), {
    code: "E_EMPTY_RANGE",
    message: "No commits between topic and main",
  });
  await t.throwsAsync(makePatch(dir, "main", "main"), { code: "E_EMPTY_RANGE" });
});

test("makePatch() uses the merge base when the base branch moved on", async (t) => {
  const { dir, git } = repo();
  const fork = git("rev-parse", "main").trim();
  git("checkout", "-q", "main");
  writeFileSync(join(dir, "c.txt"), "c\n");
  git("add", ".");
  git("commit", "-qm", "main moves");
  const p = await makePatch(dir, "main", "topic");
  t.is(p.baseSha, fork);
});

test("makePatch() does not depend on the user's diff prefixes or signature", async (t) => {
  const { dir, git } = repo();
  const plain = await makePatch(dir, "main", "topic");
  git("config", "diff.noprefix", "true");
  git("config", "format.signature", "custom");
  t.deepEqual((await makePatch(dir, "main", "topic")).bytes, plain.bytes);
});

test("withPatchApplied() rebuilds the head in a disposable worktree and removes it", async (t) => {
  const { dir, git } = repo();
  const p = await makePatch(dir, "main", "topic");
  let seen = "";
  const tree = await withPatchApplied(dir, ENV, p.baseSha, p.bytes, true, async (wt, head) => {
    seen = wt;
    t.true(existsSync(join(wt, "b.txt")));
    return execFileSync("git", ["rev-parse", `${head}^{tree}`], { cwd: wt, encoding: "utf8" }).trim();
  });
  t.is(tree, git("rev-parse", "topic^{tree}").trim());
  t.true(seen.startsWith(realpathSync(tmpdir())) || seen.startsWith(tmpdir()));
  t.false(existsSync(dirname(seen)), "the temp folder is removed");
  t.is(worktrees(git), 1);
  t.is(git("status", "--porcelain"), "");
});

test("withPatchApplied() without keep writes no object into the repository", async (t) => {
  const { dir, git } = repo();
  const p = await makePatch(dir, "main", "topic");
  git("checkout", "-q", "main");
  git("branch", "-D", "topic");
  git("reflog", "expire", "--expire=now", "--all");
  git("gc", "-q", "--prune=now");
  const objects = () => git("count-objects", "-v");
  const before = objects();
  const head = await withPatchApplied(dir, ENV, p.baseSha, p.bytes, false, async (wt, h, env) => {
    t.is(execFileSync("git", ["rev-parse", `${h}^{tree}`], { cwd: wt, encoding: "utf8", env }).trim().length, 40);
    return h;
  });
  t.is(objects(), before);
  t.throws(() => execFileSync("git", ["cat-file", "-e", head], { cwd: dir, stdio: "ignore" }));
});

test("withPatchApplied() reports a patch that does not apply and leaves no worktree", async (t) => {
  const { dir, git } = repo();
  const p = await makePatch(dir, "main", "topic");
  const other = git("rev-parse", "topic").trim(); // the patch's changes are already there
  await t.throwsAsync(
    withPatchApplied(dir, ENV, other, p.bytes, true, async () => "x"),
    { code: "E_PATCH_FAILED", message: /does not apply on/ }
  );
  t.is(worktrees(git), 1);
});

test("hasCommit() and isSha() accept only full hex ids of commits that exist", async (t) => {
  const { dir, git } = repo();
  const head = git("rev-parse", "HEAD").trim();
  t.true(await hasCommit(dir, head));
  t.false(await hasCommit(dir, "0".repeat(40)));
  t.false(await hasCommit(dir, "--output=/tmp/x"));
  t.false(await hasCommit(dir, undefined));
  t.false(isSha(head.slice(0, 12)));
  t.false(isSha(head.toUpperCase()));
});

test("makePatch() with a store leaves the store's paths out and names them", async (t) => {
  const { dir, git } = repo();
  const store = join(dir, ".forge");
  mkdirSync(join(store, "prs", "x"), { recursive: true });
  writeFileSync(join(store, "prs", "x", "pr.md"), "forge's own write\n");
  writeFileSync(join(dir, "a.txt"), "1\n2\n3\n");
  git("add", "-A");
  git("commit", "-qm", "app and store");
  const p = await makePatch(dir, "main", "topic", store);
  const text = p.bytes.toString();
  t.false(text.includes(".forge"), text);
  t.true(text.includes("+3"));
  t.deepEqual(p.left, [".forge/prs/x/pr.md"]);
  t.regex(leftOutLine(p.left)!, /^left out of the patch .*forge sync.*: \.forge\/prs\/x\/pr\.md$/);
  t.is(leftOutLine([]), undefined);
  // Without a store, the patch is what it was.
  t.true((await makePatch(dir, "main", "topic")).bytes.toString().includes(".forge/prs/x/pr.md"));
  // A range that changes only the store has no patch, and says why.
  git("checkout", "-qb", "only-store", "main");
  mkdirSync(join(store, "issues"), { recursive: true });
  writeFileSync(join(store, "issues", "i.md"), "x\n");
  git("add", "-A");
  git("commit", "-qm", "store only");
  await t.throwsAsync(makePatch(dir, "main", "only-store", store), {
    code: "E_EMPTY_RANGE",
    message: /change only \.forge\/ \(forge's store\)/,
  });
});
