import test from "ava";
import { parseArgv } from "@forge/cli";
import type { LoadedEntity } from "@forge/core";
import list, { matches, parseListOptions, type ListPrOptions } from "./list.js";

const parse = (argv: string[]) => parseListOptions(parseArgv(argv, list.args));

test("parseListOptions() defaults to open PRs, limit 30", (t) => {
  t.deepEqual(parse([]), {
    state: "open",
    labels: [],
    author: undefined,
    assignee: undefined,
    base: undefined,
    head: undefined,
    search: undefined,
    draft: undefined,
    limit: 30,
  });
});

test("parseListOptions() reads gh's flags and letters", (t) => {
  t.deepEqual(
    parse([
      "-s",
      "merged",
      "-l",
      "bug,ui",
      "-A",
      "@me",
      "-a",
      "bob",
      "-B",
      "main",
      "-H",
      "fix/x",
      "-S",
      "drain",
      "-L",
      "5",
    ]),
    {
      state: "merged",
      labels: ["bug", "ui"],
      author: "@me",
      assignee: "bob",
      base: "main",
      head: "fix/x",
      search: "drain",
      draft: undefined,
      limit: 5,
    }
  );
});

for (const bad of ["0", "-1", "x", "1.5"]) {
  test(`parseListOptions() rejects --limit ${bad}`, (t) => {
    t.throws(() => parse([`--limit=${bad}`]), { message: /invalid limit/ });
  });
}

test("parseListOptions() rejects an unknown state", (t) => {
  t.throws(() => parse(["--state", "draft"]), { message: /open\|closed\|merged\|all/ });
});

function pr(state: string, over: Record<string, unknown> = {}, archived = false): LoadedEntity {
  const data = {
    title: "Fix the drain",
    state,
    author: "bob",
    baseRefName: "main",
    headRefName: "fix/x",
    labels: ["bug"],
    assignees: ["carol"],
    ...over,
  };
  return { path: "", file: "", data, extra: {}, body: "Waits for DRAIN.\n", warnings: [], ref: { id: "x", archived } };
}
const o = (over: Partial<ListPrOptions> = {}): ListPrOptions => ({ state: "open", labels: [], limit: 30, ...over });

test("matches(): --state closed includes merged PRs (as gh), --state merged only merged ones", (t) => {
  t.deepEqual(
    ["open", "closed", "merged"].map((s) => matches(pr(s), o({ state: "closed" }))),
    [false, true, true]
  );
  t.deepEqual(
    ["open", "closed", "merged"].map((s) => matches(pr(s), o({ state: "merged" }))),
    [false, false, true]
  );
  t.deepEqual(
    ["open", "closed", "merged"].map((s) => matches(pr(s), o({ state: "all" }))),
    [true, true, true]
  );
  t.deepEqual(
    ["open", "closed", "merged"].map((s) => matches(pr(s), o())),
    [true, false, false]
  );
});

test("matches() filters by label, author, assignee, base, head and --draft, and never lists archived PRs", (t) => {
  const p = pr("open");
  t.true(matches(p, o({ labels: ["bug"], author: "bob", assignee: "carol", base: "main", head: "fix/x" })));
  t.false(matches(p, o({ labels: ["bug", "ui"] })));
  t.false(matches(p, o({ author: "carol" })));
  t.false(matches(p, o({ assignee: "bob" })));
  t.false(matches(p, o({ base: "release" })));
  t.false(matches(p, o({ head: "fix" })));
  t.false(matches(pr("open"), o({ draft: true })));
  t.true(matches(pr("open", { isDraft: true }), o({ draft: true })));
  t.false(matches(pr("open", {}, true), o({ state: "all" })));
});
