import test from "ava";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  codeTree,
  codeTreeOfListing,
  git,
  gitBytes,
  gitMessage,
  gitTopLevel,
  headCommit,
  withWorktree,
  workspaceCodeTree,
} from "./git.js";

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

test(
  "withWorktree() runs in a detached worktree of the " + "commit and removes it after, also when fn throws",
  async (t) => {
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
    await t.throwsAsync(
      withWorktree(dir, sha, undefined, async (wt) => {
        seen = wt;
        throw new Error("boom");
      }),
      { message: "boom" }
    );
    t.false(existsSync(seen));
    t.is(
      (await git(["worktree", "list", "--porcelain"], { cwd: dir })).stdout
        .split("\n")
        .filter((l) => l.startsWith("worktree ")).length,
      1
    );
    t.is(
      execFileSync("git", ["status", "--porcelain"], { cwd: dir, encoding: "utf8" }),
      "",
      "the live checkout is untouched"
    );
    await t.throwsAsync(
      withWorktree(dir, "f".repeat(40), undefined, async () => 1),
      { message: /^cannot check out ffffffffffff in a worktree: / }
    );
  }
);

test(
  "withWorktree() called 16 times at once on one repository: every call gets its own worktree, none fails (the " +
    "names git derives never collide)",
  async (t) => {
    const { dir, sha } = repo();
    const dirs = await Promise.all(
      Array.from({ length: 16 }, () =>
        withWorktree(dir, sha, undefined, async (wt) => {
          t.is((await git(["rev-parse", "HEAD"], { cwd: wt })).stdout.trim(), sha);
          return wt;
        })
      )
    );
    t.is(new Set(dirs).size, 16);
    t.is(
      (await git(["worktree", "list", "--porcelain"], { cwd: dir })).stdout
        .split("\n")
        .filter((l) => l.startsWith("worktree ")).length,
      1,
      "all removed"
    );
  }
);

test(
  "withWorktree() waits out another add's half-written worktree (git dies on its empty commondir) and then " +
    "succeeds; a commit that does not exist fails at once",
  async (t) => {
    const { dir, sha } = repo();
    // What another `git worktree add` leaves for a moment: its admin folder, gitdir written, commondir still empty.
    const ghost = join(dir, ".git", "worktrees", "ghost");
    mkdirSync(ghost, { recursive: true });
    writeFileSync(join(ghost, "gitdir"), join(dir, "..", "ghost-wt", ".git") + "\n");
    writeFileSync(join(ghost, "HEAD"), sha + "\n");
    writeFileSync(join(ghost, "commondir"), "");
    const blocked = await git(["worktree", "add", "--detach", "--quiet", join(dir, "..", "probe"), sha], { cwd: dir });
    t.regex(blocked.stderr, /failed to read .*commondir/, "git itself dies on the half-written worktree");
    const filled = setTimeout(() => writeFileSync(join(ghost, "commondir"), "../..\n"), 300);
    try {
      t.is(
        await withWorktree(dir, sha, undefined, async (wt) =>
          (await git(["rev-parse", "HEAD"], { cwd: wt })).stdout.trim()
        ),
        sha
      );
    } finally {
      clearTimeout(filled);
    }
    // Counted in git's own trace, not timed: each retry (after a pause) is one more `worktree add`.
    const trace = join(mkdtempSync(join(tmpdir(), "forge-trace-")), "trace.txt");
    await t.throwsAsync(
      withWorktree(dir, "e".repeat(40), { ...process.env, GIT_TRACE: trace }, async () => 1),
      { message: /^cannot check out/ }
    );
    const adds = readFileSync(trace, "utf8")
      .split("\n")
      .filter((l) => l.includes("built-in: git worktree add "));
    t.is(adds.length, 1, "tried once, no pause: a commit that is not there");
  }
);

test("gitMessage() is git's first meaningful line; gitTopLevel() names why a repository was needed", async (t) => {
  t.is(gitMessage("hint: try this\nfatal: not a git repository\n"), "not a git repository");
  t.is(gitMessage("error: a\x1bb\n"), "a?b");
  t.is(gitMessage(""), "no message");
  const { dir } = repo();
  t.is(await gitTopLevel(join(dir), undefined, "x"), dir);
  const none = realpathSync(mkdtempSync(join(tmpdir(), "forge-nogit-")));
  made.push(none);
  await t.throwsAsync(gitTopLevel(none, { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() }, "a merge needs one"), {
    message: "not in a git repository (a merge needs one)",
  });
});

test(
  "codeTree() is git mktree of the root listing " + "without .forge, and .forge commits leave it unchanged",
  async (t) => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-git-")));
    made.push(dir);
    const g = (args: string[], input?: string) => execFileSync("git", args, { cwd: dir, encoding: "utf8", input });
    g(["init", "-q", "-b", "main"]);
    g(["config", "user.name", "t"]);
    g(["config", "user.email", "t@example.com"]);
    execFileSync("mkdir", ["-p", join(dir, ".forge", "issues"), join(dir, "src"), join(dir, ".forgery")]);
    writeFileSync(join(dir, "a.txt"), "a\n");
    writeFileSync(join(dir, "src", "tab\tname é.txt"), "x\n");
    writeFileSync(join(dir, ".forgery", "k"), "k\n");
    writeFileSync(join(dir, ".forge", "issues", "one.md"), "1\n");
    execFileSync("ln", ["-s", "a.txt", join(dir, "link")]);
    execFileSync("chmod", ["+x", join(dir, "a.txt")]);
    g(["add", "-A"]);
    g(["commit", "-q", "-m", "one"]);
    const listing = g(["ls-tree", "-z", "HEAD"])
      .split("\0")
      .filter((l) => l !== "" && !l.endsWith("\t.forge"))
      .map((l) => l + "\0")
      .join("");
    const want = g(["mktree", "-z"], listing).trim();
    const first = await codeTree(dir, "HEAD");
    t.is(first, want);
    t.not(first, g(["rev-parse", "HEAD^{tree}"]).trim());
    writeFileSync(join(dir, ".forge", "issues", "two.md"), "2\n");
    g(["add", "-A"]);
    g(["commit", "-q", "-m", "forge state"]);
    t.is(await codeTree(dir, "HEAD"), first);
    writeFileSync(join(dir, "a.txt"), "b\n");
    g(["commit", "-q", "-am", "code"]);
    t.not(await codeTree(dir, "HEAD"), first);
    t.is(codeTreeOfListing(Buffer.alloc(0)), "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
    await t.throwsAsync(codeTree(dir, "0".repeat(40)), { message: /cannot list the tree/ });
  }
);

// The workspace's code tree (once forge-loop's own code_tree.ts; one definition of a code tree, spec/loop.md §4).

const wsEnv = { PATH: process.env.PATH, HOME: process.env.HOME, GIT_CONFIG_NOSYSTEM: "1" } as NodeJS.ProcessEnv;

function wsRepo(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "loop-tree-")));
  made.push(d);
  const g = (...a: string[]) => execFileSync("git", a, { cwd: d, env: wsEnv });
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

test("workspaceCodeTree() of a clean workspace is its commit's codeTree(), and .forge/ never changes it", async (t) => {
  const d = wsRepo();
  const head = (await headCommit(d, wsEnv))!;
  t.regex(head, /^[0-9a-f]{40}$/);
  const tree = await workspaceCodeTree(d, wsEnv);
  t.regex(tree!, /^[0-9a-f]{40}$/);
  t.is(await codeTree(d, head, wsEnv), tree!);
  writeFileSync(join(d, ".forge", "x.md"), "changed\n");
  writeFileSync(join(d, ".forge", "new.md"), "new\n");
  t.is(await workspaceCodeTree(d, wsEnv), tree);
});

test("workspaceCodeTree() sees uncommitted and untracked changes, and leaves the real index alone", async (t) => {
  const d = wsRepo();
  const tree = await workspaceCodeTree(d, wsEnv);
  const index = readFileSync(join(d, ".git", "index"));
  writeFileSync(join(d, "b.txt"), "b\n");
  const withB = await workspaceCodeTree(d, wsEnv);
  t.not(withB, tree);
  writeFileSync(join(d, "a.txt"), "a2\n");
  t.not(await workspaceCodeTree(d, wsEnv), withB);
  t.deepEqual(readFileSync(join(d, ".git", "index")), index);
});

test("workspaceCodeTree() and headCommit() are null outside git", async (t) => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "loop-nogit-")));
  made.push(d);
  const env = { ...wsEnv, GIT_CEILING_DIRECTORIES: tmpdir() };
  t.is(await headCommit(d, env), null);
  t.is(await workspaceCodeTree(d, env), null);
});
