/**
 * `updatedAt` moves on edit and on comment, as gh's does (issue 31 item 7),
 * derived from append-only records (a comment, a review, an edit record:
 * one new file each), never from a line of the owning file that two clones
 * would both rewrite. So `-S "updated:>T"` and `sort:updated-desc` find
 * edited and commented items, and two clones that edit and comment one
 * issue still merge with a plain `git pull`.
 */
import test from "ava";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { git, jsonl, run, tempRepo } from "./lib/run.js";
import { addPeer, cloneAs, commitAll, gitIn, gitTry, originRepo } from "./lib/clones.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const OLD = "2020-12-31T00:00:00Z";

/** Run, failing the test on a non-zero exit; stdout. */
async function ok(dir: string, prog: string, args: string[], env?: Record<string, string>): Promise<string> {
  const r = await run(prog, args, { cwd: dir, env });
  if (r.code !== 0) throw new Error(`${prog} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/**
 * Move every issue's and PR's createdAt back to 2020 (as if pulled from a clone long ago), one second apart in
 * number order, so numbers stay; caches go with it.
 */
function age(dir: string): void {
  for (const kind of ["issues", "prs"]) {
    const root = join(dir, ".forge", kind);
    if (!existsSync(root)) continue;
    const files = readdirSync(root).map((id) => {
      const f = join(root, id, kind === "issues" ? "issue.md" : "pr.md");
      const text = readFileSync(f, "utf8");
      return { f, text, key: `${/^createdAt: "(.*)"$/m.exec(text)![1]} ${id}` };
    });
    files.sort((x, y) => (x.key < y.key ? -1 : 1));
    files.forEach(({ f, text }, i) => writeFileSync(f, text.replace(/^createdAt: .*$/m, `createdAt: "${old(i + 1)}"`)));
  }
  rmSync(join(dir, ".forge", ".cache"), { recursive: true, force: true });
}

/** The aged createdAt of item `n`. */
function old(n: number): string {
  return `2020-01-02T03:04:0${n}Z`;
}

async function updatedAt(dir: string, prog: string, n: number): Promise<string> {
  return (await ok(dir, prog, ["view", String(n), "--json", "updatedAt", "--jq", ".updatedAt"])).trim();
}

test("issue edit and issue comment move updatedAt; the owning file gets no stamp", async (t) => {
  const dir = scratch(tempRepo("forge-updated-"));
  await ok(dir, "forge-issue", ["create", "-t", "Edited"]);
  await ok(dir, "forge-issue", ["create", "-t", "Commented"]);
  await ok(dir, "forge-issue", ["create", "-t", "Untouched"]);
  age(dir);
  for (const n of [1, 2, 3]) t.is(await updatedAt(dir, "forge-issue", n), old(n));
  const before = new Date().toISOString().slice(0, 19) + "Z";
  const issueFile = (n: number): string => {
    const ids = readdirSync(join(dir, ".forge", "issues")).sort();
    const found = ids.map((id) => join(dir, ".forge", "issues", id, "issue.md"));
    return found.find((f) => readFileSync(f, "utf8").includes(["Edited", "Commented", "Untouched"][n - 1]!))!;
  };
  const ownedBefore = readFileSync(issueFile(1), "utf8");
  await ok(dir, "forge-issue", ["edit", "1", "--add-label", "bug"]);
  await ok(dir, "forge-issue", ["comment", "2", "-b", "seen it too"]);
  const u1 = await updatedAt(dir, "forge-issue", 1);
  const u2 = await updatedAt(dir, "forge-issue", 2);
  t.true(u1 >= before, u1);
  t.true(u2 >= before, u2);
  t.is(await updatedAt(dir, "forge-issue", 3), old(3));
  // issue.md changed by the label line only: no stamp line of its own.
  const ownedAfter = readFileSync(issueFile(1), "utf8");
  t.is(ownedAfter.replace("labels:\n  - bug\n", "labels:\n"), ownedBefore);
  t.notRegex(ownedAfter, /editedAt|updatedAt/);
  // The edit is a record of its own: who, when, which fields.
  const editDir = join(issueFile(1), "..", "edits");
  const edits = readdirSync(editDir);
  t.is(edits.length, 1);
  const rec = readFileSync(join(editDir, edits[0]!), "utf8");
  t.regex(
    rec,
    new RegExp(
      `^---\\nid: ${edits[0]!.slice(0, -3)}\\nauthor: alice\\ncreatedAt: "${u1}"\\nfields:\\n  - labels\\n---\\n$`
    )
  );
  // gh's search qualifiers see it: updated:>T and sort:updated-desc (the list's cached path and its general path).
  const found = jsonl(await ok(dir, "forge-issue", ["list", "-S", `updated:>${OLD}`, "--json", "number"]));
  t.deepEqual(found.map((r) => r.number).sort(), [1, 2]);
  const sorted = jsonl(await ok(dir, "forge-issue", ["list", "-S", "sort:updated-asc", "--json", "number"]));
  t.is(sorted[0]!.number, 3);
  const cached = jsonl(await ok(dir, "forge-issue", ["list", "--json", "number,updatedAt"]));
  t.deepEqual(
    cached.map((r) => [r.number, r.updatedAt]),
    [
      [3, old(3)],
      [2, u2],
      [1, u1],
    ]
  );
  // forge fsck reads the edit record as a store file like any other.
  const fsck = await run("forge", ["fsck"], { cwd: dir });
  t.is(fsck.code, 0, fsck.stdout + fsck.stderr);
});

test("pr edit, pr comment and pr review move the PR's updatedAt", async (t) => {
  const dir = scratch(tempRepo("forge-updated-pr-"));
  writeFileSync(join(dir, "app.txt"), "v1\n");
  git(dir, ["add", "app.txt"]);
  git(dir, ["commit", "-q", "-m", "init"]);
  for (const b of ["a", "b", "c"]) {
    git(dir, ["checkout", "-q", "-b", b, "main"]);
    writeFileSync(join(dir, "app.txt"), `${b}\n`);
    git(dir, ["commit", "-q", "-am", `change ${b}`]);
    await ok(dir, "forge-pr", ["create", "-t", `PR ${b}`, "-b", "x", "-H", b, "-B", "main"]);
  }
  git(dir, ["checkout", "-q", "main"]);
  age(dir);
  const before = new Date().toISOString().slice(0, 19) + "Z";
  await ok(dir, "forge-pr", ["edit", "1", "-t", "PR a, renamed"]);
  await ok(dir, "forge-pr", ["comment", "2", "-b", "looks fine"]);
  await ok(dir, "forge-pr", ["review", "3", "--comment", "-b", "one note"], { FORGE_AUTHOR: "bob" });
  for (const n of [1, 2, 3]) t.true((await updatedAt(dir, "forge-pr", n)) >= before, String(n));
  const listed = jsonl(await ok(dir, "forge-pr", ["list", "-S", `updated:<=${OLD}`, "--json", "number"]));
  t.deepEqual(listed, []);
  const pr = readFileSync(join(dir, ".forge", "prs", readdirSync(join(dir, ".forge", "prs"))[0]!, "pr.md"), "utf8");
  t.notRegex(pr, /editedAt/);
});

test("two clones that edit and comment one issue merge with a plain git pull; updatedAt is the latest", async (t) => {
  const origin = originRepo();
  await ok(origin, "forge-issue", ["create", "-t", "Shared"]);
  age(origin);
  commitAll(origin, "an issue");
  const a = cloneAs(origin, "ann");
  const b = cloneAs(origin, "bob");
  // Different fields, both comment, both edit (each edit and comment a new file of its own). bob first:
  await ok(b, "forge-issue", ["edit", "1", "--add-assignee", "bob"], { FORGE_AUTHOR: "bob" });
  await ok(b, "forge-issue", ["comment", "1", "-b", "from bob"], { FORGE_AUTHOR: "bob" });
  commitAll(b, "bob's edits");
  // bob's list keeps its record cache (the walk writes it once the files have been still a moment).
  await sleep(2100);
  const mine = jsonl(await ok(b, "forge-issue", ["list", "--json", "updatedAt"]))[0]!.updatedAt as string;
  t.true(existsSync(join(b, ".forge", ".cache", "issues.records")), "bob's list wrote its record cache");
  // ann, seconds later.
  await ok(a, "forge-issue", ["edit", "1", "-t", "Shared, renamed"], { FORGE_AUTHOR: "ann" });
  await ok(a, "forge-issue", ["comment", "1", "-b", "from ann"], { FORGE_AUTHOR: "ann" });
  commitAll(a, "ann's edits");
  addPeer(b, a);
  const pulled = gitTry(b, ["pull", "-q", "--no-edit", "peer", "main"]);
  t.is(pulled.code, 0, pulled.out);
  t.is(gitIn(b, ["status", "--porcelain", "--untracked-files=no"]), "");
  const rec = jsonl(await ok(b, "forge-issue", ["view", "1", "--json", "title,assignees,comments,updatedAt"]))[0]!;
  t.is(rec.title, "Shared, renamed");
  t.deepEqual(rec.assignees, [{ login: "bob" }]);
  t.is((rec.comments as unknown[]).length, 2);
  const stamps = (rec.comments as Array<{ createdAt: string }>).map((c) => c.createdAt);
  const latest = [mine, ...stamps].sort().at(-1)!;
  t.true(latest > mine);
  t.is(rec.updatedAt, latest);
  // The cached list agrees with the file after the pull (the record folders' stamps are in the cache's key).
  t.is(jsonl(await ok(b, "forge-issue", ["list", "--json", "updatedAt"]))[0]!.updatedAt, latest);
  // A pull that only adds a comment file (issue.md untouched): the cached record is read again all the same.
  await sleep(2100);
  t.is(jsonl(await ok(b, "forge-issue", ["list", "--json", "updatedAt"]))[0]!.updatedAt, latest);
  await ok(a, "forge-issue", ["comment", "1", "-b", "again"], { FORGE_AUTHOR: "ann" });
  commitAll(a, "ann comments again");
  const again = gitTry(b, ["pull", "-q", "--no-edit", "peer", "main"]);
  t.is(again.code, 0, again.out);
  const newest = jsonl(await ok(b, "forge-issue", ["view", "1", "--json", "updatedAt"]))[0]!.updatedAt as string;
  t.true(newest > latest);
  t.is(jsonl(await ok(b, "forge-issue", ["list", "--json", "updatedAt"]))[0]!.updatedAt, newest);
  rmSync(join(b, ".forge", ".cache"), { recursive: true, force: true });
  t.is(jsonl(await ok(b, "forge-issue", ["list", "--json", "updatedAt"]))[0]!.updatedAt, newest);
});
