import test from "ava";
import { matchSearch, sortBySearch, type SearchItem } from "./match.js";
import { parseDateRange, parseSearch, searchSetsState, tokenize } from "./query.js";

const issue = (over: Partial<SearchItem> = {}): SearchItem => ({
  kind: "issue",
  state: "open",
  author: "alice",
  assignees: [],
  labels: [],
  title: "Crash on start",
  body: "it crashes",
  createdAt: "2020-01-02T09:00:00Z",
  updatedAt: "2020-01-03T09:00:00Z",
  ...over,
});
const pr = (over: Partial<SearchItem> = {}): SearchItem => ({
  ...issue(),
  kind: "pr",
  headRefName: "fix-crash",
  baseRefName: "main",
  shas: ["0123456789abcdef0123456789abcdef01234567"],
  ...over,
});
const m = (q: string, item: SearchItem, me?: string): boolean => matchSearch(parseSearch(q), item, { me });

test("tokenize() groups double quotes and drops them", (t) => {
  t.deepEqual(
    tokenize('bug label:"in progress"  "two words"').map((x) => x.text),
    ["bug", "label:in progress", "two words"]
  );
});

test("parseSearch() splits qualifiers, words and negations; unknown qualifiers are words", (t) => {
  const q = parseSearch("crash -label:bug is:open foo:bar -slow");
  t.deepEqual(q.qualifiers, [
    { key: "label", value: "bug", negated: true },
    { key: "is", value: "open", negated: false },
  ]);
  t.deepEqual(q.words, ["crash", "foo:bar"]);
  t.deepEqual(q.notWords, ["slow"]);
});

test("parseSearch() reads sort: and rejects a bad one", (t) => {
  t.deepEqual(parseSearch("sort:created-asc").sort, { field: "created", dir: "asc" });
  t.deepEqual(parseSearch("sort:comments").sort, { field: "comments", dir: "desc" });
  t.throws(() => parseSearch("sort:bogus"), { message: /invalid sort/ });
});

test("parseDateRange() reads every operator and range", (t) => {
  t.deepEqual(parseDateRange("2020-01-02"), { from: "2020-01-02T00:00:00Z", to: "2020-01-03T00:00:00Z" });
  t.deepEqual(parseDateRange(">2020-01-02"), { from: "2020-01-03T00:00:00Z" });
  t.deepEqual(parseDateRange(">=2020-01-02"), { from: "2020-01-02T00:00:00Z" });
  t.deepEqual(parseDateRange("<2020-01-02"), { to: "2020-01-02T00:00:00Z" });
  t.deepEqual(parseDateRange("<=2020-01-02"), { to: "2020-01-03T00:00:00Z" });
  t.deepEqual(parseDateRange("2020-01-01..2020-01-02"), { from: "2020-01-01T00:00:00Z", to: "2020-01-03T00:00:00Z" });
  t.deepEqual(parseDateRange("2020-01-01..*"), { from: "2020-01-01T00:00:00Z", to: undefined });
  t.deepEqual(parseDateRange("*..2020-01-01"), { from: undefined, to: "2020-01-02T00:00:00Z" });
  t.deepEqual(parseDateRange(">2020-01-02T09:00:00Z"), { from: "2020-01-02T09:00:01Z" });
  t.throws(() => parseDateRange(">yesterday"), { message: /invalid date/ });
});

test("matchSearch(): is:, state:, draft:", (t) => {
  t.true(m("is:open", issue()));
  t.false(m("is:closed", issue()));
  t.true(m("is:closed", pr({ state: "merged" })));
  t.true(m("is:merged", pr({ state: "merged" })));
  t.false(m("is:unmerged", pr({ state: "merged" })));
  t.true(m("is:unmerged", pr({ state: "closed" })));
  t.true(m("is:draft", pr({ isDraft: true })));
  t.false(m("is:draft", pr()));
  t.true(m("draft:false", pr()));
  t.true(m("is:issue", issue()));
  t.false(m("is:pr", issue()));
  t.true(m("state:open -is:closed", issue()));
});

test("matchSearch(): author (incl. @me and app/), assignee, label (AND, OR, quoted), milestone, no:", (t) => {
  t.true(m("author:alice", issue()));
  t.true(m("author:@me", issue(), "alice"));
  t.false(m("author:@me", issue(), "bob"));
  t.true(m("author:app/dependabot", issue({ author: "dependabot" })));
  t.false(m("-author:alice", issue()));
  t.true(m("assignee:bob", issue({ assignees: ["bob"] })));
  t.true(m("assignee:*", issue({ assignees: ["bob"] })));
  t.false(m("assignee:*", issue()));
  const it = issue({ labels: ["bug", "in progress"] });
  t.true(m('label:bug label:"in progress"', it));
  t.false(m("label:bug label:ui", it));
  t.true(m("label:ui,bug", it));
  t.false(m("-label:bug", it));
  t.true(m("milestone:v1", issue({ milestone: "v1" })));
  t.true(m("no:milestone no:label no:assignee", issue()));
  t.false(m("no:label", it));
});

test("matchSearch(): plain words in title and body, in:, negated words", (t) => {
  t.true(m("crash", issue()));
  t.true(m("CRASHES", issue()));
  t.false(m("crash in:body start", issue()));
  t.true(m("start in:title", issue()));
  t.false(m("crashes in:title", issue()));
  t.true(m("thanks in:comments", issue({ comments: ["Thanks!"] })));
  t.false(m("crash -start", issue()));
  t.true(m('"on start"', issue()));
});

test("matchSearch(): created/updated/closed/merged ranges", (t) => {
  t.true(m("created:2020-01-02", issue()));
  t.true(m("created:>=2020-01-02", issue()));
  t.false(m("created:>2020-01-02", issue()));
  t.true(m("created:<2020-01-03", issue()));
  t.true(m("updated:2020-01-01..2020-01-03", issue()));
  t.false(m("closed:>2000-01-01", issue()));
  t.true(m("merged:<=2020-02-01", pr({ state: "merged", mergedAt: "2020-02-01T12:00:00Z" })));
});

test("matchSearch(): review:, status:, head:, base:, a commit SHA", (t) => {
  t.true(m("review:approved", pr({ reviewDecision: "APPROVED", reviewed: true })));
  t.true(m("review:changes_requested", pr({ reviewDecision: "CHANGES_REQUESTED", reviewed: true })));
  t.true(m("review:required", pr({ reviewDecision: "REVIEW_REQUIRED" })));
  t.true(m("review:none", pr()));
  t.true(m("status:success", pr({ checks: "success" })));
  t.false(m("status:failure", pr({ checks: "success" })));
  t.false(m("status:pending", pr({ checks: null })));
  t.true(m("head:fix", pr()));
  t.true(m("base:main -base:dev", pr()));
  t.true(m("0123456", pr()));
  t.false(m("0123457", pr()));
});

test("searchSetsState() says when the default state steps aside", (t) => {
  for (const q of ["is:closed", "is:merged", "state:closed", "closed:>2020-01-01", "merged:2020-01-01"])
    t.true(searchSetsState(parseSearch(q)), q);
  t.false(searchSetsState(parseSearch("crash label:bug")));
});

test("sortBySearch() sorts by created, updated or comments, both ways", (t) => {
  const xs = [
    { n: 3, c: "2020-03", u: "2020-01" },
    { n: 2, c: "2020-02", u: "2020-05" },
    { n: 1, c: "2020-01", u: "2020-03" },
  ];
  const key = (x: (typeof xs)[number], f: string): string => (f === "updated" ? x.u : x.c);
  t.deepEqual(
    sortBySearch(parseSearch("sort:created-asc"), xs, key).map((x) => x.n),
    [1, 2, 3]
  );
  t.deepEqual(
    sortBySearch(parseSearch("sort:updated"), xs, key).map((x) => x.n),
    [2, 1, 3]
  );
  t.deepEqual(
    sortBySearch(parseSearch("x"), xs, key).map((x) => x.n),
    [3, 2, 1]
  );
});
