/**
 * gh's review fields of a pull request, derived from its review files and
 * the reviewers asked: `latestReviews`, `reviewDecision`, `reviewRequests`;
 * and its merge state, from `mergeable` and the rest: `mergeStateStatus`.
 */
import type { ReviewJson } from "./pr.js";

/**
 * Each reviewer's latest review that decides (APPROVED or
 * CHANGES_REQUESTED; a COMMENTED one only when the reviewer has nothing
 * else), oldest first, as gh's `latestReviews`.
 */
export function latestReviews(reviews: readonly ReviewJson[]): ReviewJson[] {
  const by = new Map<string, ReviewJson>();
  for (const r of reviews) {
    const had = by.get(r.author.login);
    if (!had || r.state !== "COMMENTED" || had.state === "COMMENTED") by.set(r.author.login, r);
  }
  return [...by.values()].sort((a, b) => (a.submittedAt < b.submittedAt ? -1 : a.submittedAt > b.submittedAt ? 1 : 0));
}

/**
 * gh's `reviewDecision`: CHANGES_REQUESTED when a reviewer's latest word
 * asks for changes, else APPROVED when one approved, else REVIEW_REQUIRED
 * while a requested reviewer has not answered, else `""` (no review policy).
 */
export function reviewDecision(
  reviews: readonly ReviewJson[],
  requested: readonly string[]
): "APPROVED" | "CHANGES_REQUESTED" | "REVIEW_REQUIRED" | "" {
  const latest = latestReviews(reviews);
  if (latest.some((r) => r.state === "CHANGES_REQUESTED")) return "CHANGES_REQUESTED";
  if (latest.some((r) => r.state === "APPROVED")) return "APPROVED";
  return pendingReviewers(reviews, requested).length ? "REVIEW_REQUIRED" : "";
}

/** The requested reviewers who have not reviewed yet (gh drops a reviewer once they review). */
export function pendingReviewers(reviews: readonly ReviewJson[], requested: readonly string[]): string[] {
  const done = new Set(reviews.map((r) => r.author.login));
  return requested.filter((r) => !done.has(r));
}

/** gh's `mergeable`. */
export type Mergeable = "MERGEABLE" | "CONFLICTING" | "UNKNOWN";

/**
 * gh's `mergeStateStatus` for an open PR: DRAFT, DIRTY (conflicts),
 * UNKNOWN (not computed), BLOCKED (changes requested, or a requested review not given), BEHIND (the base
 * moved since the patch was made), UNSTABLE (CI not passing), else CLEAN.
 * A closed or merged PR is UNKNOWN.
 */
export function mergeStateStatus(p: {
  state: string;
  isDraft: boolean;
  mergeable: Mergeable;
  reviewDecision: string;
  ci: string | null;
  behind: boolean;
}): string {
  if (p.state !== "open") return "UNKNOWN";
  if (p.isDraft) return "DRAFT";
  if (p.mergeable === "CONFLICTING") return "DIRTY";
  if (p.mergeable === "UNKNOWN") return "UNKNOWN";
  if (p.reviewDecision === "CHANGES_REQUESTED" || p.reviewDecision === "REVIEW_REQUIRED") return "BLOCKED";
  if (p.behind) return "BEHIND";
  if (p.ci !== null && p.ci !== "pass") return "UNSTABLE";
  return "CLEAN";
}
