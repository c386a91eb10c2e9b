/**
 * gh parity (issue 13), end to end on one real repository: gh's own manual
 * examples run verbatim with `forge` for `gh`, the search qualifiers, the
 * new verbs (pr merge/ready/checks/status, issue status, forge run …) and
 * fields with golden JSON, `-R`, gh's array output piped into `-`, and the
 * error for an unknown `--json` field.
 */
import test from "ava";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { golden } from "./lib/golden.js";
import { snapshot } from "./lib/hostile.js";
import { git, jsonl, run, sh, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const SINCE = "2000-01-01T00:00:00Z";

/** Replace what differs between runs: ids, stamps, commit shas, the repo path. */
function clean(s: string, repo: string): string {
  return s
    .split(repo)
    .join("<repo>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, "<uuid>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g, (t) => (t >= SINCE ? "<now>" : t))
    .replace(/\b[0-9a-f]{40}\b/g, "<sha>")
    .replace(/\b[0-9a-f]{64}\b/g, "<sha256>");
}

interface World {
  dir: string;
  /** The head commit of PR 1 (fix-crash). */
  sha: string;
}

let world: Promise<World> | undefined;

/**
 * Issues 1–3 (3 closed "not planned"), PR 1 `fix-crash` (2 commits, bob asked
 * to review, CI run 1 passed, then merged with --rebase), PR 2 `docs` (a
 * draft), origin `https://github.com/acme/widgets`.
 */
function setup(): Promise<World> {
  return (world ??= (async () => {
    const dir = scratch(tempRepo("forge-gh-"));
    const ok = async (prog: string, args: string[], input?: string): Promise<string> => {
      const r = await run(prog, args, { cwd: dir, input });
      if (r.code !== 0) throw new Error(`${prog} ${args.join(" ")}: ${r.stderr}`);
      return r.stdout;
    };
    git(dir, ["remote", "add", "origin", "https://github.com/acme/widgets.git"]);
    mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
    writeFileSync(join(dir, ".forge", "ci", "steps", "10-test"), "#!/bin/sh\necho testing\nexit 0\n");
    chmodSync(join(dir, ".forge", "ci", "steps", "10-test"), 0o755);
    writeFileSync(join(dir, "app.txt"), "v1\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "-m", "init"]);
    await ok("forge-issue", [
      "create",
      "-t",
      "Crash on start",
      "-b",
      "error on start",
      "-l",
      "bug,help wanted",
      "-a",
      "@me",
    ]);
    await ok("forge-issue", ["create", "-t", "Big release", "-b", "ping @alice", "-m", "The big 1.0"], undefined);
    await ok("forge-issue", ["create", "-t", "Old error", "-b", "an error", "-l", "bug"]);
    // In a later second than #2's creation: the comment makes #1 the most recently updated (issue status's order).
    await new Promise((res) => setTimeout(res, 1000 - (Date.now() % 1000) + 20));
    await ok("forge-issue", ["comment", "1", "-b", "Same error here."]);
    await ok("forge-issue", ["close", "3", "--reason", "not planned"]);
    git(dir, ["switch", "-q", "-c", "fix-crash"]);
    writeFileSync(join(dir, "app.txt"), "v2\n");
    git(dir, ["commit", "-q", "-am", "Fix the crash", "-m", "It crashed on start."]);
    writeFileSync(join(dir, "typo.txt"), "fixed\n");
    git(dir, ["add", "typo.txt"]);
    git(dir, ["commit", "-q", "-m", "Fix a typo"]);
    const sha = git(dir, ["rev-parse", "HEAD"]).trim();
    await ok("forge-pr", ["create", "--fill", "-r", "bob", "-l", "bug"]);
    git(dir, ["switch", "-q", "-c", "docs", "main"]);
    writeFileSync(join(dir, "README"), "docs\n");
    git(dir, ["add", "README"]);
    git(dir, ["commit", "-q", "-m", "Write the docs"]);
    await ok("forge-pr", ["create", "--fill", "--draft"]);
    git(dir, ["switch", "-q", "fix-crash"]);
    // The review first: within one second reviews sort before comments, so the golden is stable either way.
    await ok("forge-pr", ["review", "1", "--comment", "-b", "One nit."]);
    await ok("forge-pr", ["comment", "1", "-b", "Looks right."]);
    await ok("forge-ci", ["run", "1"]);
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-q", "-m", "store"]);
    return { dir, sha };
  })());
}

// --- gh's manual examples, verbatim (IDs and SHAs are this store's) ---

interface Example {
  /** The gh command line, with `gh` replaced by `forge`. */
  argv: string[];
  code?: number;
  /** What the output must show (a number per line for lists: `number` column first). */
  expect?: RegExp;
  not?: RegExp;
}

const EXAMPLES: Example[] = [
  // gh issue list --help
  {
    argv: ["issue", "list", "--label", "bug", "--label", "help wanted"],
    expect: /^1\tOPEN\tCrash on start/m,
    not: /Old error/,
  },
  { argv: ["issue", "list", "--author", "monalisa"], expect: /^$/ },
  { argv: ["issue", "list", "--assignee", "@me"], expect: /^1\t/m, not: /^2\t/m },
  { argv: ["issue", "list", "--milestone", "The big 1.0"], expect: /^2\tOPEN\tBig release/m, not: /^1\t/m },
  { argv: ["issue", "list", "--search", "error no:assignee sort:created-asc"], expect: /^$/ },
  {
    argv: ["issue", "list", "--search", "error no:assignee sort:created-asc", "--state", "all"],
    expect: /^3\tCLOSED\tOld error/m,
    not: /^1\t/m,
  },
  { argv: ["issue", "list", "--state", "all"], expect: /^3\t[^]*^2\t[^]*^1\t/m },
  // gh pr list --help
  { argv: ["pr", "list", "--author", "@me"], expect: /^2\tDRAFT/m },
  { argv: ["pr", "list", "--head", "typo"], expect: /^$/ },
  { argv: ["pr", "list", "--label", "bug", "--label", "priority 1"], expect: /^$/ },
  { argv: ["pr", "list", "--search", "status:success review:required"], expect: /^1\tOPEN\tpass/m, not: /^2\t/m },
  { argv: ["pr", "list", "--search", "<SHA>", "--state", "merged"], expect: /^$/ },
  { argv: ["pr", "list", "--search", "<SHA>"], expect: /^1\t/m, not: /^2\t/m },
  // gh pr checks --help
  { argv: ["pr", "checks"], expect: /^10-test\tpass\t/m },
  {
    argv: ["pr", "checks", "1", "--json", "name,state,bucket"],
    expect: /^\{"bucket":"pass","name":"10-test","state":"SUCCESS"\}$/m,
  },
  { argv: ["pr", "checks", "--required"], expect: /^10-test\tpass/m },
  { argv: ["pr", "checks", "2"], code: 1 },
  // gh run list / run view --help
  { argv: ["run", "list"], expect: /^completed\tsuccess\tfix crash\tci\tfix-crash\tpull_request\t1\t/m },
  {
    argv: ["run", "list", "--json", "databaseId,status,conclusion"],
    expect: /^\{"conclusion":"success","databaseId":1,"status":"completed"\}$/m,
  },
  { argv: ["run", "list", "--workflow", "ci", "--branch", "fix-crash", "--limit", "1"], expect: /\t1\t/ },
  { argv: ["run", "view", "1"], expect: /^run 1 pass/m },
  { argv: ["run", "view", "1", "--exit-status"], expect: /pass/ },
  { argv: ["run", "view", "1", "--log"], expect: /^ci\t10-test\ttesting$/m },
  { argv: ["run", "view", "1", "--log-failed"], expect: /^$/ },
  // the search qualifiers of issue 13
  { argv: ["issue", "list", "-S", "is:open author:@me"], expect: /^2\t[^]*^1\t/m },
  { argv: ["issue", "list", "-S", "is:closed"], expect: /^3\tCLOSED/m, not: /^1\t/m },
  { argv: ["issue", "list", "-S", 'label:"help wanted"'], expect: /^1\t/m },
  { argv: ["issue", "list", "-S", "-label:bug"], expect: /^2\t/m, not: /^1\t/m },
  { argv: ["issue", "list", "-S", 'milestone:"The big 1.0"'], expect: /^2\t/m },
  { argv: ["issue", "list", "-S", "no:label no:assignee"], expect: /^2\t/m, not: /^1\t/m },
  { argv: ["issue", "list", "-S", "same in:comments"], expect: /^1\t/m, not: /^2\t/m },
  { argv: ["issue", "list", "-S", "start in:title"], expect: /^1\t/m },
  { argv: ["issue", "list", "-S", "created:>=2000-01-01 updated:<2999-01-01"], expect: /^2\t[^]*^1\t/m },
  { argv: ["issue", "list", "-S", "created:2000-01-01..2000-12-31"], expect: /^$/ },
  { argv: ["issue", "list", "-S", "closed:>2000-01-01"], expect: /^3\tCLOSED/m },
  { argv: ["issue", "list", "-S", 'reason:"not planned"', "-s", "closed"], expect: /^3\t/m },
  { argv: ["issue", "list", "-S", "sort:created-asc"], expect: /^1\t[^]*^2\t/m },
  { argv: ["issue", "list", "-S", "sort:comments-desc", "-L", "1"], expect: /^1\t/m, not: /^2\t/m },
  { argv: ["issue", "list", "-S", "assignee:alice"], expect: /^1\t/m, not: /^2\t/m },
  { argv: ["issue", "list", "-S", "bogus:word"], expect: /^$/ },
  { argv: ["pr", "list", "-S", "is:draft"], expect: /^2\tDRAFT/m, not: /^1\t/m },
  { argv: ["pr", "list", "-S", "is:unmerged -is:draft"], expect: /^1\t/m, not: /^2\t/m },
  { argv: ["pr", "list", "-S", "head:fix base:main"], expect: /^1\t/m, not: /^2\t/m },
  { argv: ["pr", "list", "-S", "review:approved"], expect: /^$/ },
  { argv: ["pr", "list", "-S", "status:pending"], expect: /^$/ },
  { argv: ["pr", "list", "-S", "author:app/alice draft:false"], expect: /^1\t/m },
  { argv: ["pr", "list", "-S", "merged:>2000-01-01"], expect: /^$/ },
  { argv: ["pr", "list", "--draft"], expect: /^2\tDRAFT/m, not: /^1\t/m },
];

for (const ex of EXAMPLES) {
  test.serial(`'forge ${ex.argv.join(" ")}' (gh's example) works`, async (t) => {
    const w = await setup();
    const argv = ex.argv.map((a) => a.replace("<SHA>", w.sha.slice(0, 12)));
    const r = await run("forge", argv, { cwd: w.dir });
    t.is(r.code, ex.code ?? 0, r.stderr);
    if (ex.expect) t.regex(r.stdout, ex.expect, r.stdout);
    if (ex.not) t.notRegex(r.stdout, ex.not, r.stdout);
  });
}

// --- golden JSON of the new fields and verbs ---

const GOLDEN: Array<{ name: string; argv: string[]; code?: number }> = [
  {
    name: "issue_fields",
    argv: ["issue", "list", "-s", "all", "--json", "number,url,state,stateReason,closed,isPinned"],
  },
  { name: "issue_status", argv: ["issue", "status", "--json", "number,title"] },
  { name: "issue_status_text", argv: ["issue", "status"] },
  { name: "issue_view_comments", argv: ["issue", "view", "1", "--comments"] },
  {
    name: "pr_fields",
    argv: [
      "pr",
      "view",
      "--json",
      "number,url,mergeable,mergeStateStatus,reviewDecision,latestReviews,reviewRequests,commits,mergeCommit," +
        "headRefOid,baseRefOid,changedFiles,additions,deletions,closed",
    ],
  },
  { name: "pr_list_fields", argv: ["pr", "list", "--json", "number,isDraft,mergeStateStatus,reviewDecision,url"] },
  { name: "pr_status", argv: ["pr", "status", "--json", "number,headRefName"] },
  { name: "pr_status_text", argv: ["pr", "status"] },
  { name: "pr_checks", argv: ["pr", "checks", "--json", "name,state,bucket,startedAt,completedAt,link,workflow"] },
  { name: "pr_view_comments", argv: ["pr", "view", "--comments"] },
  {
    name: "run_list",
    argv: [
      "run",
      "list",
      "--json",
      "databaseId,status,conclusion,name,displayTitle,workflowName,headBranch,headSha,event,createdAt,updatedAt," +
        "url,attempt",
    ],
  },
  { name: "run_view", argv: ["run", "view", "1", "--json", "databaseId,attempt,url,headBranch"] },
];

for (const g of GOLDEN) {
  test.serial(`golden: forge ${g.argv.join(" ")}`, async (t) => {
    const w = await setup();
    const r = await run("forge", g.argv, { cwd: w.dir });
    t.is(r.code, g.code ?? 0, r.stderr);
    golden(t, `gh/${g.name}.${g.argv.includes("--json") ? "jsonl" : "txt"}`, clean(r.stdout, w.dir));
  });
}

test.serial("'--json' with an unknown field lists the valid ones, for the new verbs too", async (t) => {
  const w = await setup();
  for (const argv of [
    ["pr", "checks", "--json", "nope"],
    ["run", "list", "--json", "nope"],
    ["issue", "list", "--json", "nope"],
    ["pr", "view", "--json", "nope"],
  ]) {
    const r = await run("forge", argv, { cwd: w.dir });
    t.is(r.code, 2, argv.join(" "));
    t.regex(r.stderr, /unknown JSON field 'nope'; available: [a-zA-Z,]+/, argv.join(" "));
    t.is(r.stderr.split("\n").length, 2);
  }
  const r = await run("forge", ["pr", "list", "--json", "nope"], { cwd: w.dir });
  for (const f of [
    "url",
    "mergeable",
    "mergeStateStatus",
    "reviewDecision",
    "latestReviews",
    "reviewRequests",
    "commits",
    "mergeCommit",
  ])
    t.true(r.stderr.includes(f), f);
});

test.serial("-R names this repository (origin's owner/name) or fails naming the one served", async (t) => {
  const w = await setup();
  const same = await run("forge", ["issue", "list", "-R", "acme/widgets", "--json", "number"], { cwd: w.dir });
  t.is(same.code, 0, same.stderr);
  const url = await run("forge", ["pr", "list", "--repo", "https://github.com/ACME/widgets.git", "--json", "number"], {
    cwd: w.dir,
  });
  t.is(url.code, 0, url.stderr);
  const other = await run("forge", ["pr", "list", "-R", "other/thing"], { cwd: w.dir });
  t.is(other.code, 1);
  t.is(other.stderr, "forge-pr list: this store serves acme/widgets, not other/thing\n");
  const noArg = await run("forge", ["pr", "view", "-R", "acme/widgets"], { cwd: w.dir });
  t.is(noArg.code, 2);
  t.regex(noArg.stderr, /argument required when using the --repo flag/);
  const bad = await run("forge", ["run", "list", "-R", "widgets"], { cwd: w.dir });
  t.is(bad.code, 2);
  t.regex(bad.stderr, /expected the "\[HOST\/\]OWNER\/REPO" format, got "widgets"/);
});

test.serial(
  "pr create: a second PR from the same head names the first; no commits is gh's one-line error",
  async (t) => {
    const w = await setup();
    const again = await run("forge", ["pr", "create", "--fill", "-H", "fix-crash"], { cwd: w.dir });
    t.is(again.code, 1);
    t.is(
      again.stderr,
      'forge-pr create: a pull request for branch "fix-crash" into branch "main" already exists: #1\n'
    );
    git(w.dir, ["branch", "-f", "empty", "main"]);
    const empty = await run("forge", ["pr", "create", "--fill", "-H", "empty"], { cwd: w.dir });
    t.is(empty.code, 1);
    t.is(empty.stderr, "forge-pr create: No commits between main and empty\n");
  }
);

test.serial(
  "pr merge: a draft is refused until pr ready; --rebase keeps the series' commits; then mergeCommit",
  async (t) => {
    const w = await setup();
    const draft = await run("forge", ["pr", "merge", "2"], { cwd: w.dir });
    t.is(draft.code, 1);
    t.regex(draft.stderr, /still a draft; mark it ready first: forge pr ready 2/);
    const before = git(w.dir, ["rev-parse", "main"]).trim();
    const m = await run("forge", ["pr", "merge", "1", "--rebase", "--json", "verdict"], { cwd: w.dir });
    t.is(m.code, 0, m.stderr);
    t.deepEqual(jsonl(m.stdout), [{ verdict: "merged" }]);
    const log = git(w.dir, ["log", "--format=%s", `${before}..main`])
      .trim()
      .split("\n");
    t.deepEqual(log.slice(-2), ["Fix a typo", "Fix the crash"]);
    const v = await run("forge", ["pr", "view", "1", "--json", "state,mergeCommit"], { cwd: w.dir });
    t.deepEqual(jsonl(v.stdout), [{ mergeCommit: { oid: git(w.dir, ["rev-parse", "main"]).trim() }, state: "MERGED" }]);
    const s = await run(
      "forge",
      ["pr", "list", "-S", `${git(w.dir, ["rev-parse", "main"]).trim().slice(0, 10)} is:merged`, "--json", "number"],
      { cwd: w.dir }
    );
    t.deepEqual(jsonl(s.stdout), [{ number: 1 }], "a merge commit's SHA finds its PR");
    const ready = await run("forge", ["pr", "ready", "2"], { cwd: w.dir });
    t.is(ready.code, 0, ready.stderr);
    const again = await run("forge", ["pr", "ready", "2"], { cwd: w.dir });
    t.is(again.stderr, '! Pull request #2 is already "ready for review"\n');
    const undo = await run("forge", ["pr", "ready", "2", "--undo", "--json", "isDraft"], { cwd: w.dir });
    t.deepEqual(jsonl(undo.stdout), [{ isDraft: true }]);
  }
);

test.serial("a script written for gh: `gh pr list --json number` (an array) into `forge pr close -`", async (t) => {
  const w = await setup();
  // gh prints a JSON array; jq -c . keeps it one array on one line, as a pipe sees it.
  const arr = await run("forge", ["pr", "close", "-"], { cwd: w.dir, input: '[\n  {\n    "number": 2\n  }\n]\n' });
  t.is(arr.code, 0, arr.stderr);
  t.regex(arr.stderr, /Closed pull request #2/);
  const r = await run("forge", ["pr", "reopen", "-", "--json", "number,state"], {
    cwd: w.dir,
    input: '[{"number":2}]',
  });
  t.deepEqual(jsonl(r.stdout), [{ number: 2, state: "OPEN" }]);
  const piped = await sh("forge pr list --json number --jq . | forge pr close - --json number,state", { cwd: w.dir });
  t.is(piped.code, 0, piped.stderr);
  t.deepEqual(jsonl(piped.stdout), [{ number: 2, state: "CLOSED" }]);
});

test.serial(
  "label rename renames it on every issue and PR; an undefined label or milestone is an error naming it",
  async (t) => {
    const w = await setup();
    // A store with no labels.md has GitHub's default labels (bug, help wanted, …), and only those.
    const none = await run("forge", ["issue", "edit", "2", "--add-label", "nope"], { cwd: w.dir });
    t.is(none.code, 1);
    t.is(none.stderr, "forge-issue edit: could not add label: 'nope' not found\n");
    const c = await run("forge", ["label", "create", "nope"], { cwd: w.dir });
    t.is(c.code, 0, c.stderr);
    const added = await run("forge", ["issue", "edit", "2", "--add-label", "NOPE"], { cwd: w.dir });
    t.is(added.code, 0, added.stderr);
    const bad = await run("forge", ["issue", "create", "-t", "x", "-l", "bug,typo"], { cwd: w.dir });
    t.is(bad.code, 1);
    t.is(bad.stderr, "forge-issue create: could not add label: 'typo' not found\n");
    const badPr = await run("forge", ["pr", "edit", "1", "--add-label", "typo"], { cwd: w.dir });
    t.is(badPr.stderr, "forge-pr edit: could not add label: 'typo' not found\n");
    await run("forge", ["milestone", "create", "v1"], { cwd: w.dir });
    const badMs = await run("forge", ["issue", "edit", "1", "-m", "v9"], { cwd: w.dir });
    t.is(badMs.stderr, "forge-issue edit: could not add to milestone 'v9': not found\n");
    const mv = await run("forge", ["label", "edit", "bug", "--name", "defect"], { cwd: w.dir });
    t.is(mv.code, 0, mv.stderr);
    const issues = await run(
      "forge",
      ["issue", "list", "-s", "all", "--json", "number,labels", "--jq", "[.[] | {number, labels: [.labels[].name]}]"],
      { cwd: w.dir }
    );
    t.deepEqual(JSON.parse(issues.stdout), [
      { number: 3, labels: ["defect"] },
      { number: 2, labels: ["nope"] },
      { number: 1, labels: ["defect", "help wanted"] },
    ]);
    const prs = await run("forge", ["pr", "view", "1", "--json", "labels", "--jq", "[.labels[].name]"], { cwd: w.dir });
    t.deepEqual(JSON.parse(prs.stdout), ["defect"]);
  }
);

test.serial("pr checks exits 8 while a check is pending, 0 with --json (gh's codes)", async (t) => {
  const w = await setup();
  const pr = jsonl((await run("forge", ["pr", "view", "2", "--json", "id"], { cwd: w.dir })).stdout)[0]!.id as string;
  const file = join(w.dir, ".forge", "prs", pr, "pr.md");
  const { readFileSync } = await import("node:fs");
  writeFileSync(file, readFileSync(file, "utf8").replace(/^createdAt:/m, "ci: running\ncreatedAt:"));
  const r = await run("forge", ["pr", "checks", "2"], { cwd: w.dir });
  t.is(r.code, 8, r.stderr);
  t.is(r.stdout, "ci\tpending\t0\t\t\n");
  const j = await run("forge", ["pr", "checks", "2", "--json", "name,bucket,state"], { cwd: w.dir });
  t.is(j.code, 0);
  t.is(j.stdout, '{"bucket":"pending","name":"ci","state":"IN_PROGRESS"}\n');
});

test(
  "pr create's default base: origin's HEAD, else " + "init.defaultBranch when it exists, else main, else master",
  async (t) => {
    const dir = scratch(tempRepo("forge-gh-base-"));
    git(dir, ["commit", "-q", "--allow-empty", "-m", "root"]);
    git(dir, ["branch", "-m", "main", "trunk"]);
    git(dir, ["config", "init.defaultBranch", "trunk"]);
    git(dir, ["switch", "-q", "-c", "topic"]);
    git(dir, ["commit", "-q", "--allow-empty", "-m", "work"]);
    writeFileSync(join(dir, "f.txt"), "x\n");
    git(dir, ["add", "f.txt"]);
    git(dir, ["commit", "-q", "-m", "Add f"]);
    const r = await run("forge", ["pr", "create", "--fill", "--json", "baseRefName,title"], { cwd: dir });
    t.is(r.code, 0, r.stderr);
    t.deepEqual(jsonl(r.stdout), [{ baseRefName: "trunk", title: "topic" }]);
    git(dir, ["config", "--unset", "init.defaultBranch"]);
    git(dir, ["branch", "-m", "trunk", "master"]);
    git(dir, ["switch", "-q", "-c", "topic2", "master"]);
    writeFileSync(join(dir, "g.txt"), "y\n");
    git(dir, ["add", "g.txt"]);
    git(dir, ["commit", "-q", "-m", "Add g"]);
    const m = await run("forge", ["pr", "create", "--fill", "--json", "baseRefName,title,body"], { cwd: dir });
    t.is(m.code, 0, m.stderr);
    t.deepEqual(jsonl(m.stdout), [{ baseRefName: "master", title: "Add g", body: "" }]);
  }
);

// --- issue 31, items 10–11 (helper habits-noun): gh habits of run, label, milestone and release ---

/** A fresh repo with one commit on main. */
function freshRepo(prefix: string): string {
  const dir = scratch(tempRepo(prefix));
  writeFileSync(join(dir, "app.txt"), "v1\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  return dir;
}

async function must(dir: string, prog: string, args: string[]): Promise<string> {
  const r = await run(prog, args, { cwd: dir });
  if (r.code !== 0) throw new Error(`${prog} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

test("run view --json jobs: gh's jobs[] (one job `ci`, its steps numbered), not a field of run list", async (t) => {
  const dir = freshRepo("forge-gh-jobs-");
  const d = join(dir, ".forge", "ci", "steps");
  mkdirSync(d, { recursive: true });
  for (const [name, code] of [
    ["10-ok", 0],
    ["20-bad", 3],
    ["30-never", 0],
  ] as const) {
    writeFileSync(join(d, name), `#!/bin/sh\nexit ${code}\n`);
    chmodSync(join(d, name), 0o755);
  }
  t.is((await run("forge-ci", ["run"], { cwd: dir })).code, 1);
  const r = await run("forge", ["run", "view", "1", "--json", "jobs"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  const { jobs } = JSON.parse(r.stdout) as { jobs: Array<Record<string, unknown>> };
  t.is(jobs.length, 1);
  const job = jobs[0]!;
  // gh's keys (pkg/cmd/run/shared Run.ExportData), sorted as gh prints them.
  t.deepEqual(Object.keys(job), [
    "completedAt",
    "conclusion",
    "databaseId",
    "name",
    "startedAt",
    "status",
    "steps",
    "url",
  ]);
  t.like(job, { name: "ci", status: "completed", conclusion: "failure", databaseId: 1 });
  t.regex(job.url as string, /\/actions\/runs\/1\/job\/1$/);
  const steps = job.steps as Array<Record<string, unknown>>;
  t.deepEqual(
    steps.map((s) => [s.number, s.name, s.status, s.conclusion]),
    [
      [1, "10-ok", "completed", "success"],
      [2, "20-bad", "completed", "failure"],
      [3, "30-never", "completed", "skipped"],
    ]
  );
  t.deepEqual(Object.keys(steps[0]!), ["completedAt", "conclusion", "name", "number", "startedAt", "status"]);
  t.regex(steps[0]!.startedAt as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // A step that never started has Go's zero time, as gh prints it.
  t.is(steps[2]!.startedAt, "0001-01-01T00:00:00Z");
  // gh: jobs is SingleRunFields only; `run list --json jobs` lists the fields.
  const l = await run("forge", ["run", "list", "--json", "jobs"], { cwd: dir });
  t.is(l.code, 2);
  t.regex(l.stderr, /unknown JSON field 'jobs'/);
  const jq = await run("forge", ["run", "view", "1", "--json", "jobs", "--jq", ".jobs[].steps[].name"], { cwd: dir });
  t.is(jq.stdout, "10-ok\n20-bad\n30-never\n");
});

test("label delete takes the label off every issue and PR, as gh does", async (t) => {
  const dir = freshRepo("forge-gh-label-");
  // Both are GitHub's default labels, which a new store has.
  await must(dir, "forge", ["issue", "create", "-t", "one", "-l", "wontfix,bug"]);
  await must(dir, "forge", ["issue", "create", "-t", "two", "-l", "wontfix"]);
  git(dir, ["checkout", "-qb", "topic"]);
  writeFileSync(join(dir, "app.txt"), "v2\n");
  git(dir, ["commit", "-qam", "Change"]);
  await must(dir, "forge", ["pr", "create", "-t", "Change", "-b", "", "-B", "main", "-l", "wontfix"]);
  git(dir, ["checkout", "-q", "main"]);
  const d = await run("forge", ["label", "delete", "WontFix", "--yes"], { cwd: dir });
  t.is(d.code, 0, d.stderr);
  const issues = await run(
    "forge",
    ["issue", "list", "--json", "number,labels", "--jq", ".[] | [.number, (.labels | map(.name))]"],
    {
      cwd: dir,
    }
  );
  t.deepEqual(issues.stdout.trim().split("\n").sort(), ['[1,["bug"]]', "[2,[]]"]);
  const pr = await run("forge", ["pr", "view", "1", "--json", "labels"], { cwd: dir });
  t.is(pr.stdout, '{"labels":[]}\n');
  t.is((await run("forge", ["issue", "list", "-l", "wontfix", "--json", "number"], { cwd: dir })).stdout, "");
});

test("an unknown label is always refused, as gh does; a new store has GitHub's default labels", async (t) => {
  const dir = freshRepo("forge-gh-labels-");
  git(dir, ["checkout", "-qb", "topic"]);
  writeFileSync(join(dir, "app.txt"), "v2\n");
  git(dir, ["commit", "-qam", "Change"]);
  // Fresh: no labels.md, GitHub's 9 defaults.
  const names = await must(dir, "forge", ["label", "list", "--json", "name", "--jq", ".[].name"]);
  t.is(
    names,
    "bug\ndocumentation\nduplicate\nenhancement\ngood first issue\nhelp wanted\ninvalid\nquestion\nwontfix\n"
  );
  await must(dir, "forge", ["issue", "create", "-t", "one", "-l", "Bug,good first issue"]);
  const one = await must(dir, "forge", ["issue", "view", "1", "--json", "labels"]);
  // Stored as defined (Bug → bug), shown with GitHub's colours and descriptions.
  t.deepEqual(JSON.parse(one).labels, [
    { name: "bug", description: "Something isn't working", color: "d73a4a" },
    { name: "good first issue", description: "Good for newcomers", color: "7057ff" },
  ]);
  // Unknown: gh's message, exit 1, nothing written (no issue, no PR, no labels.md).
  const before = snapshot(dir);
  const refused: Array<[string, string[], string]> = [
    ["issue create", ["issue", "create", "-t", "two", "-l", "bug,x"], "forge-issue create"],
    ["issue edit", ["issue", "edit", "1", "--add-label", "x"], "forge-issue edit"],
    ["pr create", ["pr", "create", "-t", "Change", "-b", "", "-B", "main", "-l", "x"], "forge-pr create"],
  ];
  for (const [what, argv, prog] of refused) {
    const r = await run("forge", argv, { cwd: dir });
    t.is(r.code, 1, what);
    t.is(r.stderr, `${prog}: could not add label: 'x' not found\n`, what);
    t.deepEqual(snapshot(dir), before, what);
  }
  t.false(existsSync(join(dir, ".forge", "labels.md")));
  // A PR to edit, then the same refusal there.
  await must(dir, "forge", ["pr", "create", "-t", "Change", "-b", "", "-B", "main", "-l", "enhancement"]);
  const mid = snapshot(dir);
  const pe = await run("forge", ["pr", "edit", "1", "--add-label", "x"], { cwd: dir });
  t.is(pe.code, 1);
  t.is(pe.stderr, "forge-pr edit: could not add label: 'x' not found\n");
  t.deepEqual(snapshot(dir), mid);
  // Once created, x is accepted everywhere; labels.md holds the defaults and x.
  await must(dir, "forge", ["label", "create", "x"]);
  await must(dir, "forge", ["issue", "edit", "1", "--add-label", "x"]);
  await must(dir, "forge", ["issue", "create", "-t", "two", "-l", "X"]);
  await must(dir, "forge", ["pr", "edit", "1", "--add-label", "x"]);
  t.is(
    await must(dir, "forge", ["issue", "list", "--json", "number,labels", "--jq", ".[] | [.number, [.labels[].name]]"]),
    '[2,["x"]]\n[1,["bug","good first issue","x"]]\n'
  );
  t.is(
    await must(dir, "forge", ["pr", "view", "1", "--json", "labels", "--jq", "[.labels[].name]"]),
    '["enhancement","x"]\n'
  );
  t.is((await must(dir, "forge", ["label", "list", "-L", "100", "--json", "name"])).split("\n").length - 1, 10);
  // A store whose labels.md defines none refuses every label, as a repository with none does.
  writeFileSync(join(dir, ".forge", "labels.md"), "---\nlabels: []\n---\n");
  const empty = await run("forge", ["issue", "create", "-t", "three", "-l", "bug"], { cwd: dir });
  t.is(empty.stderr, "forge-issue create: could not add label: 'bug' not found\n");
});

test("milestone edit --title moves its issues and PRs to the new title, as gh does", async (t) => {
  const dir = freshRepo("forge-gh-ms-");
  await must(dir, "forge", ["milestone", "create", "v1"]);
  await must(dir, "forge", ["milestone", "create", "v2"]);
  await must(dir, "forge", ["issue", "create", "-t", "in v1", "-m", "v1"]);
  await must(dir, "forge", ["issue", "create", "-t", "in v2", "-m", "v2"]);
  git(dir, ["checkout", "-qb", "topic"]);
  writeFileSync(join(dir, "app.txt"), "v2\n");
  git(dir, ["commit", "-qam", "Change"]);
  await must(dir, "forge", ["pr", "create", "-t", "Change", "-b", "", "-B", "main", "-m", "v1"]);
  git(dir, ["checkout", "-q", "main"]);
  const e = await run("forge", ["milestone", "edit", "v1", "--title", "v1.0"], { cwd: dir });
  t.is(e.code, 0, e.stderr);
  const moved = await run(
    "forge",
    ["issue", "list", "-m", "v1.0", "--json", "title,milestone", "--jq", ".[].milestone.title"],
    {
      cwd: dir,
    }
  );
  t.is(moved.stdout, "v1.0\n");
  const other = await run("forge", ["issue", "view", "2", "--json", "milestone", "--jq", ".milestone.title"], {
    cwd: dir,
  });
  t.is(other.stdout, "v2\n");
  const pr = await run("forge", ["pr", "view", "1", "--json", "milestone", "--jq", ".milestone.title"], { cwd: dir });
  t.is(pr.stdout, "v1.0\n");
  t.is((await run("forge", ["issue", "list", "-m", "v1", "--json", "number"], { cwd: dir })).stdout, "");
});

test("release create TAG FILE… records the files as assets, as gh uploads them (FILE#label: no label)", async (t) => {
  const dir = freshRepo("forge-gh-release-");
  mkdirSync(join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "dist", "app.tar.gz"), "archive\n");
  const r = await run(
    "forge",
    ["release", "create", "v1.0", "dist/app.tar.gz#The app", "-n", "first", "--json", "assets"],
    {
      cwd: dir,
    }
  );
  t.is(r.code, 0, r.stderr);
  t.deepEqual(
    (JSON.parse(r.stdout) as { assets: Array<{ name: string; size: number }> }).assets.map((a) => [a.name, a.size]),
    [["app.tar.gz", 8]]
  );
  t.regex(r.stderr, /Created release v1\.0 at [0-9a-f]{7} \(1 asset\)\n$/);
  t.notRegex(r.stderr, /no build steps/);
  const v = await run("forge", ["release", "verify", "v1.0"], { cwd: dir });
  t.is(v.code, 0, v.stderr);
  // A missing file: one line, nothing written, no tag.
  const m = await run("forge", ["release", "create", "v2.0", "dist/nope.zip"], { cwd: dir });
  t.is(m.code, 1);
  t.is(m.stderr, "forge-release create: dist/nope.zip: no such file; no release written\n");
  t.is(git(dir, ["tag", "-l", "v2.0"]), "");
  // Several files, as `gh release create TAG FILE…` uploads them all; one missing writes none.
  writeFileSync(join(dir, "dist", "app.zip"), "zip\n");
  const none = await run("forge", ["release", "create", "v3.0", "dist/app.zip", "dist/nope.zip"], { cwd: dir });
  t.is(none.code, 1);
  t.is(git(dir, ["tag", "-l", "v3.0"]), "");
  const two = await run("forge", ["release", "create", "v3.0", "dist/app.zip", "dist/app.tar.gz", "--json", "assets"], {
    cwd: dir,
  });
  t.is(two.code, 0, two.stderr);
  t.deepEqual((JSON.parse(two.stdout) as { assets: Array<{ name: string }> }).assets.map((a) => a.name).sort(), [
    "app.tar.gz",
    "app.zip",
  ]);
});
