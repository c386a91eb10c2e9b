import test from "ava";
import { distance, nearest } from "./suggest.js";

test("distance() counts insertions, deletions, substitutions, and a swap of neighbours once", (t) => {
  t.is(distance("issue", "issue"), 0);
  t.is(distance("isue", "issue"), 1);
  t.is(distance("isseu", "issue"), 1);
  t.is(distance("lsit", "list"), 1);
  t.is(distance("pr", "ci"), 2);
});

test("nearest() suggests a near name or the one a prefix begins, and nothing for a far word", (t) => {
  const nouns = ["ci", "export", "issue", "label", "merge", "milestone", "pr", "release", "task", "wiki"];
  t.is(nearest("isue", nouns), "issue");
  t.is(nearest("relase", nouns), "release");
  t.is(nearest("mile", nouns), "milestone");
  t.is(nearest("tsak", nouns), "task");
  t.is(nearest("frobnicate", nouns), undefined);
  t.is(nearest("x", nouns), undefined, "a one-letter word is near everything short: no guess");
  t.is(nearest("lsit", ["create", "list", "view"]), "list");
  t.is(nearest("m", ["merge", "milestone"]), undefined);
});
