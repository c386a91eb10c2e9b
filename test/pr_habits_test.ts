/**
 * gh habits (issue 31, items 4, 11, 12), end to end against the built
 * executables: `pr edit --body "Fixes #1"` links the issue and the merge
 * closes it; `pr close -d`; `pr checkout` of a branch that exists; `issue/pr create` print the URL;
 * bundled short flags (`pr merge -dr 2`).
 */
import test from "ava";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, sh, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** A repo with a passing CI step, one commit on main, and FORGE_AUTHOR alice. */
function repo(): string {
  const dir = scratch(tempRepo("forge-habits-"));
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  writeFileSync(join(dir, ".forge", "ci", "steps", "10-test"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(dir, ".forge", "ci", "steps", "10-test"), 0o755);
  writeFileSync(join(dir, "app.txt"), "v1\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "init"]);
  return dir;
}

/** Run, failing the test on a non-zero exit; stdout. */
async function ok(dir: string, prog: string, args: string[]): Promise<string> {
  const r = await run(prog, args, { cwd: dir });
  if (r.code !== 0) throw new Error(`${prog} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** A branch with one commit changing app.txt, back on main after. */
function branch(dir: string, name: string, text: string): void {
  git(dir, ["checkout", "-q", "-b", name]);
  writeFileSync(join(dir, "app.txt"), text);
  git(dir, ["commit", "-q", "-am", `Change for ${name}`]);
  git(dir, ["checkout", "-q", "main"]);
}

test("issue create and pr create print the URL on stdout, the confirmation on stderr", async (t) => {
  const dir = repo();
  git(dir, ["remote", "add", "origin", "https://github.com/acme/widgets.git"]);
  // gh: `url=$(gh issue create …)`; the number is `cut -d/ -f7` of an https URL.
  const i = await sh('url=$(forge-issue create -t "Crash") && echo "$url" && echo "$url" | cut -d/ -f7', { cwd: dir });
  t.is(i.code, 0, i.stderr);
  t.is(i.stdout, "https://github.com/acme/widgets/issues/1\n1\n");
  t.is(i.stderr, "Created issue #1 (Crash)\n");
  branch(dir, "fix", "v2\n");
  const p = await run("forge-pr", ["create", "-t", "Fix", "-b", "x", "-H", "fix", "-B", "main"], { cwd: dir });
  t.is(p.code, 0, p.stderr);
  t.is(p.stdout, "https://github.com/acme/widgets/pull/1\n");
  t.regex(p.stderr, /^Created pull request #1 \(Fix\)$/m);
  // The URL resolves: every verb takes it as a ref, as gh does.
  t.is(await ok(dir, "forge-issue", ["view", "https://github.com/acme/widgets/issues/1", "--jq", ".title"]), "Crash\n");
  t.is(await ok(dir, "forge-pr", ["view", p.stdout.trim(), "--jq", ".number"]), "1\n");
  const wrong = await run("forge-issue", ["view", p.stdout.trim()], { cwd: dir });
  t.is(wrong.code, 2);
  // --json still prints the record (forge's addition; gh issue create has no --json).
  t.deepEqual(jsonl(await ok(dir, "forge-issue", ["create", "-t", "Two", "--json", "number"])), [{ number: 2 }]);
});

test("pr edit --body with a closing keyword links the issue; the merge closes it", async (t) => {
  const dir = repo();
  await ok(dir, "forge-issue", ["create", "-t", "Crash"]);
  await ok(dir, "forge-issue", ["create", "-t", "Other"]);
  branch(dir, "fix", "v2\n");
  await ok(dir, "forge-pr", ["create", "-t", "Fix", "-b", "wip", "-H", "fix", "-B", "main"]);
  const refs = async (): Promise<unknown> =>
    jsonl(await ok(dir, "forge-pr", ["view", "1", "--json", "closingIssuesReferences"]))[0]!.closingIssuesReferences;
  t.deepEqual(await refs(), []);
  await ok(dir, "forge-pr", ["edit", "1", "--body", "Fixes #1"]);
  t.deepEqual((await refs()) as Array<{ number: number }>, [
    { id: jsonl(await ok(dir, "forge-issue", ["view", "1", "--json", "id"]))[0]!.id, number: 1 },
  ]);
  // A new body re-reads the keywords: #1 is unlinked, #2 linked (GitHub's rule on every body change).
  await ok(dir, "forge-pr", ["edit", "1", "--body", "Closes #2"]);
  t.deepEqual(
    ((await refs()) as Array<{ number: number }>).map((r) => r.number),
    [2]
  );
  await ok(dir, "forge-pr", ["edit", "1", "--body", "Resolves #1"]);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "store"]);
  await ok(dir, "forge-pr", ["merge", "1", "--squash"]);
  const states = jsonl(await ok(dir, "forge-issue", ["list", "--state", "all", "--json", "number,state"]));
  t.deepEqual(
    states.sort((a, b) => (a.number as number) - (b.number as number)),
    [
      { number: 1, state: "CLOSED" },
      { number: 2, state: "OPEN" },
    ]
  );
});

test("pr close -d deletes the local branch, switching off it first, with gh's messages", async (t) => {
  const dir = repo();
  branch(dir, "fix", "v2\n");
  await ok(dir, "forge-pr", ["create", "-t", "Fix", "-b", "", "-H", "fix", "-B", "main"]);
  git(dir, ["checkout", "-q", "fix"]);
  const r = await run("forge-pr", ["close", "1", "--delete-branch"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, "Closed pull request #1 (Fix)\nDeleted branch fix and switched to branch main\n");
  t.is(git(dir, ["branch", "--list", "fix"]), "");
  t.is(git(dir, ["symbolic-ref", "--short", "HEAD"]).trim(), "main");
  // Already closed: gh says so and deletes nothing.
  const again = await run("forge-pr", ["close", "1", "-d"], { cwd: dir });
  t.is(again.code, 0, again.stderr);
  t.is(again.stderr, "! Pull request #1 (Fix) is already closed\n");
});

test("pr checkout N checks out a branch that exists; a diverged one is refused", async (t) => {
  const dir = repo();
  branch(dir, "fix", "v2\n");
  await ok(dir, "forge-pr", ["create", "-t", "Fix", "-b", "", "-H", "fix", "-B", "main"]);
  const r = await run("forge-pr", ["checkout", "1"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, "Checked out pull request #1 (Fix) on branch fix\n");
  t.is(git(dir, ["symbolic-ref", "--short", "HEAD"]).trim(), "fix");
  // Behind the PR's head: fast-forwarded, as gh's `git merge --ff-only`.
  const head = git(dir, ["rev-parse", "fix"]).trim();
  git(dir, ["checkout", "-q", "main"]);
  git(dir, ["branch", "-f", "fix", "main"]);
  t.is((await run("forge-pr", ["checkout", "1"], { cwd: dir })).code, 0);
  t.is(git(dir, ["rev-parse", "HEAD"]).trim(), head);
  // Diverged: refused without --force, as gh's fast-forward fails.
  writeFileSync(join(dir, "app.txt"), "other\n");
  git(dir, ["commit", "-q", "-am", "local work"]);
  git(dir, ["checkout", "-q", "main"]);
  const d = await run("forge-pr", ["checkout", "1"], { cwd: dir });
  t.is(d.code, 1);
  t.regex(d.stderr, /branch 'fix' has diverged from pull request #1/);
});

test("bundled short booleans: pr merge -dr 1 is -d -r (gh's pflag); an unknown letter is a usage error", async (t) => {
  const dir = repo();
  branch(dir, "fix", "v2\n");
  await ok(dir, "forge-pr", ["create", "-t", "Fix", "-b", "", "-H", "fix", "-B", "main"]);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "store"]);
  const bad = await run("forge-pr", ["merge", "-dz", "1"], { cwd: dir });
  t.is(bad.code, 2);
  t.regex(bad.stderr, /unknown flag '-z' in '-dz'/);
  const r = await run("forge-pr", ["merge", "-dr", "1"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  t.is(jsonl(await ok(dir, "forge-pr", ["view", "1", "--json", "state"]))[0]!.state, "MERGED");
  t.is(git(dir, ["branch", "--list", "fix"]), "");
});
