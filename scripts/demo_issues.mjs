#!/usr/bin/env node
// The issue-workflow demo (`pnpm demo:issues`): a sample repository in a temp folder, an issue workflow run
// through pipes with the built executables, then a fix through PR → CI →
// merge → evidence export, each step printed as it runs.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { $, cd, path } from "zx";

const bin = path.resolve(import.meta.dirname, "..", "bin");
process.env.PATH = `${bin}:${process.env.PATH}`;
process.env.FORGE_AUTHOR ||= "demo";
process.env.NO_COLOR = "1";
$.verbose = false;

const dir = mkdtempSync(path.join(tmpdir(), "forge-demo-"));
cd(dir);
const step = async (title, script) => {
  console.log(`\n$ ${title}`);
  const out = await $({ nothrow: true, quiet: true })`bash --norc --noprofile -o pipefail -c ${script}`;
  process.stdout.write(out.stdout);
  if (out.stderr) process.stdout.write(out.stderr.replace(/^(?=.)/gm, "  (stderr) "));
  if (out.exitCode !== 0) console.log(`  (exit ${out.exitCode})`);
  return out;
};

console.log(`sample repository: ${dir}`);
await step(
  "git init && forge init",
  "git init -q -b main && git config user.name demo && git config user.email demo@example.com && forge init"
);
await step(
  "forge-label create ci, then forge-issue create (three issues, one with shell metacharacters in its title)",
  [
    // A new store has GitHub's default labels (bug, documentation, ...); any other is created first, as in gh.
    "forge-label create ci -d 'Continuous integration'",
    "forge-issue create -t 'Crash on empty config' -l bug -b 'Steps: run with an empty file.'",
    "forge-issue create -t 'Docs: explain \"$(refs)\" & pipes' -l documentation",
    "forge-issue create -t 'Flaky test in CI' -l bug,ci -a @me",
  ].join(" && ")
);
await step("forge-issue list", "forge-issue list");
await step("forge-issue list --label bug --json number,title", "forge-issue list --label bug --json number,title");
await step(
  "forge-issue list --label bug --json | forge-issue close - --comment 'fixed in main'",
  "forge-issue list --label bug --json | forge-issue close - --comment 'fixed in main'"
);
await step(
  "forge-issue list --state all --jq '.[] | \"#\\(.number) \\(.state) \\(.title)\"'",
  "forge-issue list --state all --jq '.[] | \"#\\(.number) \\(.state) \\(.title)\"'"
);
await step("forge issue view 1   (forge <noun> dispatches to forge-<noun>)", "forge issue view 1");
await step(
  "git add .forge && git commit   (the store is plain files; git is the sync layer)",
  "git add .forge && git commit -qm 'track issues' && git log -1 --stat --format=%s"
);
// A CI step is any executable in .forge/ci/steps/; this one fails with a different number in its log each run.
mkdirSync(path.join(dir, ".forge", "ci", "steps"), { recursive: true });
writeFileSync(
  path.join(dir, ".forge", "ci", "steps", "10-test"),
  '#!/bin/sh\necho "checking at $(date +%s)"\ngrep -q "empty config is fine" app.txt || { echo "app.txt: empty ' +
    'config crashes (pid $$)"; exit 1; }\n',
  { mode: 0o755 }
);
writeFileSync(path.join(dir, "app.txt"), "crashes on empty config\n");
await step(
  "cat .forge/ci/steps/10-test && git commit && forge-issue create   (an issue for a failing check)",
  [
    "cat .forge/ci/steps/10-test",
    "git add -A && git commit -qm 'app and CI'",
    "forge-issue create -t 'Empty config crashes the app' -l bug --json number,title",
  ].join(" && ")
);
await step(
  "forge-ci run   (on HEAD, in a disposable worktree: red; the failure gets a signature)",
  "forge-ci run --json verdict,steps"
);
await step(
  "a fix on a branch → forge-pr create --issue 4",
  [
    "git checkout -qb fix-empty-config && echo 'empty config is fine' > app.txt && git commit -qam 'Handle an empty " +
      "config'",
    "forge-pr create -t 'Handle an empty config' -b 'Fixes the crash.' --issue 4 -B main --json " +
      "number,title,headRefName",
    "git checkout -q main",
  ].join(" && ")
);
await step(
  "forge-pr list --json | forge-ci run -   (each PR on its base tip + its patch; the verdict lands in the PR)",
  "forge-pr list --json | forge-ci run - && forge-pr view 1 --json ci,statusCheckRollup"
);
await step(
  "forge-ci run   (red again on main: the same failure, the same signature)",
  "forge-ci run; forge-ci list --json --jq '.[] | [.databaseId, .verdict, (.steps[0].signature // \"-\")] | @tsv'"
);
await step(
  "forge-merge 1   (worktree, git apply --check, patch-id vs merges/, CI, commit with hooks off, fast-forward)",
  "forge-merge 1 --json verdict,checkout,closedIssues,commit && git log --oneline -2 && forge-issue view 4 --json state"
);
await step("forge-merge 1 again   (a landed patch is refused)", "forge-merge 1");
await step(
  "forge-ci list --json | forge-export   (each step result a trial of a check claim, through the one lane)",
  "forge-ci list --json | forge-export | jq -c '{status, bundle_id, degraded}'"
);
await step("forge-issue view 99   (errors: one line on stderr, exit 1)", "forge-issue view 99");
await step("forge --skill", "forge --skill");
console.log(`\ndone; the sample repository stays in ${dir}`);
