/**
 * forge-merge end to end on real git repositories: the whole loop by hand
 * (issue → branch → forge-pr create → forge-ci run → forge-merge → base
 * advanced, PR merged, issue closed, record written; a second merge of the
 * same patch refused), and the fixtures of seeds M6 / SEC-05/06/08: a
 * path-traversal patch, a patch that adds `.git/hooks/…`, a pre-commit hook
 * that would fail (never run), a replayed re-described patch, a conflicting
 * patch, red CI, two PRs in a row where the second then conflicts. After
 * every refusal the base ref is unchanged and no worktree is left behind.
 */
import test, { type ExecutionContext } from "ava";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, sh, tempRepo, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const A = "1\n2\n3\n4\n5\n6\n7\n8\n";

/**
 * A repo with a.txt and one passing CI step on main, everything committed, main
 * checked out (a merge needs a step: no steps is never green).
 */
function repo(): string {
  const dir = scratch(tempRepo("forge-merge-"));
  writeFileSync(join(dir, "a.txt"), A);
  steps(dir, { "10-ok": "true" });
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  return dir;
}

/** Commit `files` on a new branch `name` from `from`, file a PR for it, and go back to main. Returns the PR's id. */
async function branchPr(
  t: ExecutionContext,
  dir: string,
  name: string,
  files: Record<string, string>,
  opts: { from?: string; title?: string; msg?: string; issue?: string } = {}
): Promise<string> {
  git(dir, ["checkout", "-q", "-b", name, opts.from ?? "main"]);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), text);
    git(dir, ["add", f]);
  }
  git(dir, ["commit", "-qm", opts.msg ?? `change on ${name}`]);
  const args = ["create", "-t", opts.title ?? `PR ${name}`, "-B", "main", "--json", "id"];
  if (opts.issue) args.push("--issue", opts.issue);
  const r = await run("forge-pr", args, { cwd: dir });
  t.is(r.code, 0, r.stderr);
  git(dir, ["checkout", "-q", "main"]);
  return (jsonl(r.stdout)[0] as { id: string }).id;
}

/** Write CI steps into the live store. */
function steps(dir: string, scripts: Record<string, string>): void {
  const d = join(dir, ".forge", "ci", "steps");
  mkdirSync(d, { recursive: true });
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(d, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(d, name), 0o755);
  }
}

interface MergeJson {
  verdict: string;
  pr: { number: number; id: string };
  base: string;
  commit: string | null;
  checkout: string;
  conflicts: string[];
  failedStep: string | null;
  record: string | null;
  landed: { record: string; pr: string; number: number | null; by: string } | null;
  closedIssues: Array<{ number: number; id: string }>;
  patchSha256: string;
  patchId: string | null;
}

async function merge(
  dir: string,
  ref: string,
  env?: Record<string, string>
): Promise<Ran & { json: MergeJson | undefined }> {
  const r = await run("forge-merge", [ref, "--json"], { cwd: dir, env });
  const lines = jsonl(r.stdout);
  return { ...r, json: lines[0] as unknown as MergeJson | undefined };
}

function rev(dir: string, ref: string): string {
  return git(dir, ["rev-parse", ref]).trim();
}

function worktrees(dir: string): number {
  return git(dir, ["worktree", "list", "--porcelain"])
    .split("\n")
    .filter((l) => l.startsWith("worktree ")).length;
}

function records(dir: string): string[] {
  const d = join(dir, ".forge", "merges");
  return existsSync(d)
    ? readdirSync(d)
        .filter((n) => n.endsWith(".md"))
        .sort()
    : [];
}

function record(dir: string, id: string): string {
  return readFileSync(join(dir, ".forge", "merges", `${id}.md`), "utf8");
}

async function prJson(dir: string, ref: string): Promise<Record<string, unknown>> {
  const r = await run("forge-pr", ["view", ref, "--json", "state,mergedAt,ci,closed"], { cwd: dir });
  return jsonl(r.stdout)[0]!;
}

/** Replace a PR's patch with `patch`, fixing `patchSha256` as a hostile author editing the files would. */
function forgePatch(dir: string, prId: string, patch: string): void {
  const d = join(dir, ".forge", "prs", prId);
  writeFileSync(join(d, "patch.diff"), patch);
  const sha = createHash("sha256").update(patch).digest("hex");
  const md = readFileSync(join(d, "pr.md"), "utf8").replace(
    /^patchSha256: "?[0-9a-f]{64}"?$/m,
    `patchSha256: "${sha}"`
  );
  writeFileSync(join(d, "pr.md"), md);
}

/** The state a refusal must leave alone. */
function snapshot(dir: string): { main: string; head: string; records: string[]; worktrees: number; status: string } {
  return {
    main: rev(dir, "refs/heads/main"),
    head: rev(dir, "HEAD"),
    records: records(dir),
    worktrees: worktrees(dir),
    status: git(dir, ["status", "--porcelain", "--", ".", ":(exclude).forge"]),
  };
}

// --- the whole loop ---

test(
  "the loop by hand: issue → branch → forge-pr create → forge-ci run → forge-merge: base advanced, PR merged, " +
    "issue closed, record; a second merge is refused",
  async (t) => {
    const dir = repo();
    steps(dir, { "10-test": "grep -q TWO a.txt" });
    const issue = await run("forge-issue", ["create", "-t", "line 2 should be TWO", "--json", "id"], { cwd: dir });
    t.is(issue.code, 0, issue.stderr);
    const issueId = (jsonl(issue.stdout)[0] as { id: string }).id;
    const prId = await branchPr(
      t,
      dir,
      "fix",
      { "a.txt": A.replace("2\n", "TWO\n") },
      { title: "Make line 2 TWO", issue: "1" }
    );
    const ci = await run("forge-ci", ["run", "1", "--json"], { cwd: dir });
    t.is(ci.code, 0, ci.stderr);
    t.is((jsonl(ci.stdout)[0] as { verdict: string }).verdict, "pass");
    const old = rev(dir, "main");

    const m = await merge(dir, "1");
    t.is(m.code, 0, m.stderr);
    const j = m.json!;
    t.is(j.verdict, "merged");
    t.deepEqual(j.pr, { number: 1, id: prId });
    t.is(j.base, "main");
    t.is(j.checkout, "updated");
    t.deepEqual(j.conflicts, []);
    t.deepEqual(j.closedIssues, [{ number: 1, id: issueId }]);
    // The base advanced by exactly one commit whose parent is the old tip, and the checkout has it.
    t.is(rev(dir, "main"), j.commit!);
    t.is(rev(dir, "main^"), old);
    t.is(readFileSync(join(dir, "a.txt"), "utf8"), A.replace("2\n", "TWO\n"));
    t.is(git(dir, ["status", "--porcelain", "--", ".", ":(exclude).forge"]), "");
    // The commit: the PR's author, the PR's title, and a trailer naming the PR.
    t.is(git(dir, ["log", "-1", "--format=%an <%ae>"]).trim(), "alice <alice@example.com>");
    t.is(git(dir, ["log", "-1", "--format=%B"]).trim(), `Make line 2 TWO\n\nMerges PR #1 (${prId})`);
    // The PR and the issue.
    const pr = await prJson(dir, "1");
    t.is(pr.state, "MERGED");
    t.regex(String(pr.mergedAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const is = jsonl((await run("forge-issue", ["view", "1", "--json", "state"], { cwd: dir })).stdout)[0]!;
    t.is(is.state, "CLOSED");
    // The record.
    t.deepEqual(records(dir), [`${j.record}.md`]);
    const rec = record(dir, j.record!);
    for (const [k, v] of [
      ["pr", prId],
      ["patchSha256", j.patchSha256],
      ["patchId", j.patchId],
      ["commit", j.commit],
      ["baseRefName", "main"],
      ["verdict", "merged"],
    ]) {
      t.regex(rec, new RegExp(`\\n${k}: "?${v}"?\\n`), k!);
    }
    t.is(worktrees(dir), 1);

    // The same patch again: refused, nothing changes, no record.
    const before = snapshot(dir);
    const again = await merge(dir, "1");
    t.is(again.code, 1);
    t.is(again.json!.verdict, "already-merged");
    t.is(again.json!.landed!.record, j.record!);
    t.is(again.json!.landed!.pr, prId);
    t.is(again.json!.landed!.number, 1);
    t.regex(
      again.stderr,
      new RegExp(
        /^forge-merge pr: pull request #1 is already merged by pull request #1 /.source +
          /\(record [0-9a-f]{8}, same patchSha256\); nothing was changed\n$/.source
      )
    );
    t.regex(again.stderr, /already merged/);
    t.deepEqual(snapshot(dir), before);
  }
);

test(
  "--json prints one line that jq parses, --json fields and --jq work as everywhere; without them stdout is empty " +
    "and stderr has one line",
  async (t) => {
    const dir = repo();
    await branchPr(t, dir, "fix", { "b.txt": "b\n" });
    const r = await sh("forge-merge 1 --json | jq -e -c '{verdict, checkout, n: .pr.number}'", { cwd: dir });
    t.is(r.code, 0, r.stderr);
    t.is(r.stdout, '{"verdict":"merged","checkout":"updated","n":1}\n');
    await branchPr(t, dir, "fix2", { "c.txt": "c\n" });
    await branchPr(t, dir, "fix3", { "d.txt": "d\n" });
    const f = await run("forge-merge", ["3", "--json", "verdict,checkout"], { cwd: dir });
    t.is(f.code, 0, f.stderr);
    t.is(f.stdout, '{"checkout":"updated","verdict":"merged"}\n');
    const q = await run("forge-merge", ["3", "--jq", ".verdict"], { cwd: dir });
    t.is(q.code, 1);
    t.is(q.stdout, "already-merged\n");
    const h = await run("forge-merge", ["2"], { cwd: dir });
    t.is(h.code, 0, h.stderr);
    t.is(h.stdout, "");
    t.regex(h.stderr, /^Merged pull request #2 into main at [0-9a-f]{12} \(checkout updated\)/);
    t.is(h.stderr.split("\n").length, 2);
  }
);

test(
  "a series of several commits (two touching the same file, one file added then deleted, a rename then an edit) " +
    "merges as one commit with the head's tree",
  async (t) => {
    const dir = repo();
    git(dir, ["checkout", "-q", "-b", "series"]);
    writeFileSync(join(dir, "tmp.txt"), "scratch\n");
    git(dir, ["add", "tmp.txt"]);
    git(dir, ["commit", "-qm", "c0: add a scratch file"]);
    git(dir, ["rm", "-q", "tmp.txt"]);
    git(dir, ["commit", "-qm", "c0b: and delete it"]);
    writeFileSync(join(dir, "a.txt"), A.replace("1\n", "ONE\n"));
    git(dir, ["commit", "-qam", "c1"]);
    writeFileSync(join(dir, "a.txt"), A.replace("1\n", "ONE\n").replace("8\n", "EIGHT\n"));
    writeFileSync(join(dir, "n.txt"), "new\n");
    git(dir, ["add", "-A", "."]);
    git(dir, ["commit", "-qm", "c2"]);
    git(dir, ["mv", "n.txt", "renamed.txt"]);
    git(dir, ["commit", "-qm", "c3: rename"]);
    writeFileSync(join(dir, "renamed.txt"), "new, edited\n");
    git(dir, ["commit", "-qam", "c4: edit the renamed file"]);
    t.is((await run("forge-pr", ["create", "-t", "series"], { cwd: dir })).code, 0);
    git(dir, ["checkout", "-q", "main"]);
    const m = await merge(dir, "1");
    t.is(m.code, 0, m.stderr);
    t.is(rev(dir, "main^{tree}"), rev(dir, "series^{tree}"), "the merged tree is the head's tree");
    t.false(existsSync(join(dir, "tmp.txt")));
    t.is(git(dir, ["show", "main:a.txt"]), A.replace("1\n", "ONE\n").replace("8\n", "EIGHT\n"));
    t.is(git(dir, ["show", "main:renamed.txt"]), "new, edited\n");
    t.is(git(dir, ["rev-list", "--count", "main"]).trim(), "2");
  }
);

test("on another branch only the ref moves (checkout: ref-only) and the working tree is left alone", async (t) => {
  const dir = repo();
  await branchPr(t, dir, "fix", { "a.txt": A.replace("3\n", "THREE\n") });
  git(dir, ["checkout", "-q", "-b", "elsewhere"]);
  const m = await merge(dir, "1");
  t.is(m.code, 0, m.stderr);
  t.is(m.json!.checkout, "ref-only");
  t.is(rev(dir, "main"), m.json!.commit!);
  t.is(readFileSync(join(dir, "a.txt"), "utf8"), A);
  t.is(git(dir, ["status", "--porcelain", "--", ".", ":(exclude).forge"]), "");
  t.is(git(dir, ["symbolic-ref", "--short", "HEAD"]).trim(), "elsewhere");
});

test("on the base with uncommitted changes outside .forge/: refused before any work, nothing changed", async (t) => {
  const dir = repo();
  await branchPr(t, dir, "fix", { "b.txt": "b\n" });
  writeFileSync(join(dir, "a.txt"), A + "local edit\n");
  const before = snapshot(dir);
  const m = await merge(dir, "1");
  t.is(m.code, 1);
  t.is(m.stdout, "");
  t.regex(m.stderr, /^forge-merge pr: the checkout is on main with uncommitted changes outside \.forge\/[^\n]*\n$/);
  t.deepEqual(snapshot(dir), before);
  t.is((await prJson(dir, "1")).state, "OPEN");
});

// --- conflicts ---

test(
  "two PRs merged in a row where the second now conflicts: " + "a parseable conflict list, a record, main unchanged",
  async (t) => {
    const dir = repo();
    await branchPr(t, dir, "one", { "a.txt": A.replace("5\n", "FIVE\n") });
    await branchPr(t, dir, "two", { "a.txt": A.replace("5\n", "five!\n"), "other.txt": "o\n" });
    t.is((await merge(dir, "1")).code, 0);
    const before = snapshot(dir);
    const m = await merge(dir, "2");
    t.is(m.code, 1, m.stderr);
    const j = m.json!;
    t.is(j.verdict, "conflict");
    t.deepEqual(j.conflicts, ["a.txt"]);
    t.is(j.commit, null);
    t.is(j.checkout, "untouched");
    t.is(rev(dir, "main"), before.main);
    t.is(worktrees(dir), 1);
    t.deepEqual(records(dir), [...before.records, `${j.record}.md`].sort());
    const rec = record(dir, j.record!);
    t.true(rec.includes("\nverdict: conflict\n"));
    t.true(rec.includes("\nconflicts:\n  - a.txt\n"));
    t.regex(m.stderr, /^forge-merge pr: pull request #2 conflicts with main: a\.txt/);
    t.is((await prJson(dir, "2")).state, "OPEN");
    const jq = await sh("forge-merge 2 --json | jq -r '.conflicts[]'", { cwd: dir });
    t.is(jq.stdout, "a.txt\n");
  }
);

test("a patch that adds a file the base already has is a conflict naming that file", async (t) => {
  const dir = repo();
  await branchPr(t, dir, "one", { "new.txt": "mine\n" });
  await branchPr(t, dir, "two", { "new.txt": "theirs\n" });
  t.is((await merge(dir, "1")).code, 0);
  const m = await merge(dir, "2");
  t.is(m.code, 1);
  t.is(m.json!.verdict, "conflict");
  t.deepEqual(m.json!.conflicts, ["new.txt"]);
});

// --- red CI ---

test(
  "red CI: verdict ci-failed naming the first failing " + "step, a record, main unchanged, the PR's ci is fail",
  async (t) => {
    const dir = repo();
    steps(dir, { "10-ok": "true", "20-no-b": "test ! -e b.txt", "30-never": "exit 3" });
    await branchPr(t, dir, "fix", { "b.txt": "b\n" });
    const before = snapshot(dir);
    const m = await merge(dir, "1");
    t.is(m.code, 1, m.stderr);
    t.is(m.json!.verdict, "ci-failed");
    t.is(m.json!.failedStep, "20-no-b");
    t.is(rev(dir, "main"), before.main);
    t.false(existsSync(join(dir, "b.txt")));
    t.is(worktrees(dir), 1);
    const rec = record(dir, m.json!.record!);
    t.true(rec.includes("\nverdict: ci-failed\n"));
    t.true(rec.includes('\nfailedStep: "20-no-b"\n') || rec.includes("\nfailedStep: 20-no-b\n"), rec);
    const pr = await prJson(dir, "1");
    t.is(pr.state, "OPEN");
    t.is(pr.ci, "fail");
  }
);

// --- hostile patches (SEC-05) ---

const HOSTILE: Array<[string, string, string]> = [
  ["a path-traversal target", "../escaped.txt", "a '..' component"],
  ["a .git/hooks/ file", ".git/hooks/pre-commit", "a .git component"],
  ["a .GIT/ file in another case", "sub/.GIT/config", "a .git component"],
];
for (const [what, path, why] of HOSTILE) {
  test(
    `a patch with ${what} is refused with one line naming it: no record, main unchanged, no worktree, nothing ` +
      `written`,
    async (t) => {
      const dir = repo();
      const prId = await branchPr(t, dir, "fix", { "b.txt": "b\n" });
      forgePatch(
        dir,
        prId,
        [
          "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001",
          "From: mallory <m@evil>",
          "Subject: [PATCH] innocent",
          "",
          "---",
          `diff --git a/${path} b/${path}`,
          "new file mode 100755",
          "index 0000000..1111111",
          "--- /dev/null",
          `+++ b/${path}`,
          "@@ -0,0 +1,2 @@",
          "+#!/bin/sh",
          "+touch /tmp/forge-pwned",
          "",
        ].join("\n")
      );
      const before = snapshot(dir);
      const m = await merge(dir, "1");
      t.is(m.code, 1);
      t.is(m.stdout, "");
      t.is(m.stderr, `forge-merge pr: refused: the patch names 'a/${path}' (${why}); nothing was applied\n`);
      t.deepEqual(snapshot(dir), before);
      t.false(existsSync(join(dir, "..", "escaped.txt")));
      t.false(existsSync(join(dir, ".git", "hooks", "pre-commit")));
    }
  );
}

test(
  "git's own path check is the second line: a patch " + "git refuses is one line, no record, main unchanged",
  async (t) => {
    const dir = repo();
    const prId = await branchPr(t, dir, "fix", { "b.txt": "b\n" });
    forgePatch(dir, prId, "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\ngarbage that is not a hunk line\n");
    const before = snapshot(dir);
    const m = await merge(dir, "1");
    t.is(m.code, 1);
    t.is(m.stdout, "");
    t.regex(m.stderr, /^forge-merge pr: git apply refused the patch: [^\n]+; nothing was applied\n$/);
    t.deepEqual(snapshot(dir), before);
  }
);

// --- hooks (SEC-06) ---

test(
  "hooks never run: a failing pre-commit hook (and every other hook) that writes a marker is not run, in " +
    ".git/hooks or core.hooksPath",
  async (t) => {
    const dir = repo();
    await branchPr(t, dir, "fix", { "b.txt": "b\n" });
    await branchPr(t, dir, "fix2", { "c.txt": "c\n" });
    const marker = scratch(join(dir, "..", `hook-marker-${process.pid}-${Date.now()}`));
    const hook = `#!/bin/sh\necho "$0" >> '${marker}'\nexit 1\n`;
    const custom = scratch(join(dir, "..", `hooks-${process.pid}-${Date.now()}`));
    mkdirSync(custom, { recursive: true });
    for (const name of [
      "pre-commit",
      "commit-msg",
      "prepare-commit-msg",
      "post-commit",
      "pre-merge-commit",
      "post-merge",
      "post-checkout",
      "reference-transaction",
      "pre-applypatch",
      "post-applypatch",
    ]) {
      for (const d of [join(dir, ".git", "hooks"), custom]) {
        writeFileSync(join(d, name), hook);
        chmodSync(join(d, name), 0o755);
      }
    }
    // The hooks are live: they stop a plain commit (and write the marker).
    const blocked = await run("git", ["commit", "--allow-empty", "-qm", "hooked?"], { cwd: dir });
    t.not(blocked.code, 0, "the pre-commit hook is live");
    t.true(existsSync(marker));
    rmSync(marker);
    const m1 = await merge(dir, "1");
    t.is(m1.code, 0, m1.stderr);
    t.is(m1.json!.checkout, "updated");
    git(dir, ["-c", "core.hooksPath=/dev/null", "config", "core.hooksPath", custom]);
    const m2 = await merge(dir, "2");
    t.is(m2.code, 0, m2.stderr);
    t.false(existsSync(marker), "no hook ran");
    t.is(git(dir, ["-c", "core.hooksPath=/dev/null", "rev-list", "--count", "main"]).trim(), "3");
  }
);

// --- replay (SEC-08) ---

test(
  "a replayed patch is recognised by patch-id even when re-described (another commit message) and rebased: " +
    "already merged, nothing changed",
  async (t) => {
    const dir = repo();
    const first = await branchPr(
      t,
      dir,
      "fix",
      { "a.txt": A.replace("6\n", "SIX\n") },
      { msg: "the original description" }
    );
    const m = await merge(dir, "1");
    t.is(m.code, 0, m.stderr);
    // The same change, re-described, on a branch from the new main after another commit moved the lines.
    writeFileSync(join(dir, "top.txt"), "t\n");
    git(dir, ["add", "top.txt"]);
    git(dir, ["commit", "-qm", "unrelated"]);
    git(dir, ["checkout", "-q", "-b", "replay", `${m.json!.commit}^`]);
    writeFileSync(join(dir, "a.txt"), A.replace("6\n", "SIX\n"));
    git(dir, ["commit", "-qam", "a brand-new description of the same change"]);
    t.is((await run("forge-pr", ["create", "-t", "Replay", "-B", "main"], { cwd: dir })).code, 0);
    git(dir, ["checkout", "-q", "main"]);
    const before = snapshot(dir);
    const r = await merge(dir, "2");
    t.is(r.code, 1, r.stderr);
    t.is(r.json!.verdict, "already-merged");
    t.is(r.json!.landed!.by, "patchId");
    t.is(r.json!.landed!.pr, first);
    t.is(r.json!.landed!.number, 1);
    t.is(r.json!.patchId, m.json!.patchId);
    t.not(r.json!.patchSha256, m.json!.patchSha256);
    t.is(r.json!.record, null);
    t.deepEqual(snapshot(dir), before);
    t.is((await prJson(dir, "2")).state, "OPEN");
  }
);

// --- usage ---

test("forge-merge with an unknown PR is one line and exit 1; a closed PR is refused", async (t) => {
  const dir = repo();
  const r = await run("forge-merge", ["7"], { cwd: dir });
  t.is(r.code, 1);
  t.regex(r.stderr, /^forge-merge pr: [^\n]*#7[^\n]*\n$/);
  await branchPr(t, dir, "fix", { "b.txt": "b\n" });
  t.is((await run("forge-pr", ["close", "1"], { cwd: dir })).code, 0);
  const c = await run("forge-merge", ["1"], { cwd: dir });
  t.is(c.code, 1);
  t.regex(c.stderr, /closed; reopen it/);
});

test(
  "forge-pr list --json | forge-merge - --json: every PR " + "in turn, a line each, the conflict reported, exit 1",
  async (t) => {
    const dir = repo();
    await branchPr(t, dir, "one", { "a.txt": A.replace("4\n", "FOUR\n") });
    await branchPr(t, dir, "two", { "a.txt": A.replace("4\n", "four!\n") });
    await branchPr(t, dir, "three", { "z.txt": "z\n" });
    const r = await sh(
      "forge-pr list --json number | jq -c 'sort_by(.number) | .[]' --slurp | forge-merge - --json " +
        "verdict,pr,conflicts",
      { cwd: dir }
    );
    t.is(r.code, 1, r.stderr);
    const lines = jsonl(r.stdout).map((l) => [(l.pr as { number: number }).number, l.verdict, l.conflicts]);
    t.deepEqual(lines, [
      [1, "merged", []],
      [2, "conflict", ["a.txt"]],
      [3, "merged", []],
    ]);
    t.is(r.stderr.split("\n").filter((l) => l.startsWith("forge-merge pr: ")).length, 1, r.stderr);
    t.is(git(dir, ["rev-list", "--count", "main"]).trim(), "3");
  }
);

test(
  "the user's git config does not change what applies: apply.whitespace=error still merges a line with trailing " +
    "spaces",
  async (t) => {
    const dir = repo();
    await branchPr(t, dir, "ws", { "w.txt": "trailing   \n" });
    git(dir, ["config", "apply.whitespace", "error"]);
    const m = await merge(dir, "1");
    t.is(m.code, 0, m.stderr);
    t.is(git(dir, ["show", "main:w.txt"]), "trailing   \n");
  }
);

test(
  "renames, deletions, binary files and a non-ASCII name " + "merge; a conflict on a non-ASCII name lists it unquoted",
  async (t) => {
    const dir = repo();
    writeFileSync(join(dir, "old name.txt"), "keep me\n");
    writeFileSync(join(dir, "gone.txt"), "bye\n");
    writeFileSync(join(dir, "café.txt"), "1\n2\n3\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "more files"]);
    git(dir, ["checkout", "-q", "-b", "kinds"]);
    git(dir, ["mv", "old name.txt", "new name.txt"]);
    git(dir, ["rm", "-q", "gone.txt"]);
    writeFileSync(join(dir, "bin.dat"), Buffer.from([0, 1, 2, 255, 0, 10, 13]));
    writeFileSync(join(dir, "café.txt"), "1\nDEUX\n3\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "kinds of change"]);
    t.is((await run("forge-pr", ["create", "-t", "kinds"], { cwd: dir })).code, 0);
    git(dir, ["checkout", "-q", "main"]);
    // A second PR that edits the same line of café.txt: it will conflict after the first.
    await branchPr(t, dir, "clash", { "café.txt": "1\ntwo\n3\n" });
    const m = await merge(dir, "1");
    t.is(m.code, 0, m.stderr);
    t.deepEqual(
      git(dir, ["ls-tree", "--name-only", "-z", "main"]).split("\0").filter(Boolean).sort(),
      [".forge", "a.txt", "bin.dat", "café.txt", "new name.txt"].sort()
    );
    t.deepEqual(readFileSync(join(dir, "bin.dat")), Buffer.from([0, 1, 2, 255, 0, 10, 13]));
    const c = await merge(dir, "2");
    t.is(c.code, 1);
    t.deepEqual(c.json!.conflicts, ["café.txt"]);
  }
);

test("after a conflict the agent rebases, runs forge-pr update, and forge-merge again merges", async (t) => {
  const dir = repo();
  await branchPr(t, dir, "one", { "a.txt": A.replace("7\n", "SEVEN\n") });
  await branchPr(t, dir, "two", { "a.txt": A.replace("7\n", "seven?\n") });
  t.is((await merge(dir, "1")).code, 0);
  const c = await merge(dir, "2");
  t.is(c.json!.verdict, "conflict");
  // The agent reconciles: branch two on the new main, with both changes.
  git(dir, ["checkout", "-q", "-B", "two", "main"]);
  writeFileSync(join(dir, "a.txt"), A.replace("7\n", "SEVEN and seven?\n"));
  git(dir, ["commit", "-qam", "two, reconciled"]);
  const u = await run("forge-pr", ["update", "2"], { cwd: dir });
  t.is(u.code, 0, u.stderr);
  git(dir, ["checkout", "-q", "main"]);
  const m = await merge(dir, "2");
  t.is(m.code, 0, m.stderr);
  t.is(m.json!.verdict, "merged");
  t.is(git(dir, ["show", "main:a.txt"]), A.replace("7\n", "SEVEN and seven?\n"));
  t.is(records(dir).length, 3, "merged, conflict, merged");
});

/** A `format-patch` mbox of hand-written commits (each: subject and diff text). */
function mbox(commits: Array<[string, string]>): string {
  return commits
    .map(([subject, diff]) =>
      [
        "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001",
        "From: mallory <m@evil.example>",
        "Date: Thu, 1 Jan 2026 00:00:00 +0000",
        `Subject: [PATCH] ${subject}`,
        "",
        "---",
        diff,
      ].join("\n")
    )
    .join("\n");
}

const LINK = (path: string, target: string): string =>
  `diff --git a/${path} b/${path}\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/${path}\n@@ ` +
  `-0,0 +1 @@\n+${target}\n\\ No newline at end of file\n`;

for (const [what, target] of [
  ["an absolute target", "/etc"],
  ["a target above the repository", "../../outside"],
  ["a target in .git", ".git/hooks"],
]) {
  test(`a patch that makes a symlink with ${what} is refused: no record, main unchanged`, async (t) => {
    const dir = repo();
    const prId = await branchPr(t, dir, "fix", { "b.txt": "b\n" });
    forgePatch(dir, prId, mbox([["a link", LINK("docs/link", target)]]));
    const before = snapshot(dir);
    const m = await merge(dir, "1");
    t.is(m.code, 1);
    t.is(m.stdout, "");
    t.is(
      m.stderr,
      "forge-merge pr: refused: the patch makes 'docs/link' a symlink out of the repository or into .git; nothing " +
        "was merged\n"
    );
    t.deepEqual(snapshot(dir), before);
  });
}

test(
  "a series whose second commit writes through a symlink the first made is refused by git: no record, main " +
    "unchanged, nothing written outside",
  async (t) => {
    const dir = repo();
    const prId = await branchPr(t, dir, "fix", { "b.txt": "b\n" });
    mkdirSync(join(dir, "sub"));
    forgePatch(
      dir,
      prId,
      mbox([
        ["a harmless-looking link", LINK("lnk", "sub")],
        [
          "write through it",
          "diff --git a/lnk/x b/lnk/x\nnew file mode 100644\nindex 0000000..2222222\n--- /dev/null\n+++ b/lnk/x\n@@ " +
            "-0,0 +1 @@\n+through\n",
        ],
      ])
    );
    const before = snapshot(dir);
    const m = await merge(dir, "1");
    t.is(m.code, 1);
    t.is(m.stdout, "");
    t.is(
      m.stderr,
      "forge-merge pr: git apply refused the patch: affected file 'lnk/x' is beyond a symbolic link; nothing was " +
        "applied\n"
    );
    t.deepEqual(snapshot(dir), before);
    t.false(existsSync(join(dir, "sub", "x")));
  }
);

test("a symlink inside the repository merges", async (t) => {
  const dir = repo();
  const prId = await branchPr(t, dir, "fix", { "b.txt": "b\n" });
  forgePatch(dir, prId, mbox([["a link", LINK("docs/readme", "../a.txt")]]));
  const m = await merge(dir, "1");
  t.is(m.code, 0, m.stderr);
  t.is(git(dir, ["cat-file", "-p", "main:docs/readme"]), "../a.txt");
});

test(
  "forge-merge --json | forge-export: the merge line is a merge record the lane takes; a refusal that wrote no " +
    "record is skipped",
  async (t) => {
    const dir = repo();
    steps(dir, { "10-test": "grep -q TWO a.txt" });
    await branchPr(t, dir, "fix", { "a.txt": A.replace("2\n", "TWO\n") }, { title: "Make line 2 TWO" });
    const m = await merge(dir, "1");
    t.is(m.code, 0, m.stderr);
    const line = jsonl(m.stdout)[0]!;
    t.like(line, { id: m.json!.record, baseRefName: "main", resolved: [] });
    t.regex(String(line.createdAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const ex = await run("forge-export", [], { cwd: dir, input: m.stdout });
    t.is(ex.code, 0, ex.stderr);
    t.deepEqual(
      jsonl(ex.stdout).map((e) => [e.status, e.bundle_id]),
      [["imported", `merge:${m.json!.record}`]]
    );
    const again = await merge(dir, "1");
    t.is(again.code, 1);
    const skip = await run("forge-export", [], { cwd: dir, input: again.stdout });
    t.is(skip.code, 0, skip.stderr);
    t.is(skip.stdout, "");
    t.regex(
      skip.stderr,
      /^forge-export: stdin line 1: merge of a patch that was already-merged wrote no record: skipped, not evidence\n$/
    );
  }
);
