/**
 * forge-ci run's flags for the loop: --at (a run at a given commit, not
 * HEAD), --until (the steps up to one; the ones before it as its setup,
 * later ones skipped), --repeat (runs per tree; with --until, one setup).
 */
import test from "ava";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

function repo(): { dir: string; first: string } {
  const dir = scratch(tempRepo("forge-ci-flags-"));
  const d = join(dir, ".forge", "ci", "steps");
  mkdirSync(d, { recursive: true });
  for (const [n, text] of Object.entries({ "10-a": "grep -q one app.txt", "20-b": "exit 0", "30-c": "exit 0" })) {
    writeFileSync(join(d, n), `#!/bin/sh\n${text}\n`);
    chmodSync(join(d, n), 0o755);
  }
  writeFileSync(join(dir, "app.txt"), "one\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "one"]);
  const first = git(dir, ["rev-parse", "HEAD"]).trim();
  writeFileSync(join(dir, "app.txt"), "two\n");
  git(dir, ["commit", "-qam", "two"]);
  return { dir, first };
}

test("forge-ci run --at runs a given commit, --until stops after a step, --repeat runs the tree again", async (t) => {
  const { dir, first } = repo();
  const r = await run(
    "forge-ci",
    ["run", "--at", first, "--until", "20-b", "--repeat", "2", "--json", "headSha,steps,verdict"],
    { cwd: dir }
  );
  t.is(r.code, 0, r.stderr);
  const runs = jsonl(r.stdout);
  t.is(runs.length, 2);
  // The repeated runs share one worktree: the steps before --until ran once, in the first.
  for (const [i, x] of runs.entries()) {
    t.is(x.headSha, first);
    t.deepEqual(
      (x.steps as Array<{ name: string; outcome: string }>).map((s) => [s.name, s.outcome]),
      [
        ["10-a", i === 0 ? "pass" : "skipped"],
        ["20-b", "pass"],
        ["30-c", "skipped"],
      ]
    );
  }
  const head = jsonl((await run("forge-ci", ["run", "--json", "steps"], { cwd: dir })).stdout)[0]!;
  t.is((head.steps as Array<{ outcome: string }>)[0]!.outcome, "fail", "HEAD is the other commit");
});

test("forge-ci run: bad --at, --until and --repeat are errors before anything runs", async (t) => {
  const { dir } = repo();
  const at = await run("forge-ci", ["run", "--at", "nope"], { cwd: dir });
  t.is(at.code, 1);
  t.regex(at.stderr, /^forge-ci run: --at: no commit 'nope'\n$/);
  const until = await run("forge-ci", ["run", "--until", "99-x"], { cwd: dir });
  t.is(until.code, 1);
  t.regex(until.stderr, /no step '99-x' in \.forge\/ci\/steps \(have: 10-a 20-b 30-c\)/);
  const rep = await run("forge-ci", ["run", "--repeat", "0"], { cwd: dir });
  t.is(rep.code, 2);
  t.regex(rep.stderr, /invalid repeat '0'/);
  t.is(jsonl((await run("forge-ci", ["list", "--json", "id"], { cwd: dir })).stdout).length, 0);
});
