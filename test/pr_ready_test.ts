/**
 * `forge-pr ready` dirties no tracked file (issue 31 item 3): gh's `pr ready`
 * changes nothing in the work tree, so a `git checkout` right after it goes
 * on. forge records the draft state as an edit record (`edits/<id>.md`, a new
 * file), not a rewrite of pr.md, which `forge sync` has committed on the base.
 */
import test from "ava";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

async function ok(dir: string, prog: string, args: string[]): Promise<string> {
  const r = await run(prog, args, { cwd: dir });
  if (r.code !== 0) throw new Error(`${prog} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** main with a synced store holding a draft PR #1 from `topic` (pr.md tracked on main, not on topic). */
async function draftOnMain(): Promise<{ dir: string; prFile: string }> {
  const dir = scratch(tempRepo("forge-ready-"));
  writeFileSync(join(dir, "app.txt"), "v1\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", "init"]);
  git(dir, ["checkout", "-q", "-b", "topic"]);
  writeFileSync(join(dir, "app.txt"), "v2\n");
  git(dir, ["commit", "-q", "-am", "Change"]);
  await ok(dir, "forge-pr", ["create", "--fill", "--draft"]);
  git(dir, ["checkout", "-q", "main"]);
  await ok(dir, "forge", ["sync"]);
  const id = readdirSync(join(dir, ".forge", "prs"))[0]!;
  return { dir, prFile: join(dir, ".forge", "prs", id, "pr.md") };
}

const tracked = (dir: string): string => git(dir, ["status", "--porcelain", "--untracked-files=no"]);

test("pr ready leaves every tracked file as it was, and git checkout goes on", async (t) => {
  const { dir, prFile } = await draftOnMain();
  const before = readFileSync(prFile, "utf8");
  t.regex(before, /^isDraft: true$/m);
  t.is(tracked(dir), "");
  const r = await run("forge-pr", ["ready", "1"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, "Marked ready for review: pull request #1 (Change)\n");
  t.is(tracked(dir), "", "no tracked file changed");
  t.is(readFileSync(prFile, "utf8"), before);
  // gh's habit: switch branches right after.
  t.is((await run("git", ["checkout", "-q", "topic"], { cwd: dir })).code, 0);
  git(dir, ["checkout", "-q", "main"]);
  t.deepEqual(jsonl(await ok(dir, "forge-pr", ["view", "1", "--json", "isDraft"])), [{ isDraft: false }]);
  t.deepEqual(jsonl(await ok(dir, "forge-pr", ["list", "--draft", "--json", "number"])), []);
  t.deepEqual(jsonl(await ok(dir, "forge-pr", ["list", "-S", "draft:false", "--json", "number"])), [{ number: 1 }]);
  // Already ready: a note, nothing written.
  const again = await run("forge-pr", ["ready", "1"], { cwd: dir });
  t.is(again.code, 0);
  t.is(again.stderr, '! Pull request #1 is already "ready for review"\n');
  const edits = join(prFile, "..", "edits");
  t.is(readdirSync(edits).length, 1);
  t.regex(
    readFileSync(join(edits, readdirSync(edits)[0]!), "utf8"),
    /\nfields:\n {2}- isDraft\nisDraft: false\n---\n$/
  );
});

test("pr ready --undo makes it a draft again (the latest record wins); a draft is not merged", async (t) => {
  const { dir, prFile } = await draftOnMain();
  const before = readFileSync(prFile, "utf8");
  await ok(dir, "forge-pr", ["ready", "1"]);
  const u = await run("forge-pr", ["ready", "1", "--undo"], { cwd: dir });
  t.is(u.code, 0, u.stderr);
  t.is(u.stderr, "Converted to draft: pull request #1 (Change)\n");
  t.is(readFileSync(prFile, "utf8"), before);
  t.is(tracked(dir), "");
  t.deepEqual(jsonl(await ok(dir, "forge-pr", ["view", "1", "--json", "isDraft"])), [{ isDraft: true }]);
  t.deepEqual(jsonl(await ok(dir, "forge-pr", ["list", "--draft", "--json", "number"])), [{ number: 1 }]);
  const m = await run("forge-pr", ["merge", "1", "--squash"], { cwd: dir });
  t.is(m.code, 1);
  t.regex(m.stderr, /still a draft; mark it ready first: forge pr ready 1/);
});
