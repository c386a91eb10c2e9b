/**
 * The matcher of gh's search syntax over one issue or pull request, in a
 * flat shape the callers build from their records. Pure: no I/O.
 */
import { sameName } from "./fold.js";
import { inRange, parseDateRange, type Qualifier, type SearchQuery } from "./query.js";

/** What a search can look at in an issue or a PR. */
export interface SearchItem {
  kind: "issue" | "pr";
  state: "open" | "closed" | "merged";
  isDraft?: boolean;
  author: string;
  assignees: readonly string[];
  labels: readonly string[];
  milestone?: string;
  title: string;
  body: string;
  /** Comment bodies (only needed for `in:comments`). */
  comments?: readonly string[];
  /** Comment authors (for `commenter:` and `involves:`). */
  commenters?: readonly string[];
  createdAt: string;
  updatedAt: string;
  closedAt?: string | null;
  mergedAt?: string | null;
  /** `COMPLETED` / `NOT_PLANNED` / `REOPENED` / `""`. */
  stateReason?: string;
  /** gh's reviewDecision (PRs). */
  reviewDecision?: string;
  /** Whether the PR has any review at all (`review:none`). */
  reviewed?: boolean;
  /** success | failure | pending | null (PRs, from the CI verdict). */
  checks?: "success" | "failure" | "pending" | null;
  headRefName?: string;
  baseRefName?: string;
  /** Commits that name this PR: its head, its merge commit. */
  shas?: readonly string[];
  /** Issues: blocked (an open blocker or a blocked ancestor; `IssueGraph.blocked`), when the query asks. */
  blocked?: boolean;
  /** Issues: whether it blocks an open issue. */
  blocking?: boolean;
}

/** Identity values (`@me`) resolved by the caller. */
export interface SearchEnv {
  me?: string;
}

const SHA = /^[0-9a-f]{7,40}$/;

/** Whether a query needs the comments loaded. */
export function searchNeedsComments(q: SearchQuery): boolean {
  return (
    q.qualifiers.some(
      (x) =>
        (x.key === "in" && x.value.toLowerCase().split(",").includes("comments")) ||
        x.key === "commenter" ||
        x.key === "involves"
    ) || q.sort?.field === "comments"
  );
}

/** Whether a query needs the issue links (`is:blocked`, `is:blocking`, `is:ready`). */
export function searchNeedsLinks(q: SearchQuery): boolean {
  return q.qualifiers.some(
    (x) => (x.key === "is" || x.key === "state") && ["blocked", "blocking", "ready"].includes(x.value.toLowerCase())
  );
}

/** Whether a query needs the reviews loaded (PRs). */
export function searchNeedsReviews(q: SearchQuery): boolean {
  return q.qualifiers.some((x) => x.key === "review");
}

/**
 * Whether an item matches every term of the query.
 * @example matchSearch(parseSearch("is:open crash"), item, {})
 */
export function matchSearch(q: SearchQuery, item: SearchItem, env: SearchEnv = {}): boolean {
  for (const x of q.qualifiers) if (qualifierHolds(x, item, env) === x.negated) return false;
  if (q.words.length || q.notWords.length) {
    const where = q.qualifiers
      .filter((x) => x.key === "in" && !x.negated)
      .flatMap((x) => x.value.toLowerCase().split(","));
    const parts: string[] = [];
    if (where.length === 0 || where.includes("title")) parts.push(item.title);
    if (where.length === 0 || where.includes("body")) parts.push(item.body);
    if (where.includes("comments")) parts.push(...(item.comments ?? []));
    const hay = parts.join("\n").toLowerCase();
    for (const w of q.words) {
      if (item.kind === "pr" && SHA.test(w)) {
        if (!(item.shas ?? []).some((s) => s.startsWith(w))) return false;
      } else if (!hay.includes(w)) return false;
    }
    for (const w of q.notWords) if (hay.includes(w)) return false;
  }
  return true;
}

function who(v: string, env: SearchEnv): string {
  return v === "@me" && env.me ? env.me : v;
}

/** `sameName`, for a field an item may lack. */
function eqi(a: string | undefined, b: string): boolean {
  return a !== undefined && sameName(a, b);
}

/** Whether one (un-negated) qualifier holds. */
function qualifierHolds(x: Qualifier, item: SearchItem, env: SearchEnv): boolean {
  const v = x.value;
  const lv = v.toLowerCase();
  switch (x.key) {
    case "is":
    case "type":
    case "state":
      return isHolds(lv, item);
    case "reason":
      return eqi(item.stateReason, lv.replace(" ", "_"));
    case "draft":
      return item.kind === "pr" && (item.isDraft === true) === (lv === "true");
    case "author": {
      const a = who(v, env);
      return eqi(item.author, a) || (a.startsWith("app/") && eqi(item.author, a.slice(4)));
    }
    case "assignee":
      return v === "*" ? item.assignees.length > 0 : item.assignees.some((a) => eqi(a, who(v, env)));
    case "mentions":
      return `${item.title}\n${item.body}\n${(item.comments ?? []).join("\n")}`
        .toLowerCase()
        .includes(`@${who(v, env).toLowerCase()}`);
    case "commenter":
      return (item.commenters ?? []).some((c) => eqi(c, who(v, env)));
    case "involves": {
      const u = who(v, env);
      return (
        eqi(item.author, u) || item.assignees.some((a) => eqi(a, u)) || (item.commenters ?? []).some((c) => eqi(c, u))
      );
    }
    case "label":
      // `label:a,b` is OR; repeated `label:` qualifiers are AND (each is its own term).
      return v.split(",").some((name) => item.labels.some((l) => eqi(l, name)));
    case "milestone":
      return eqi(item.milestone, v);
    case "no":
      if (lv === "assignee") return item.assignees.length === 0;
      if (lv === "label") return item.labels.length === 0;
      if (lv === "milestone") return item.milestone === undefined;
      return lv === "project";
    case "in":
      return true; // where plain words look; applied with the words
    case "created":
      return inRange(item.createdAt, parseDateRange(v));
    case "updated":
      return inRange(item.updatedAt, parseDateRange(v));
    case "closed":
      return inRange(item.closedAt, parseDateRange(v));
    case "merged":
      return inRange(item.mergedAt, parseDateRange(v));
    case "review":
      if (item.kind !== "pr") return false;
      if (lv === "none") return item.reviewed !== true;
      if (lv === "required") return item.reviewDecision === "REVIEW_REQUIRED";
      return eqi(item.reviewDecision, lv);
    case "status":
      return item.checks !== undefined && item.checks !== null && item.checks === lv;
    case "head":
      return item.headRefName !== undefined && item.headRefName.toLowerCase().startsWith(lv);
    case "base":
      return eqi(item.baseRefName, v);
    default:
      return true;
  }
}

function isHolds(lv: string, item: SearchItem): boolean {
  switch (lv) {
    case "open":
      return item.state === "open";
    case "closed":
      return item.state !== "open";
    case "merged":
      return item.state === "merged";
    case "unmerged":
      return item.kind === "pr" && item.state !== "merged";
    case "draft":
      return item.kind === "pr" && item.isDraft === true && item.state === "open";
    case "issue":
      return item.kind === "issue";
    case "pr":
      return item.kind === "pr";
    // Dependencies (GitHub's is:blocked / is:blocking; is:ready is forge's, beads' `bd ready`).
    case "blocked":
      return item.kind === "issue" && item.state === "open" && item.blocked === true;
    case "blocking":
      return item.kind === "issue" && item.blocking === true;
    case "ready":
      return item.kind === "issue" && item.state === "open" && item.blocked === false;
    default:
      return true; // public, private, locked…: every local item is as visible as the repo
  }
}

/**
 * Sort records as `sort:` asks (stable; numbers break ties newest first).
 * @param items the matched items, newest first
 * @param key how to read the sort field from an item
 */
export function sortBySearch<T>(
  q: SearchQuery,
  items: T[],
  key: (t: T, field: "created" | "updated" | "comments") => string | number
): T[] {
  if (!q.sort) return items;
  const { field, dir } = q.sort;
  const sign = dir === "asc" ? 1 : -1;
  return items
    .map((t, i) => ({ t, i, k: key(t, field) }))
    .sort((a, b) => (a.k < b.k ? -sign : a.k > b.k ? sign : dir === "asc" ? b.i - a.i : a.i - b.i))
    .map((x) => x.t);
}
