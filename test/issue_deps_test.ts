/**
 * Issue dependencies and ready work through the built binaries: `--ready`
 * against beads' rule (`bd ready`: closed issues never block; a blocked
 * parent blocks its children) on 20 hand-built graphs, both list paths
 * (the record cache and the general walk), `is:blocked`/`is:ready`, the edit
 * flags with gh's link shapes, cycles refused naming their path, fsck.
 */
import test from "ava";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { formatFrontmatter, ISSUE, toFrontmatter } from "@forge/core";
import { assertOneLineError, snapshot } from "./lib/hostile.js";
import { jsonl, run, tempRepo, type Ran } from "./lib/run.js";

/** One issue of a hand-built graph: open?, blocked by, parent (numbers). */
type G = Array<[open: boolean, blockedBy: number[], parent?: number]>;

const id = (n: number): string => `${n.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;

/** Write the graph's issues straight into a new store (numbers = positions, by createdAt). */
function storeOf(g: G): string {
  const repo = tempRepo("forge-deps-");
  g.forEach(([open, by, parent], k) => {
    const n = k + 1;
    const dir = join(repo, ".forge", "issues", id(n));
    mkdirSync(dir, { recursive: true });
    const data = {
      title: `issue ${n}`,
      id: id(n),
      state: open ? "open" : "closed",
      author: "alice",
      createdAt: `2024-01-01T00:${String(Math.floor(n / 60)).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}Z`,
      labels: [],
      assignees: [],
      parent: parent === undefined ? undefined : id(parent),
      blockedBy: by.map(id),
    };
    writeFileSync(join(dir, "issue.md"), formatFrontmatter(toFrontmatter(ISSUE, data), ""));
  });
  return repo;
}

/**
 * beads' rule, as its blocked-issues query states it: blocked directly = has a
 * `blocks` dependency on an issue that is not closed; blocked transitively =
 * the children (parent-child), recursively, of a blocked issue; ready = open
 * and not blocked. A fixpoint, not the code under test's walk.
 */
function beadsReady(g: G): number[] {
  const blocked = new Set<number>();
  g.forEach(([, by], k) => {
    if (by.some((b) => g[b - 1]?.[0] === true)) blocked.add(k + 1);
  });
  for (let changed = true; changed;) {
    changed = false;
    g.forEach(([, , parent], k) => {
      if (parent !== undefined && blocked.has(parent) && !blocked.has(k + 1)) {
        blocked.add(k + 1);
        changed = true;
      }
    });
  }
  return g
    .map((_, k) => k + 1)
    .filter((n) => g[n - 1]![0] && !blocked.has(n))
    .reverse();
}

// [open, blockedBy, parent]
const GRAPHS: Array<[string, G]> = [
  [
    "no links",
    [
      [true, []],
      [true, []],
      [false, []],
    ],
  ],
  [
    "one open blocker",
    [
      [true, []],
      [true, [1]],
    ],
  ],
  [
    "a closed blocker never blocks",
    [
      [false, []],
      [true, [1]],
    ],
  ],
  [
    "chain a←b←c",
    [
      [true, []],
      [true, [1]],
      [true, [2]],
    ],
  ],
  [
    "chain with its head closed",
    [
      [false, []],
      [true, [1]],
      [true, [2]],
    ],
  ],
  [
    "two blockers, one closed",
    [
      [false, []],
      [true, []],
      [true, [1, 2]],
    ],
  ],
  [
    "two blockers, both closed",
    [
      [false, []],
      [false, []],
      [true, [1, 2]],
    ],
  ],
  [
    "a blocked parent blocks its child",
    [
      [true, []],
      [true, [1]],
      [true, [], 2],
    ],
  ],
  [
    "a blocked parent blocks its grandchild",
    [
      [true, []],
      [true, [1]],
      [true, [], 2],
      [true, [], 3],
    ],
  ],
  [
    "an open parent alone blocks nothing",
    [
      [true, []],
      [true, [], 1],
      [true, [], 2],
    ],
  ],
  [
    "a closed parent with an open blocker still blocks (beads)",
    [
      [true, []],
      [false, [1]],
      [true, [], 2],
    ],
  ],
  [
    "a closed child is never ready",
    [
      [true, []],
      [false, [], 1],
    ],
  ],
  [
    "blocked parent, unblocked sibling tree",
    [
      [true, []],
      [true, [1]],
      [true, []],
      [true, [], 2],
      [true, [], 3],
    ],
  ],
  [
    "diamond",
    [
      [true, []],
      [true, [1]],
      [true, [1]],
      [true, [2, 3]],
    ],
  ],
  [
    "diamond, root closed",
    [
      [false, []],
      [true, [1]],
      [true, [1]],
      [true, [2, 3]],
    ],
  ],
  [
    "blocker cycle written by hand (both blocked)",
    [
      [true, [2]],
      [true, [1]],
      [true, []],
    ],
  ],
  [
    "blocked by a newer issue",
    [
      [true, [3]],
      [true, []],
      [true, []],
    ],
  ],
  [
    "many children of one blocked epic",
    [
      [true, []],
      [true, [1]],
      [true, [], 2],
      [true, [], 2],
      [false, [], 2],
      [true, [], 3],
    ],
  ],
  [
    "blocker is a closed child of an open parent",
    [
      [true, []],
      [false, [], 1],
      [true, [2]],
    ],
  ],
  [
    "mixed forest",
    [
      [true, []],
      [false, [1]],
      [true, [2]],
      [true, [], 3],
      [true, [1], 4],
      [true, [], 5],
      [false, []],
      [true, [7], 1],
    ],
  ],
];

for (const [name, g] of GRAPHS)
  test(`--ready equals beads' rule: ${name}`, async (t) => {
    const repo = storeOf(g);
    const want = beadsReady(g);
    const nums = (out: string): number[] => jsonl(out).map((r) => r.number as number);
    // The record-cache path, cold and then warm, and the general walk (a search keeps it off the cache).
    for (const args of [
      ["list", "--ready", "--json", "number"],
      ["list", "--ready", "--json", "number"],
      ["list", "--ready", "--json", "number,title,blockedBy"],
      ["list", "-S", "is:ready", "--json", "number"],
      ["list", "-L", "1000", "--ready", "--json"],
    ]) {
      const r = await run("forge-issue", args, { cwd: repo });
      t.is(r.code, 0, r.stderr);
      t.deepEqual(nums(r.stdout), want, args.join(" "));
    }
    // is:blocked is the rest of the open issues.
    const blocked = await run("forge-issue", ["list", "-S", "is:blocked", "--json", "number"], { cwd: repo });
    const open = g
      .map((x, k) => (x[0] ? k + 1 : 0))
      .filter((n) => n > 0 && !want.includes(n))
      .reverse();
    t.deepEqual(nums(blocked.stdout), open);
  });

test("edit --add-blocked-by/--add-blocking/--set-parent: gh's shapes, one writer per edge", async (t) => {
  const repo = storeOf([
    [true, []],
    [true, []],
    [true, []],
    [true, []],
  ]);
  const edit = (args: string[]): Promise<Ran> => run("forge-issue", ["edit", ...args], { cwd: repo });
  t.is((await edit(["2", "--add-blocked-by", "1"])).code, 0);
  t.is((await edit(["1", "--add-blocking", "3"])).code, 0);
  const r = await edit(["4", "--set-parent", "2", "--json", "number,parent,blockedBy"]);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(JSON.parse(r.stdout), {
    blockedBy: { nodes: [], totalCount: 0 },
    number: 4,
    parent: { id: id(2), number: 2, state: "OPEN", title: "issue 2", url: `file://${repo}/issues/2` },
  });
  // The edges live in the blocked issue's and the child's files.
  const file = (n: number): string => readFileSync(join(repo, ".forge", "issues", id(n), "issue.md"), "utf8");
  t.regex(file(2), new RegExp(`blockedBy:\\n  - ${id(1)}`));
  t.regex(file(3), new RegExp(`blockedBy:\\n  - ${id(1)}`));
  t.regex(file(4), new RegExp(`parent: ${id(2)}`));
  t.notRegex(file(1), /blockedBy|parent/);
  const v = await run("forge-issue", ["view", "1", "--json", "blocking,subIssues,subIssuesSummary"], { cwd: repo });
  t.deepEqual(JSON.parse(v.stdout), {
    blocking: {
      nodes: [
        { id: id(2), number: 2, state: "OPEN", title: "issue 2", url: `file://${repo}/issues/2` },
        { id: id(3), number: 3, state: "OPEN", title: "issue 3", url: `file://${repo}/issues/3` },
      ],
      totalCount: 2,
    },
    subIssues: { nodes: [], totalCount: 0 },
    subIssuesSummary: { completed: 0, percentCompleted: 0, total: 0 },
  });
  const ready = await run("forge-issue", ["list", "--ready", "--json", "number"], { cwd: repo });
  t.deepEqual(jsonl(ready.stdout), [{ number: 1 }]);
  // Closing the blocker frees 2 and 3, and 4 under 2.
  t.is((await run("forge-issue", ["close", "1"], { cwd: repo })).code, 0);
  const after = await run("forge-issue", ["list", "--ready", "--json", "number"], { cwd: repo });
  t.deepEqual(jsonl(after.stdout), [{ number: 4 }, { number: 3 }, { number: 2 }]);
  // Removing undoes it: no field left behind.
  t.is((await edit(["2", "--remove-blocked-by", "1"])).code, 0);
  t.is((await edit(["1", "--remove-blocking", "3"])).code, 0);
  t.is((await edit(["4", "--remove-parent"])).code, 0);
  for (const n of [2, 3, 4]) t.notRegex(file(n), /blockedBy|parent/);
  const fsck = await run("forge", ["fsck"], { cwd: repo });
  t.is(fsck.code, 0, fsck.stdout);
});

test("a cycle is refused naming its path; nothing is written", async (t) => {
  const repo = storeOf([
    [true, []],
    [true, [1]],
    [true, [2]],
    [true, [], 3],
  ]);
  const before = snapshot(repo);
  const r = await run("forge-issue", ["edit", "1", "--add-blocked-by", "3"], { cwd: repo });
  assertOneLineError(t, r, "forge-issue edit", ["cycle refused: #1 → #3 → #2 → #1"]);
  // Through a parent: 4 is under 3, so 1 waiting for 4 waits for 3's blockers too.
  const p = await run("forge-issue", ["edit", "1", "--add-blocked-by", "4"], { cwd: repo });
  assertOneLineError(t, p, "forge-issue edit", ["cycle refused: #1 → #4 → #3 → #2 → #1"]);
  const self = await run("forge-issue", ["edit", "2", "--set-parent", "2"], { cwd: repo });
  assertOneLineError(t, self, "forge-issue edit", ["cannot link to itself"], 2);
  const both = await run("forge-issue", ["edit", "2", "--set-parent", "1", "--remove-parent"], { cwd: repo });
  assertOneLineError(t, both, "forge-issue edit", ["only one of"], 2);
  t.deepEqual(snapshot(repo), before);
});

test("edit --add-sub-issue/--remove-sub-issue: each child's file, gh's replace of a parent", async (t) => {
  const repo = storeOf([
    [true, []],
    [true, []],
    [true, []],
    [false, [], 2],
  ]);
  const edit = (args: string[]): Promise<Ran> => run("forge-issue", ["edit", ...args], { cwd: repo });
  const file = (n: number): string => readFileSync(join(repo, ".forge", "issues", id(n), "issue.md"), "utf8");
  // 4 is under 2 already: gh replaces its parent, silently.
  const r = await edit(["1", "--add-sub-issue", "3,4", "--json", "number,subIssues,subIssuesSummary"]);
  t.is(r.code, 0, r.stderr);
  const node = (n: number, state = "OPEN"): Record<string, unknown> => ({
    id: id(n),
    number: n,
    state,
    title: `issue ${n}`,
    url: `file://${repo}/issues/${n}`,
  });
  t.deepEqual(JSON.parse(r.stdout), {
    number: 1,
    subIssues: { nodes: [node(3), node(4, "CLOSED")], totalCount: 2 },
    subIssuesSummary: { completed: 1, percentCompleted: 50, total: 2 },
  });
  // The edges live in the children's files; the parent's file is not written.
  t.notRegex(file(1), /parent|blockedBy/);
  t.regex(file(3), new RegExp(`parent: ${id(1)}`));
  t.regex(file(4), new RegExp(`parent: ${id(1)}`));
  const v2 = await run("forge-issue", ["view", "2", "--json", "subIssues"], { cwd: repo });
  t.deepEqual(JSON.parse(v2.stdout), { subIssues: { nodes: [], totalCount: 0 } });
  // Removing one that is not a sub-issue of this issue: one line, nothing written.
  const before = snapshot(repo);
  const not = await edit(["2", "--remove-sub-issue", "3"]);
  assertOneLineError(t, not, "forge-issue edit", ["issue #3 is not a sub-issue of #2"]);
  const both = await edit(["1", "--add-sub-issue", "2", "--remove-sub-issue", "2"]);
  assertOneLineError(t, both, "forge-issue edit", ["--add-sub-issue and --remove-sub-issue both name issue #2"], 2);
  t.deepEqual(snapshot(repo), before);
  t.is((await edit(["1", "--remove-sub-issue", "4"])).code, 0);
  t.notRegex(file(4), /parent/);
  t.regex(file(3), new RegExp(`parent: ${id(1)}`));
  const fsck = await run("forge", ["fsck"], { cwd: repo });
  t.is(fsck.code, 0, fsck.stdout);
});

test("edges of one edit are checked together: two new edges cannot close a cycle", async (t) => {
  const repo = storeOf([
    [true, []],
    [true, []],
    [true, [], 1],
  ]);
  const before = snapshot(repo);
  // 1 blocked by 2, and 2 under 1: 1 waits for 2, 2 waits for its parent 1.
  const r = await run("forge-issue", ["edit", "1", "--add-blocked-by", "2", "--add-sub-issue", "2"], { cwd: repo });
  assertOneLineError(t, r, "forge-issue edit", ["cycle refused: #2 → #1 → #2"]);
  // A sub-issue cannot become its ancestor's parent: 3 is under 1.
  const up = await run("forge-issue", ["edit", "3", "--add-sub-issue", "1"], { cwd: repo });
  assertOneLineError(t, up, "forge-issue edit", ["cycle refused: #1 → #3 → #1"]);
  t.deepEqual(snapshot(repo), before);
});

test("forge fsck names links to missing issues and cycles written by hand", async (t) => {
  const repo = storeOf([
    [true, [2]],
    [true, [1]],
    [true, [9]],
    [true, [], 3],
  ]);
  const f = join(repo, ".forge", "issues", id(4), "issue.md");
  writeFileSync(f, readFileSync(f, "utf8").replace(`parent: ${id(3)}`, `parent: ${id(4)}`));
  const r = await run("forge", ["fsck"], { cwd: repo });
  t.is(r.code, 1);
  t.regex(r.stdout, new RegExp(`issues/${id(1)}/issue.md: link cycle: #1 → #2 → #1`));
  t.regex(r.stdout, new RegExp(`issues/${id(3)}/issue.md: field 'blockedBy': no issue ${id(9)}`));
  t.regex(r.stdout, new RegExp(`issues/${id(4)}/issue.md: field 'parent': the issue is its own parent`));
});

test("the task board marks a card whose issue is blocked", async (t) => {
  const repo = storeOf([
    [true, []],
    [true, [1]],
  ]);
  for (const [title, issue] of [
    ["blocked card", "2"],
    ["free card", "1"],
  ])
    t.is((await run("forge-task", ["create", "-t", title, "--issue", issue], { cwd: repo })).code, 0);
  const r = await run("forge-task", ["list"], { cwd: repo });
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /blocked card\t[^\n]*#2 blocked by #1/);
  t.regex(r.stdout, /free card\t[^\n]*#1\n/);
});

test("the issue board's blocked column comes from the links, not a label", async (t) => {
  // 2 blocked by 1; 3 under 2 (a blocked ancestor); 4 free; 5 closed, blocked by 1.
  const repo = storeOf([
    [true, []],
    [true, [1]],
    [true, [], 2],
    [true, []],
    [false, [1]],
  ]);
  t.is((await run("forge-label", ["create", "blocked"], { cwd: repo })).code, 0);
  t.is((await run("forge-issue", ["edit", "4", "--add-label", "blocked"], { cwd: repo })).code, 0);
  const board = async (): Promise<Record<string, number[]>> => {
    const r = await run("forge-issue", ["list", "-s", "all", "--html"], { cwd: repo });
    t.is(r.code, 0, r.stderr);
    const cols: Record<string, number[]> = {};
    for (const sec of r.stdout.split('<section class="col">').slice(1)) {
      const name = /<h2>(\w+) \(/.exec(sec)![1]!;
      cols[name] = [...sec.matchAll(/id="card-(\d+)"/g)].map((m) => Number(m[1]));
    }
    return cols;
  };
  t.deepEqual(await board(), { open: [4, 1], blocked: [3, 2], closed: [5] });
  const r = await run("forge-issue", ["list", "--html"], { cwd: repo });
  t.regex(r.stdout, /id="card-3">[^\n]*<div class="meta">blocked by #1<\/div>/);
  // Only 3 listed (a filter), its blocker still counted.
  const one = await run("forge-issue", ["list", "--html", "-S", 'in:title "issue 3"'], { cwd: repo });
  t.regex(one.stdout, /<h2>blocked \(1\)<\/h2>\n<div class="card blocked" id="card-3">/);
  t.is((await run("forge-issue", ["close", "1"], { cwd: repo })).code, 0);
  t.deepEqual(await board(), { open: [4, 3, 2], blocked: [], closed: [5, 1] });
});

test("the graph read from the list's record cache: titles and states, and a changed file read again", async (t) => {
  // 2 blocked by 1; 3 under 2.
  const repo = storeOf([
    [true, []],
    [true, [1]],
    [true, [], 2],
  ]);
  const table = async (args: string[]): Promise<string[]> => {
    const r = await run("forge-issue", args, { cwd: repo });
    t.is(r.code, 0, r.stderr);
    return r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t")[0]!);
  };
  const cache = join(repo, ".forge", ".cache", "issues.records");
  // A full list writes the cache (every line carries its issue's links); the table's --ready then reads them.
  // The files past the racy-clean window first (a file written in the last 50 ms is not cached).
  await sleep(120);
  t.is((await run("forge-issue", ["list", "-s", "all", "--json", "number"], { cwd: repo })).code, 0);
  t.true(readFileSync(cache, "latin1").includes(`|${id(1)}`), "the cache holds the links");
  t.deepEqual(await table(["list", "--ready"]), ["1"]);
  t.deepEqual(await table(["list", "-S", "is:blocked"]), ["3", "2"]);
  const v = await run("forge-issue", ["view", "1", "--json", "blocking"], { cwd: repo });
  t.deepEqual(JSON.parse(v.stdout), {
    blocking: {
      nodes: [{ id: id(2), number: 2, state: "OPEN", title: "issue 2", url: `file://${repo}/issues/2` }],
      totalCount: 1,
    },
  });
  // Files changed since the cache was written are read again: a new title, a closed blocker, a new link.
  t.is((await run("forge-issue", ["edit", "2", "-t", "renamed"], { cwd: repo })).code, 0);
  t.is((await run("forge-issue", ["close", "1"], { cwd: repo })).code, 0);
  t.deepEqual(await table(["list", "--ready"]), ["3", "2"]);
  const w = await run("forge-issue", ["view", "1", "--json", "blocking"], { cwd: repo });
  t.is((JSON.parse(w.stdout) as { blocking: { nodes: Array<{ title: string }> } }).blocking.nodes[0]!.title, "renamed");
  t.is((await run("forge-issue", ["edit", "3", "--add-blocked-by", "2"], { cwd: repo })).code, 0);
  t.deepEqual(await table(["list", "--ready"]), ["2"]);
});

test("an archived issue is out of the way: it blocks nothing, on both list paths", async (t) => {
  const repo = storeOf([
    [true, []],
    [true, [1]],
    [true, [], 2],
  ]);
  const ready = async (args: string[]): Promise<unknown> =>
    jsonl((await run("forge-issue", args, { cwd: repo })).stdout).map((r) => r.number);
  t.deepEqual(await ready(["list", "--ready", "--json", "number"]), [1]);
  t.is((await run("forge-issue", ["archive", "1"], { cwd: repo })).code, 0);
  for (const args of [
    ["list", "--ready", "--json", "number"],
    ["list", "--ready", "--json", "number"],
    ["list", "-S", "is:ready", "--json", "number"],
  ])
    t.deepEqual(await ready(args), [3, 2], args.join(" "));
});
