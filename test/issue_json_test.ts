/**
 * The JSON contract of forge-issue against gh's: field names and value
 * shapes, `--json a,b` projection, `--jq` input (an array for lists, an
 * object for `view <ref>`), jq filters written for `gh issue list --json`,
 * the default limit and order, and where confirmations go.
 */
import test from "ava";
import { ISSUE_FIELDS, isTimestamp, isUuid } from "@forge/core";
import { fixtureRepo, genId, writeManyIssues } from "./lib/fixture.js";
import { removeScratch, scratch } from "./lib/scratch.js";
import { jsonl, run, tempRepo } from "./lib/run.js";

test.after.always(removeScratch);

let repo = "";

test.before(async () => {
  repo = await fixtureRepo();
});

/** Run a command in the shared fixture repo and expect exit 0. */
async function ok(args: string[], cwd = repo): Promise<string> {
  const r = await run("forge-issue", args, { cwd });
  if (r.code !== 0) throw new Error(`forge-issue ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Run jq over `input` (one JSON document, as gh hands it over), compact as off a TTY. */
async function jq(filter: string, input: string): Promise<string> {
  const r = await run("jq", ["-r", "-c", filter], { cwd: repo, input });
  if (r.code !== 0) throw new Error(`jq ${filter}: ${r.stderr}`);
  return r.stdout;
}

/** The `--json` lines as gh's `--json` would print them: one array. */
function asArray(lines: string): string {
  return JSON.stringify(jsonl(lines));
}

// Filters as they are written for `gh issue list --json ...`, with what the fixture must give.
const GH_FILTERS: Array<[string, string]> = [
  ['.[] | select(.state=="OPEN") | .labels[].name', "enhancement\nbug\nui\nenhancement\nui\nbug\n"],
  ['map(select(.labels | any(.name == "bug"))) | map(.number)', "[6,4,1]\n"],
  [
    '.[] | [.number, .author.login, (.assignees | map(.login) | join(",")), (.milestone.title // "-")] | @tsv',
    "8\tdave\t\t-\n6\talice\t\tv2\n5\tcarol\tcarol\t-\n4\tbob\talice,bob\tv1\n" +
      "3\tcarol\t\t-\n2\tbob\tbob\t-\n1\talice\talice\tv1\n",
  ],
  ['.[] | select(.createdAt < "2020-01-04") | "\\(.number) \\(.state)"', "3 CLOSED\n2 OPEN\n1 OPEN\n"],
  [".[] | select(.closedAt != null) | .number", "6\n3\n"],
  ["[.[] | .milestone.dueOn // empty] | unique | .[]", "2020-02-01T00:00:00Z\n"],
  ['group_by(.state) | map({state: .[0].state, n: length}) | .[] | "\\(.state)=\\(.n)"', "CLOSED=2\nOPEN=5\n"],
];

for (const [filter, want] of GH_FILTERS) {
  test(`forge-issue list --jq '${filter}' gives what gh's list --json would`, async (t) => {
    const fields = "number,state,labels,assignees,author,milestone,createdAt,closedAt";
    t.is(await ok(["list", "--state", "all", "--json", fields, "--jq", filter]), want);
    // The same filter run by jq over `--json` lines gathered into gh's array.
    t.is(await jq(filter, asArray(await ok(["list", "--state", "all", "--json", fields]))), want);
  });
}

test("forge-issue view <ref> --jq gets one object, as gh's view does", async (t) => {
  t.is(await ok(["view", "1", "--jq", "type"]), "object\n");
  t.is(await ok(["view", "1", "--jq", '.comments | map(.author.login) | join(",")']), "bob,alice\n");
  t.is(await ok(["view", "4", "--json", "milestone", "--jq", ".milestone.title"]), "v1\n");
});

test("forge-issue list --jq gets an array, even for one match or none", async (t) => {
  t.is(await ok(["list", "--jq", "type"]), "array\n");
  t.is(await ok(["list", "--label", "perf", "--state", "all", "--jq", "map(.number)"]), "[6]\n");
  t.is(await ok(["list", "--label", "nope", "--jq", "length"]), "0\n");
});

test("forge-issue list --json prints one gh-shaped object per issue", async (t) => {
  const rows = jsonl(await ok(["list", "--state", "all", "--json"]));
  t.is(rows.length, 7);
  for (const r of rows) {
    // Every field except comments (as costly as in gh, where it must be asked for), in gh's sorted order.
    t.deepEqual(
      Object.keys(r),
      ISSUE_FIELDS.filter((f) => f !== "comments")
    );
    t.true(r.state === "OPEN" || r.state === "CLOSED");
    t.is(r.closed, r.state === "CLOSED");
    t.true(Number.isInteger(r.number));
    t.true(isUuid(r.id));
    t.true(isTimestamp(r.createdAt) && isTimestamp(r.updatedAt));
    t.true(r.state === "CLOSED" ? isTimestamp(r.closedAt) : r.closedAt === null);
    t.deepEqual(Object.keys(r.author as object), ["login"]);
    for (const l of r.labels as object[]) t.deepEqual(Object.keys(l), ["name", "color", "description"]);
    for (const a of r.assignees as object[]) t.deepEqual(Object.keys(a), ["login"]);
    if (r.milestone !== null)
      t.deepEqual(Object.keys(r.milestone as object), ["number", "title", "description", "dueOn"]);
  }
});

test("forge-issue view --json gives the comments in gh's shape, oldest first", async (t) => {
  const [v] = jsonl(await ok(["view", "1", "--json"]));
  t.deepEqual(Object.keys(v!), ISSUE_FIELDS);
  const comments = v!.comments as Array<Record<string, unknown>>;
  t.deepEqual(
    comments.map((c) => Object.keys(c)),
    [
      ["author", "body", "createdAt", "id"],
      ["author", "body", "createdAt", "id"],
    ]
  );
  t.deepEqual(
    comments.map((c) => (c.author as { login: string }).login),
    ["bob", "alice"]
  );
});

const PROJECTIONS: Array<[string[], string, string[]]> = [
  [["list"], "title,number,state", ["number", "state", "title"]],
  [["list"], "updatedAt,author,labels,assignees", ["assignees", "author", "labels", "updatedAt"]],
  [["list"], "comments,id", ["comments", "id"]],
  [["view", "1"], "state,comments,body", ["body", "comments", "state"]],
  [["close", "2"], "state,closedAt,number", ["closedAt", "number", "state"]],
  [["edit", "4", "--add-label", "enhancement"], "labels,id", ["id", "labels"]],
];

for (const [cmd, fields, keys] of PROJECTIONS) {
  test(`forge-issue ${cmd[0]} --json ${fields} prints exactly those keys, sorted as gh prints them`, async (t) => {
    const cwd = cmd[0] === "list" || cmd[0] === "view" ? repo : await fixtureRepo();
    const rows = jsonl(await ok([...cmd, "--json", fields], cwd));
    t.true(rows.length > 0);
    for (const r of rows) t.deepEqual(Object.keys(r), keys);
  });
}

test("forge-issue list shows 30 issues by default, newest first, like gh", async (t) => {
  const cwd = scratch(tempRepo());
  writeManyIssues(cwd, 35);
  const rows = jsonl(await ok(["list", "--json", "number,id"], cwd));
  t.deepEqual(
    rows.map((r) => r.number),
    Array.from({ length: 30 }, (_, i) => 35 - i)
  );
  t.deepEqual(
    rows.map((r) => r.id),
    Array.from({ length: 30 }, (_, i) => genId(34 - i))
  );
  t.is(jsonl(await ok(["list", "--limit", "100", "--json", "number"], cwd)).length, 35);
  t.is((await ok(["list"], cwd)).split("\n").length - 1, 30);
});

test("forge-issue list off a TTY is tab-separated with a STATE column and no colour", async (t) => {
  const out = await ok(["list", "--state", "all"]);
  const rows = out
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"));
  t.deepEqual(
    rows.map((r) => r.length),
    Array(7).fill(5)
  );
  t.deepEqual(
    rows.map((r) => r[1]),
    ["OPEN", "CLOSED", "OPEN", "OPEN", "CLOSED", "OPEN", "OPEN"]
  );
  t.false(out.includes("\x1b["));
});

const CONFIRMING: string[][] = [
  ["comment", "2", "-b", "hi"],
  ["close", "2"],
  ["close", "4", "-c", "done"],
  ["reopen", "3"],
  ["edit", "2", "--add-label", "bug"],
  ["archive", "2"],
];

for (const args of CONFIRMING) {
  test(`forge-issue ${args.join(" ")} confirms on stderr and prints nothing on stdout`, async (t) => {
    const cwd = await fixtureRepo();
    const r = await run("forge-issue", args, { cwd });
    t.is(r.code, 0, r.stderr);
    t.is(r.stdout, "");
    t.regex(r.stderr, /^(Commented on|Closed|Reopened|Edited|Archived) issue #\d+ \(.+\)\n$/);
  });
}
