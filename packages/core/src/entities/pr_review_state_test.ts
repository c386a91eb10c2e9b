import test from "ava";
import { latestReviews, mergeStateStatus, pendingReviewers, reviewDecision } from "./pr_review_state.js";
import type { ReviewJson } from "./pr.js";

const r = (login: string, state: ReviewJson["state"], at: string): ReviewJson => ({
  author: { login },
  body: "",
  id: at,
  state,
  submittedAt: at,
});

test("latestReviews() keeps each reviewer's latest deciding review", (t) => {
  const got = latestReviews([
    r("bob", "APPROVED", "1"),
    r("bob", "COMMENTED", "2"),
    r("carol", "COMMENTED", "3"),
    r("dave", "APPROVED", "4"),
    r("dave", "CHANGES_REQUESTED", "5"),
  ]);
  t.deepEqual(
    got.map((x) => `${x.author.login}:${x.state}`),
    ["bob:APPROVED", "carol:COMMENTED", "dave:CHANGES_REQUESTED"]
  );
});

test("reviewDecision(): changes requested wins, then approved, then a pending request, else empty", (t) => {
  t.is(reviewDecision([r("bob", "APPROVED", "1"), r("carol", "CHANGES_REQUESTED", "2")], []), "CHANGES_REQUESTED");
  t.is(reviewDecision([r("bob", "APPROVED", "1")], ["carol"]), "APPROVED");
  t.is(reviewDecision([], ["carol"]), "REVIEW_REQUIRED");
  t.is(reviewDecision([r("carol", "COMMENTED", "1")], ["carol"]), "");
  t.deepEqual(pendingReviewers([r("carol", "COMMENTED", "1")], ["carol", "dave"]), ["dave"]);
});

test("mergeStateStatus() follows gh's states", (t) => {
  const base = {
    state: "open",
    isDraft: false,
    mergeable: "MERGEABLE" as const,
    reviewDecision: "",
    ci: "pass",
    behind: false,
  };
  t.is(mergeStateStatus(base), "CLEAN");
  t.is(mergeStateStatus({ ...base, isDraft: true }), "DRAFT");
  t.is(mergeStateStatus({ ...base, mergeable: "CONFLICTING" }), "DIRTY");
  t.is(mergeStateStatus({ ...base, mergeable: "UNKNOWN" }), "UNKNOWN");
  t.is(mergeStateStatus({ ...base, reviewDecision: "REVIEW_REQUIRED" }), "BLOCKED");
  t.is(mergeStateStatus({ ...base, behind: true }), "BEHIND");
  t.is(mergeStateStatus({ ...base, ci: "fail" }), "UNSTABLE");
  t.is(mergeStateStatus({ ...base, ci: null }), "CLEAN");
  t.is(mergeStateStatus({ ...base, state: "merged" }), "UNKNOWN");
});
