/**
 * forge-pr end to end on real git repositories: issue → (task) → branch
 * with commits → `forge-pr create` → `forge-pr diff` is exactly
 * `git diff base..head` (from local commits, and rebuilt from patch.diff in
 * a clone that lacks the branch) → review → list; checkout, update, pipes,
 * and hostile titles, branch names and PR files.
 */
import test, { type ExecutionContext } from "ava";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, git, jsonl, run, sh, tempRepo, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** Run forge-pr (or another executable) and expect exit 0. */
async function ok(t: ExecutionContext, cmd: string, args: string[], cwd: string, input?: string): Promise<Ran> {
  const r = await run(cmd, args, { cwd, input });
  t.is(r.code, 0, `${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r;
}

/** git's stdout as bytes (diffs are compared byte for byte). */
function gitBytes(dir: string, args: string[]): Buffer {
  return execFileSync("git", args, { cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
}

/** Whether a commit is in `dir`'s repository. */
function hasCommit(dir: string, sha: string): boolean {
  try {
    execFileSync("git", ["cat-file", "-e", `${sha}^{commit}`], { cwd: dir, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** forge-pr's stdout as bytes. */
function prBytes(dir: string, args: string[]): Buffer {
  return execFileSync(join(BIN, "forge-pr"), args, {
    cwd: dir,
    env: { ...process.env, FORGE_AUTHOR: "alice", NO_COLOR: "1" },
  });
}

/** A repo with a commit on main, the store committed, and `feature` two commits ahead (checked out). */
function repoWithBranch(): string {
  const dir = scratch(tempRepo("forge-prflow-"));
  writeFileSync(join(dir, "app.txt"), "line 1\nline 2\nline 3\n");
  writeFileSync(join(dir, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  git(dir, ["checkout", "-qb", "feature"]);
  writeFileSync(join(dir, "app.txt"), "line 1\nline two\nline 3\nline 4\n");
  writeFileSync(join(dir, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x21, 0x0a]));
  git(dir, ["commit", "-qam", "edit app and latin1"]);
  writeFileSync(join(dir, "new file.txt"), "new\n");
  git(dir, ["add", "new file.txt"]);
  git(dir, ["commit", "-qm", "add a file with a space"]);
  return dir;
}

function prFiles(dir: string): string[] {
  const p = join(dir, ".forge", "prs");
  return existsSync(p) ? readdirSync(p).filter((n) => !n.startsWith(".")) : [];
}

test(
  "issue → task → branch → create --issue 1 → diff is git " + "diff main..branch → approve → list --jq prints APPROVED",
  async (t) => {
    const dir = scratch(tempRepo("forge-prflow-"));
    await ok(t, "forge-issue", ["create", "-t", "The app says 'line 2'"], dir);
    const task = await run("forge-task", ["create", "-t", "Fix line 2", "--issue", "1", "--json", "issue,status"], {
      cwd: dir,
    });
    t.is(task.code, 0, task.stderr);
    const issueId = (
      jsonl((await ok(t, "forge-issue", ["view", "1", "--json", "id"], dir)).stdout)[0] as { id: string }
    ).id;
    const rec = jsonl(task.stdout)[0] as { status: string; issue: unknown };
    t.is(rec.status, "todo");
    t.true(JSON.stringify(rec.issue).includes(issueId), "the task links the issue");
    writeFileSync(join(dir, "app.txt"), "line 1\nline 2\n");
    git(dir, ["add", "app.txt"]);
    git(dir, ["commit", "-qm", "initial"]);
    git(dir, ["checkout", "-qb", "fix/line-2"]);
    writeFileSync(join(dir, "app.txt"), "line 1\nline two\n");
    git(dir, ["commit", "-qam", "say two"]);
    writeFileSync(join(dir, "notes.md"), "# notes\n");
    git(dir, ["add", "notes.md"]);
    git(dir, ["commit", "-qm", "add notes"]);
    const c = await ok(
      t,
      "forge-pr",
      ["create", "--issue", "1", "-t", "Say two", "--json", "number,headRefName,baseRefName,closingIssuesReferences"],
      dir
    );
    t.like(jsonl(c.stdout)[0], {
      number: 1,
      headRefName: "fix/line-2",
      baseRefName: "main",
      closingIssuesReferences: [{ number: 1 }],
    });
    t.deepEqual(prBytes(dir, ["diff", "1"]), gitBytes(dir, ["diff", "main..fix/line-2"]));
    // As on GitHub, the PR's own author cannot approve it; another can.
    const own = await run("forge-pr", ["review", "1", "--approve", "-b", "lgtm"], { cwd: dir });
    t.deepEqual(
      [own.code, own.stderr],
      [1, "forge-pr review: failed to create review: Can not approve your own pull request\n"]
    );
    const other = await run("forge-pr", ["review", "1", "--approve", "-b", "lgtm"], {
      cwd: dir,
      env: { FORGE_AUTHOR: "bob" },
    });
    t.is(other.code, 0, other.stderr);
    const l = await ok(t, "forge-pr", ["list", "--json", "--jq", ".[0].reviews[0].state"], dir);
    t.is(l.stdout, "APPROVED\n");
  }
);

test(
  "diff from local commits is byte for byte git diff base..head, latin-1 bytes and a spaced path included; " +
    "--name-only too",
  async (t) => {
    const dir = repoWithBranch();
    await ok(t, "forge-pr", ["create", "-t", "Feature"], dir);
    const want = gitBytes(dir, ["diff", "main..feature"]);
    t.true(want.includes(Buffer.from([0xe9, 0x21])), "the diff holds a non-UTF-8 byte");
    t.deepEqual(prBytes(dir, ["diff", "1"]), want);
    t.deepEqual(prBytes(dir, ["diff", "1", "--name-only"]), gitBytes(dir, ["diff", "--name-only", "main..feature"]));
    const id = prFiles(dir)[0]!;
    t.deepEqual(prBytes(dir, ["diff", "1", "--patch"]), readFileSync(join(dir, ".forge", "prs", id, "patch.diff")));
  }
);

test(
  "diff in a clone without the head branch rebuilds it " + "from patch.diff in a disposable worktree, byte for byte",
  async (t) => {
    const dir = repoWithBranch();
    const c = await ok(t, "forge-pr", ["create", "-t", "Feature", "--json", "headRefOid"], dir);
    const head = (jsonl(c.stdout)[0] as { headRefOid: string }).headRefOid;
    const want = gitBytes(dir, ["diff", "main..feature"]);
    const names = gitBytes(dir, ["diff", "--name-only", "main..feature"]);
    git(dir, ["checkout", "-q", "main"]);
    git(dir, ["add", ".forge"]);
    git(dir, ["commit", "-qm", "store"]);
    const clone = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-prclone-"))));
    git(clone, ["clone", "-q", "--no-local", "--single-branch", "--branch", "main", dir, "."]);
    t.false(hasCommit(clone, head), "the clone lacks the head commit");
    const objects = git(clone, ["count-objects"]);
    t.deepEqual(prBytes(clone, ["diff", "1"]), want);
    t.deepEqual(prBytes(clone, ["diff", "1", "--name-only"]), names);
    t.is(
      git(clone, ["worktree", "list", "--porcelain"])
        .split("\n")
        .filter((l) => l.startsWith("worktree ")).length,
      1,
      "no worktree left"
    );
    t.is(git(clone, ["status", "--porcelain"]), "", "the clone's checkout is untouched");
    t.is(git(clone, ["count-objects"]), objects, "diff wrote no object into the clone");
    t.false(hasCommit(clone, head), "the original head is still not here");
  }
);

test("create defaults: head is the current branch, base is ci.env's base, else main", async (t) => {
  const dir = repoWithBranch();
  git(dir, ["branch", "trunk", "main"]);
  mkdirSync(join(dir, ".forge", "ci"), { recursive: true });
  writeFileSync(join(dir, ".forge", "ci", "ci.env"), "runner=local\nbase=trunk\n");
  const r = await ok(t, "forge-pr", ["create", "-t", "x", "--json", "baseRefName,headRefName"], dir);
  t.deepEqual(jsonl(r.stdout), [{ baseRefName: "trunk", headRefName: "feature" }]);
});

test("create refuses an empty range and a detached HEAD with one line, writing nothing", async (t) => {
  const dir = repoWithBranch();
  git(dir, ["checkout", "-q", "main"]);
  const empty = await run("forge-pr", ["create", "-t", "x"], { cwd: dir });
  t.is(empty.code, 1);
  t.is(empty.stderr, "forge-pr create: No commits between main and main\n");
  git(dir, ["checkout", "-q", "--detach", "feature"]);
  const detached = await run("forge-pr", ["create", "-t", "x"], { cwd: dir });
  t.is(detached.code, 2);
  t.regex(detached.stderr, /^forge-pr create: HEAD is detached: name the head branch with --head .*\n$/);
  t.deepEqual(prFiles(dir), []);
});

test(
  "checkout makes the head branch from baseSha + git am, checks out the existing head as gh does, --force " +
    "resets, --branch names another",
  async (t) => {
    const dir = repoWithBranch();
    await ok(t, "forge-pr", ["create", "-t", "Feature"], dir);
    const tree = git(dir, ["rev-parse", "feature^{tree}"]).trim();
    git(dir, ["checkout", "-q", "main"]);
    // gh: a local branch that exists is checked out (issue 31; it was refused before).
    const head = git(dir, ["rev-parse", "feature"]).trim();
    const existing = await run("forge-pr", ["checkout", "1"], { cwd: dir });
    t.is(existing.code, 0, existing.stderr);
    t.is(git(dir, ["branch", "--show-current"]).trim(), "feature");
    t.is(git(dir, ["rev-parse", "HEAD"]).trim(), head, "the branch is not moved");
    git(dir, ["checkout", "-q", "main"]);
    const other = await ok(t, "forge-pr", ["checkout", "1", "--branch", "review/1"], dir);
    t.regex(other.stderr, /Checked out pull request #1 \(Feature\) on branch review\/1/);
    t.is(git(dir, ["branch", "--show-current"]).trim(), "review/1");
    t.is(git(dir, ["rev-parse", "HEAD^{tree}"]).trim(), tree, "the same files as the PR's head");
    t.is(git(dir, ["rev-list", "--count", "main..HEAD"]).trim(), "2", "one commit per patch mail");
    git(dir, ["checkout", "-q", "main"]);
    git(dir, ["branch", "-D", "feature"]);
    git(dir, ["branch", "feature", "main"]);
    await ok(t, "forge-pr", ["checkout", "1", "--force"], dir);
    t.is(git(dir, ["rev-parse", "feature^{tree}"]).trim(), tree);
    t.is(
      git(dir, ["worktree", "list", "--porcelain"])
        .split("\n")
        .filter((l) => l.startsWith("worktree ")).length,
      1
    );
  }
);

test(
  "update after the head moved: new patch and digest, previous digest recorded, ci cleared, old patch in git " +
    "history",
  async (t) => {
    const dir = repoWithBranch();
    git(dir, ["checkout", "-q", "main"]);
    const c = await ok(t, "forge-pr", ["create", "-t", "Feature", "-H", "feature", "--json", "id,patchSha256"], dir);
    const { id, patchSha256: first } = jsonl(c.stdout)[0] as { id: string; patchSha256: string };
    const prMd = join(dir, ".forge", "prs", id, "pr.md");
    writeFileSync(prMd, readFileSync(prMd, "utf8").replace('createdAt: "', 'ci: pass\ncreatedAt: "'));
    t.is((await ok(t, "forge-pr", ["view", "1", "--json", "ci"], dir)).stdout, '{"ci":"pass"}\n');
    git(dir, ["add", ".forge"]);
    git(dir, ["commit", "-qm", "store"]);
    // main moved (the store commit) but the merge base did not: the same patch.
    const same = await ok(t, "forge-pr", ["update", "1"], dir);
    t.regex(same.stderr, /is up to date with feature/);
    git(dir, ["checkout", "-q", "feature"]);
    writeFileSync(join(dir, "app.txt"), "moved\n");
    git(dir, ["commit", "-qam", "head moves"]);
    git(dir, ["checkout", "-q", "main"]);
    const u = await ok(
      t,
      "forge-pr",
      ["update", "1", "--json", "patchSha256,previousPatchSha256,ci,headRefOid,statusCheckRollup"],
      dir
    );
    t.regex(u.stderr, /^Updated pull request #1 \(Feature\)\n$/);
    const rec = jsonl(u.stdout)[0] as {
      patchSha256: string;
      previousPatchSha256: string[];
      ci: null;
      headRefOid: string;
      statusCheckRollup: unknown[];
    };
    t.not(rec.patchSha256, first);
    t.deepEqual(rec.previousPatchSha256, [first]);
    t.is(rec.ci, null);
    t.deepEqual(rec.statusCheckRollup, []);
    t.is(rec.headRefOid, git(dir, ["rev-parse", "feature"]).trim());
    const patch = readFileSync(join(dir, ".forge", "prs", id, "patch.diff"));
    t.is(createHash("sha256").update(patch).digest("hex"), rec.patchSha256);
    t.deepEqual(patch, gitBytes(dir, ["format-patch", "--stdout", "--no-signature", "main~1..feature"]));
    const old = gitBytes(dir, ["show", `HEAD:.forge/prs/${id}/patch.diff`]);
    t.is(createHash("sha256").update(old).digest("hex"), first, "the earlier patch is recoverable from git history");
    t.deepEqual(prBytes(dir, ["diff", "1"]), gitBytes(dir, ["diff", "main...feature"]));
  }
);

test("pipe: forge-pr list --state open --json | forge-pr close - closes every open PR", async (t) => {
  const dir = repoWithBranch();
  await ok(t, "forge-pr", ["create", "-t", "one"], dir);
  git(dir, ["checkout", "-qb", "second", "main"]);
  writeFileSync(join(dir, "second.txt"), "2\n");
  git(dir, ["add", "second.txt"]);
  git(dir, ["commit", "-qm", "second"]);
  await ok(t, "forge-pr", ["create", "-t", "two"], dir);
  await ok(t, "forge-pr", ["close", "1"], dir);
  await ok(t, "forge-pr", ["reopen", "1"], dir);
  const r = await sh("forge-pr list --state open --json | forge-pr close -", { cwd: dir });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "");
  t.deepEqual(r.stderr.split("\n").filter(Boolean).sort(), [
    "Closed pull request #1 (one)",
    "Closed pull request #2 (two)",
  ]);
  const after = await ok(t, "forge-pr", ["list", "--state", "all", "--json", "number,state"], dir);
  t.deepEqual(jsonl(after.stdout), [
    { number: 2, state: "CLOSED" },
    { number: 1, state: "CLOSED" },
  ]);
  t.is((await ok(t, "forge-pr", ["list", "--json"], dir)).stdout, "");
});

test("hostile: a title with shell metacharacters is stored and printed literally and runs nothing", async (t) => {
  const dir = repoWithBranch();
  const title = "$(touch pwned) `touch pwned2`; rm -rf / && echo \"hi\" | cat > x 'q' $HOME \\n";
  const r = await ok(t, "forge-pr", ["create", "-t", title, "-b", "$(touch pwned3)", "--json", "title,body"], dir);
  t.deepEqual(jsonl(r.stdout), [{ title, body: "$(touch pwned3)" }]);
  t.is((await ok(t, "forge-pr", ["list"], dir)).stdout.split("\t")[3], title);
  t.regex(
    (await ok(t, "forge-pr", ["view", "1"], dir)).stdout,
    new RegExp(`^title:\t${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n`)
  );
  for (const f of ["pwned", "pwned2", "pwned3", "x"]) t.false(existsSync(join(dir, f)), f);
});

test(
  "hostile: branch names like --upload-pack=x or a;b " + "are refused with one line and nothing is written",
  async (t) => {
    const dir = repoWithBranch();
    for (const [args, code, msg] of [
      [["--head=--upload-pack=x"], 2, "invalid branch name '--upload-pack=x'"],
      [["--base=--output=/tmp/forge-pwned"], 2, "invalid branch name '--output=/tmp/forge-pwned'"],
      [["-H", "a;b"], 1, "no branch 'a;b'"],
      [["-H", "a b"], 2, "invalid branch name 'a b'"],
      [["-H", "x\x1b[31mred"], 2, "invalid branch name 'x?[31mred'"],
    ] as Array<[string[], number, string]>) {
      const r = await run("forge-pr", ["create", "-t", "x", ...args], { cwd: dir });
      t.is(r.code, code, r.stderr);
      t.is(r.stdout, "");
      t.true(r.stderr.startsWith(`forge-pr create: ${msg}`), r.stderr);
      t.is(r.stderr.split("\n").length, 2, "one line");
    }
    t.false(existsSync("/tmp/forge-pwned"));
    t.deepEqual(prFiles(dir), []);
  }
);

test("hostile: a branch git allows, with ; and $ in it, is used and stored literally", async (t) => {
  const dir = repoWithBranch();
  git(dir, ["branch", "-m", "feature", "x;touch${IFS}pwned"]);
  const r = await ok(t, "forge-pr", ["create", "-t", "odd", "--json", "headRefName"], dir);
  t.deepEqual(jsonl(r.stdout), [{ headRefName: "x;touch${IFS}pwned" }]);
  t.deepEqual(prBytes(dir, ["diff", "1"]), gitBytes(dir, ["diff", "main..x;touch${IFS}pwned"]));
  t.false(existsSync(join(dir, "pwned")));
});

test("hostile: a pr.md whose baseSha or headSha is not a commit id is never handed to git as an option", async (t) => {
  const dir = repoWithBranch();
  const c = await ok(t, "forge-pr", ["create", "-t", "Feature", "--json", "id"], dir);
  const { id } = jsonl(c.stdout)[0] as { id: string };
  const prMd = join(dir, ".forge", "prs", id, "pr.md");
  const text = readFileSync(prMd, "utf8");
  const out = join(dir, "written-by-git");
  writeFileSync(prMd, text.replace(/headSha: .*\n/, `headSha: "--output=${out}"\n`));
  // The head is not a commit id, so the diff is rebuilt from the patch on the base: still the right diff.
  t.deepEqual(prBytes(dir, ["diff", "1"]), gitBytes(dir, ["diff", "main..feature"]));
  writeFileSync(prMd, text.replace(/baseSha: .*\n/, `baseSha: "--output=${out}"\n`));
  for (const args of [
    ["diff", "1"],
    ["checkout", "1", "-b", "y"],
  ]) {
    const r = await run("forge-pr", args, { cwd: dir });
    t.is(r.code, 1);
    t.regex(r.stderr, /^forge-pr \w+: base commit --output=/);
  }
  t.false(existsSync(out));
});

test("hostile: a patch.diff that does not match patchSha256 is refused by diff --patch and checkout", async (t) => {
  const dir = repoWithBranch();
  const c = await ok(t, "forge-pr", ["create", "-t", "Feature", "--json", "id"], dir);
  const { id } = jsonl(c.stdout)[0] as { id: string };
  writeFileSync(
    join(dir, ".forge", "prs", id, "patch.diff"),
    "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
  );
  git(dir, ["checkout", "-q", "main"]);
  for (const args of [
    ["diff", "1", "--patch"],
    ["checkout", "1", "-b", "y"],
    ["view", "1"],
  ]) {
    const r = await run("forge-pr", args, { cwd: dir });
    t.is(r.code, 1, args.join(" "));
    t.is(r.stderr, `forge-pr ${args[0]}: .forge/prs/${id}/patch.diff: does not match the PR's patchSha256\n`);
  }
  t.false(hasCommit(dir, "y"), "no branch y was made");
});
