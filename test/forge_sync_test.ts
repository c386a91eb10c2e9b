/**
 * forge's own writes never ride into a feature branch (issue 31, item 3):
 * a gh user's `git commit -am` on a branch picks up forge's uncommitted
 * `.forge/` changes, but a PR's patch leaves the store out (one stderr line
 * names what), and `forge sync` on the base commits forge's writes there so
 * the base's store never goes back in time.
 */
import test, { type ExecutionContext } from "ava";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, tempRepo, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

async function forge(t: ExecutionContext, dir: string, args: string[], code = 0): Promise<Ran> {
  const r = await run("forge", args, { cwd: dir });
  t.is(r.code, code, `forge ${args.join(" ")}: ${r.stderr}`);
  return r;
}

/** main with app.js and a passing CI step; PR #1 from `feature` filed, its store committed, merged on main. */
async function mergedFirstPr(t: ExecutionContext): Promise<string> {
  const dir = scratch(tempRepo("forge-sync-"));
  writeFileSync(join(dir, "app.js"), "console.log(1)\n");
  const steps = join(dir, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  writeFileSync(join(steps, "10-test"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(steps, "10-test"), 0o755);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  git(dir, ["checkout", "-qb", "feature"]);
  writeFileSync(join(dir, "app.js"), "console.log(2)\n");
  git(dir, ["commit", "-qam", "Print 2"]);
  await forge(t, dir, ["pr", "create", "--fill"]);
  git(dir, ["checkout", "-q", "main"]);
  await forge(t, dir, ["sync"]); // the PR's files are committed on main, as a gh user's `git add -A` would
  await forge(t, dir, ["pr", "merge", "1", "--squash", "--delete-branch"]);
  t.not(git(dir, ["status", "--porcelain", "--", ".forge"]), "", "the merge left forge's writes uncommitted");
  return dir;
}

/** The issue's reproduction from the merge on: a branch, `git commit -am`, a draft PR, back to main. */
async function badBranch(t: ExecutionContext, dir: string): Promise<Ran> {
  git(dir, ["checkout", "-qb", "bad"]);
  writeFileSync(join(dir, "app.js"), "console.log(3)\n");
  git(dir, ["commit", "-qam", "Refactor app"]);
  const r = await forge(t, dir, ["pr", "create", "--fill", "--draft"]);
  git(dir, ["checkout", "-q", "main"]);
  return r;
}

async function states(t: ExecutionContext, dir: string): Promise<Record<string, unknown>> {
  const r = await forge(t, dir, ["pr", "list", "--state", "all", "--json", "number,state"]);
  return Object.fromEntries(jsonl(r.stdout).map((p) => [String(p.number), p.state]));
}

test("without forge sync: the feature branch carries .forge/, the PR's patch leaves it out and says so", async (t) => {
  const dir = await mergedFirstPr(t);
  const created = await badBranch(t, dir);
  t.regex(
    created.stderr,
    /left out of the patch \(forge's store; run `forge sync` on the base\): \.forge\/prs\/[0-9a-f-]+\/pr\.md/
  );
  t.is(created.stderr.split("\n").filter((l) => l.includes("left out")).length, 1);
  t.regex(git(dir, ["show", "--name-only", "--format=", "bad"]), /^\.forge\/prs\//m, "the habit did commit the store");
  const diff = await forge(t, dir, ["pr", "diff", "2"]);
  t.regex(diff.stdout, /console\.log\(3\)/);
  t.notRegex(diff.stdout, /\.forge\//);
});

test("with forge sync after the merge: PR #1 stays MERGED on main and PR #2's patch is clean", async (t) => {
  const dir = await mergedFirstPr(t);
  const s = await forge(t, dir, ["sync"]);
  t.regex(s.stderr, /^✓ Committed \d+ store files? on main at [0-9a-f]{12}\n$/);
  t.is(s.stdout, "");
  t.is(git(dir, ["status", "--porcelain", "--", ".forge"]), "");
  t.regex(git(dir, ["log", "-1", "--format=%s"]), /^forge: sync the store/);
  const created = await badBranch(t, dir);
  t.notRegex(created.stderr, /left out/);
  t.deepEqual(await states(t, dir), { "1": "MERGED", "2": "OPEN" });
  const diff = await forge(t, dir, ["pr", "diff", "2"]);
  t.regex(diff.stdout, /console\.log\(3\)/);
  t.notRegex(diff.stdout, /\.forge\//);
  // PR #2's files, made on the branch, came back untracked: the next sync commits them, the one after has nothing.
  const two = await forge(t, dir, ["sync"]);
  t.regex(two.stderr, /^✓ Committed 2 store files on main/);
  const head = git(dir, ["rev-parse", "HEAD"]);
  const again = await forge(t, dir, ["sync"]);
  t.regex(again.stderr, /^Nothing to sync/);
  t.is(git(dir, ["rev-parse", "HEAD"]), head);
});

test("forge sync refuses off the base branch and commits only the store", async (t) => {
  const dir = await mergedFirstPr(t);
  writeFileSync(join(dir, "app.js"), "console.log(9)\n");
  git(dir, ["add", "app.js"]);
  git(dir, ["checkout", "-qb", "topic"]);
  const off = await forge(t, dir, ["sync"], 1);
  t.regex(off.stderr, /not the base 'main'/);
  t.is(off.stderr.trim().split("\n").length, 1);
  git(dir, ["checkout", "-q", "main"]);
  await forge(t, dir, ["sync"]);
  t.deepEqual(
    git(dir, ["show", "--name-only", "--format=", "HEAD"])
      .split("\n")
      .filter((l) => !l.startsWith(".forge/") && l !== ""),
    []
  );
  t.regex(git(dir, ["status", "--porcelain"]), /^M {2}app\.js$/m, "the user's staged change stays staged");
  await forge(t, dir, ["sync", "extra"], 2);
});
