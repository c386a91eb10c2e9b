/**
 * Bounded machine state (issue 11): after each CI run only the newest
 * `keep_runs` runs keep their logs and step files; older ones keep their
 * summary (so every number stays), except the newest run of an open PR and
 * runs an evidence import names, which are kept whole. `releases/out/`
 * keeps the newest `keep_runs` build outputs.
 */
import test from "ava";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

function repo(keep: number): string {
  const dir = scratch(tempRepo("forge-keep-"));
  writeFileSync(join(dir, "app.txt"), "a\n");
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  writeFileSync(join(dir, ".forge", "ci", "steps", "10-ok"), "#!/bin/sh\necho fine\n");
  chmodSync(join(dir, ".forge", "ci", "steps", "10-ok"), 0o755);
  writeFileSync(join(dir, ".forge", "ci", "ci.env"), `keep_runs=${keep}\n`);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "init"]);
  return dir;
}

async function ok(dir: string, cmd: string, args: string[]): Promise<string> {
  const r = await run(cmd, args, { cwd: dir });
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

test(
  "forge-ci run keeps logs of the newest keep_runs runs, the open PR's verdict run and runs named by evidence; " +
    "numbers never change",
  async (t) => {
    const dir = repo(2);
    git(dir, ["checkout", "-qb", "fix"]);
    writeFileSync(join(dir, "app.txt"), "b\n");
    git(dir, ["commit", "-qam", "fix"]);
    await ok(dir, "forge-pr", ["create", "-t", "fix", "-b", "", "-B", "main", "-H", "fix"]);
    git(dir, ["checkout", "-q", "main"]);
    // run 1: the PR's verdict
    const prRun = (jsonl(await ok(dir, "forge-ci", ["run", "1", "--json"]))[0] as { id: string }).id;
    // run 2: named by an evidence import
    const named = (jsonl(await ok(dir, "forge-ci", ["run", "--json"]))[0] as { id: string }).id;
    mkdirSync(join(dir, ".forge", "evidence", "imports"), { recursive: true });
    writeFileSync(
      join(dir, ".forge", "evidence", "imports", `${"a".repeat(64)}.json`),
      JSON.stringify({ receipts: [`ci-run:${named}`] })
    );
    // run 3: nothing refers to it
    const plain = (jsonl(await ok(dir, "forge-ci", ["run", "--json"]))[0] as { id: string }).id;
    for (let i = 0; i < 2; i++) await ok(dir, "forge-ci", ["run"]); // runs 4 and 5: the newest two
    const runDir = (id: string): string => join(dir, ".forge", "ci", "runs", id);
    t.deepEqual(readdirSync(runDir(plain)), ["summary.md"], "run 3 keeps only its summary");
    t.true(existsSync(join(runDir(prRun), "steps")), "the open PR's verdict run is kept whole");
    t.true(existsSync(join(runDir(named), "steps")), "a run an evidence import names is kept whole");
    const list = jsonl(await ok(dir, "forge-ci", ["list", "--json", "databaseId,conclusion", "-L", "100"]));
    t.deepEqual(
      list.map((r) => r.databaseId),
      [5, 4, 3, 2, 1],
      "every run keeps its number"
    );
    t.true(list.every((r) => r.conclusion === "success"));
    const kept = readdirSync(join(dir, ".forge", "ci", "runs")).filter((id) => existsSync(join(runDir(id), "steps")));
    t.is(kept.length, 4);
  }
);

test("a bad keep_runs is one error line naming ci.env", async (t) => {
  const dir = repo(1);
  writeFileSync(join(dir, ".forge", "ci", "ci.env"), "keep_runs=0\n");
  const r = await run("forge-ci", ["run"], { cwd: dir });
  t.is(r.code, 1);
  t.regex(r.stderr, /^forge-ci run: \.forge\/ci\/ci\.env: line 1: 'keep_runs': expected a whole number ≥ 1\n$/);
});
