/**
 * Issues and pull requests as the search matcher sees them, from their
 * loaded owning files (and the parts a query needs, when it needs them).
 */
import { isDraftPr, lastActivity } from "../entities/activity.js";
import type { LoadedEntity } from "../entities/load.js";
import type { SearchItem } from "./match.js";
import type { SearchQuery } from "./query.js";

/** The latest of the stamps an entity's `updatedAt` is derived from, and its last activity record. */
function latest(e: LoadedEntity, keys: readonly string[]): string {
  const d = e.data;
  const a = lastActivity(e);
  let u = d.createdAt as string;
  if (a > u) u = a;
  for (const k of keys) {
    const t = d[k] as string | undefined;
    if (t && t > u) u = t;
  }
  return u;
}

/**
 * An issue for the matcher.
 * @param comments the comment bodies and authors, when the query looks at them
 * @param links blocked / blocking, when the query looks at them (`searchNeedsLinks`)
 */
export function issueSearchItem(
  e: LoadedEntity,
  comments?: ReadonlyArray<{ body: string; author: { login: string } }>,
  links?: { blocked: boolean; blocking: boolean }
): SearchItem {
  const d = e.data;
  return {
    ...links,
    kind: "issue",
    state: d.state === "closed" ? "closed" : "open",
    author: d.author as string,
    assignees: d.assignees as string[],
    labels: d.labels as string[],
    milestone: d.milestone as string | undefined,
    title: d.title as string,
    body: e.body,
    comments: comments?.map((c) => c.body),
    commenters: comments?.map((c) => c.author.login),
    createdAt: d.createdAt as string,
    updatedAt: latest(e, ["closedAt", "reopenedAt", "editedAt"]),
    closedAt: d.state === "closed" ? ((d.closedAt as string | undefined) ?? null) : null,
    stateReason:
      d.state === "closed"
        ? d.stateReason === "not_planned" || d.stateReason === "duplicate"
          ? (d.stateReason as string)
          : "completed"
        : d.reopenedAt
          ? "reopened"
          : "",
  };
}

/** Qualifiers (and values) an issue's JSON record answers as its file does (`issueRecordSearchable`). */
const RECORD_QUALIFIERS: Readonly<Record<string, readonly string[] | undefined>> = {
  is: ["open", "closed", "issue"],
  type: ["issue"],
  state: ["open", "closed"],
  no: ["assignee", "label", "milestone"],
  in: ["title", "body"],
  author: undefined,
  assignee: undefined,
  label: undefined,
  milestone: undefined,
  created: undefined,
  updated: undefined,
  closed: undefined,
};

/**
 * Whether issues' JSON records (`issueRecordSearchItem`) answer the query as
 * their files do: no comments (`sort:comments` neither), links or `reason:`
 * (a record holds gh's stateReason, not the search's), and only qualifiers
 * in RECORD_QUALIFIERS. A `sort:` by created or updated is the caller's to
 * apply, over every match (`sortBySearch`).
 */
export function issueRecordSearchable(q: SearchQuery): boolean {
  if (q.sort?.field === "comments") return false;
  return q.qualifiers.every((x) => {
    if (!(x.key in RECORD_QUALIFIERS)) return false;
    const values = RECORD_QUALIFIERS[x.key];
    return (
      !values ||
      x.value
        .toLowerCase()
        .split(",")
        .every((v) => values.includes(v))
    );
  });
}

/**
 * An issue for the matcher, from its JSON record (`issueToJson`): the fields
 * `issueSearchItem` takes from the file, as the record copies them (its
 * updatedAt is derived the same way; the body lacks only its final newline,
 * which no word holds).
 */
export function issueRecordSearchItem(r: Record<string, unknown>): SearchItem {
  const ms = r.milestone as { title: string } | null;
  return {
    kind: "issue",
    state: r.state === "CLOSED" ? "closed" : "open",
    author: (r.author as { login: string }).login,
    assignees: (r.assignees as Array<{ login: string }>).map((a) => a.login),
    labels: (r.labels as Array<{ name: string }>).map((l) => l.name),
    milestone: ms === null ? undefined : ms.title,
    title: r.title as string,
    body: r.body as string,
    createdAt: r.createdAt as string,
    updatedAt: r.updatedAt as string,
    closedAt: r.closedAt as string | null,
  };
}

/** What a PR's search needs beyond pr.md. */
export interface PrSearchParts {
  comments?: ReadonlyArray<{ body: string; author: { login: string } }>;
  reviewDecision?: string;
  reviewed?: boolean;
  /** The merge commit, when it was merged by forge-merge. */
  mergeCommit?: string | null;
}

/** A pull request for the matcher. */
export function prSearchItem(e: LoadedEntity, parts: PrSearchParts = {}): SearchItem {
  const d = e.data;
  const ci = d.ci as string | undefined;
  const state = d.state as "open" | "closed" | "merged";
  return {
    kind: "pr",
    state,
    isDraft: isDraftPr(e),
    author: d.author as string,
    assignees: d.assignees as string[],
    labels: d.labels as string[],
    milestone: d.milestone as string | undefined,
    title: d.title as string,
    body: e.body,
    comments: parts.comments?.map((c) => c.body),
    commenters: parts.comments?.map((c) => c.author.login),
    createdAt: d.createdAt as string,
    updatedAt: latest(e, ["closedAt", "mergedAt", "editedAt"]),
    closedAt:
      state === "open" ? null : ((d.closedAt as string | undefined) ?? (d.mergedAt as string | undefined) ?? null),
    mergedAt: state === "merged" ? ((d.mergedAt as string | undefined) ?? null) : null,
    reviewDecision: parts.reviewDecision,
    reviewed: parts.reviewed,
    checks: ci === undefined ? null : ci === "pass" ? "success" : ci === "running" ? "pending" : "failure",
    headRefName: d.headRefName as string,
    baseRefName: d.baseRefName as string,
    shas: [d.headSha as string | undefined, parts.mergeCommit ?? undefined].filter(
      (x): x is string => typeof x === "string"
    ),
  };
}
