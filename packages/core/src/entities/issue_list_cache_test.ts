import test from "ava";
import { cachedIssueFields } from "./issue_list_cache.js";

test("cachedIssueFields() answers JSON lines filtered by state alone, without comments, fields sorted", (t) => {
  t.deepEqual(cachedIssueFields(["title", "number"], false, false), ["number", "title"]);
  t.is(cachedIssueFields(undefined, false, false), undefined, "no --json");
  t.is(cachedIssueFields(["title"], true, false), undefined, "--jq");
  t.is(cachedIssueFields(["title"], false, true), undefined, "a filter");
  t.is(cachedIssueFields(["comments", "title"], false, false), undefined, "comments");
});
