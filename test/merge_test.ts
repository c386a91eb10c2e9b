/**
 * Two clones that edit different fields of the same issue merge with a
 * plain `git pull` and no conflict: every edit changes only its own lines
 * (no stored `updated` stamp). Same-field edits may conflict; that is git's
 * job to report, and not tested here.
 */
import test from "ava";
import { writeFixture } from "./lib/fixture.js";
import { addPeer, cloneAs, commitAll, gitIn, gitTry, originRepo } from "./lib/clones.js";
import { removeScratch } from "./lib/scratch.js";
import { jsonl, run } from "./lib/run.js";

test.after.always(removeScratch);

/** An origin holding the fixture store, and clones for alice (a) and bob (b) that know each other. */
async function pair(): Promise<{ a: string; b: string }> {
  const origin = originRepo();
  await writeFixture(origin);
  commitAll(origin, "fixture");
  const a = cloneAs(origin, "alice");
  const b = cloneAs(origin, "bob");
  addPeer(a, b);
  addPeer(b, a);
  return { a, b };
}

/** Run forge-issue as `author` in `cwd`, expecting success. */
async function issue(cwd: string, author: string, args: string[]): Promise<string> {
  const r = await run("forge-issue", args, { cwd, env: { FORGE_AUTHOR: author } });
  if (r.code !== 0) throw new Error(`forge-issue ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

/** Pull `peer main` into `cwd`: exit 0, a merge commit, nothing unmerged, no conflict markers. */
function pullClean(t: import("ava").ExecutionContext, cwd: string): void {
  const r = gitTry(cwd, ["pull", "--no-rebase", "peer", "main"]);
  t.is(r.code, 0, r.out);
  t.notRegex(r.out, /CONFLICT/);
  t.is(gitIn(cwd, ["diff", "--name-only", "--diff-filter=U"]), "");
  t.is(gitTry(cwd, ["grep", "-q", "-e", "^<<<<<<<", "--", ".forge"]).code, 1, "conflict markers in .forge");
}

async function view(cwd: string, ref: string, fields: string): Promise<Record<string, unknown>> {
  return jsonl(await issue(cwd, "alice", ["view", ref, "--json", fields]))[0]!;
}

test("a label added in one clone and a close in the other merge without a conflict", async (t) => {
  const { a, b } = await pair();
  await issue(a, "alice", ["edit", "1", "--add-label", "enhancement"]);
  commitAll(a, "label enhancement on #1");
  await issue(b, "bob", ["close", "1"]);
  commitAll(b, "close #1");
  pullClean(t, b);
  const merged = await view(b, "1", "state,labels");
  t.is(merged.state, "CLOSED");
  t.deepEqual(
    (merged.labels as Array<{ name: string }>).map((l) => l.name),
    ["bug", "enhancement"]
  );
  // And back: a gets the same issue.
  const back = gitTry(a, ["pull", "--no-rebase", "peer", "main"]);
  t.is(back.code, 0, back.out);
  t.deepEqual(
    await view(a, "1", "state,labels,closedAt,updatedAt"),
    await view(b, "1", "state,labels,closedAt,updatedAt")
  );
});

test("an assignee added in one clone and a new title in the other merge without a conflict", async (t) => {
  const { a, b } = await pair();
  await issue(a, "alice", ["edit", "2", "--add-assignee", "carol"]);
  commitAll(a, "assign carol to #2");
  await issue(b, "bob", ["edit", "2", "--title", "Add a dark theme"]);
  commitAll(b, "retitle #2");
  pullClean(t, b);
  t.deepEqual(await view(b, "2", "title,assignees"), {
    assignees: [{ login: "bob" }, { login: "carol" }],
    title: "Add a dark theme",
  });
});

test("an assignee added to an issue with none and a new title merge without a conflict", async (t) => {
  const { a, b } = await pair();
  await issue(a, "alice", ["edit", "3", "--add-assignee", "@me"]);
  commitAll(a, "assign #3");
  await issue(b, "bob", ["edit", "3", "--title", "Typo in the README"]);
  commitAll(b, "retitle #3");
  pullClean(t, b);
  t.deepEqual(await view(b, "3", "title,assignees"), { assignees: [{ login: "alice" }], title: "Typo in the README" });
});

test("comments made in both clones and a close with a comment merge without a conflict", async (t) => {
  const { a, b } = await pair();
  await issue(a, "alice", ["comment", "4", "-b", "from a"]);
  await issue(a, "alice", ["edit", "4", "--milestone", "v2"]);
  commitAll(a, "comment on #4, milestone v2");
  await issue(b, "bob", ["close", "4", "-c", "from b"]);
  commitAll(b, "close #4");
  pullClean(t, b);
  const v = await view(b, "4", "state,milestone,comments");
  t.is(v.state, "CLOSED");
  t.is((v.milestone as { title: string }).title, "v2");
  t.deepEqual((v.comments as Array<{ body: string }>).map((c) => c.body).sort(), ["from a", "from b"]);
});

test("an issue archived in one clone and commented on in the other stays one issue, numbers unchanged", async (t) => {
  const { a, b } = await pair();
  const before = await issue(a, "alice", ["list", "--state", "all", "--json", "number,id"]);
  await issue(a, "alice", ["archive", "5"]);
  commitAll(a, "archive #5");
  await issue(b, "bob", ["comment", "5", "-b", "still here"]);
  commitAll(b, "comment on #5");
  pullClean(t, b);
  // git moved issue.md to the archive and left the new comment in the live folder:
  // still one #5, archived, with its comment, and no other number moved.
  const v = await view(b, "5", "number,isArchived,title,comments");
  t.like(v, { number: 5, isArchived: true, title: "Support --web flag" });
  t.deepEqual(
    (v.comments as Array<{ body: string }>).map((c) => c.body),
    ["still here"]
  );
  const after = await issue(b, "alice", ["list", "--state", "all", "--json", "number,id"]);
  t.deepEqual(
    jsonl(after),
    jsonl(before).filter((r) => r.number !== 5)
  );
  t.deepEqual(await view(b, "6", "number,title"), { number: 6, title: "Slow list with many issues" });
});
