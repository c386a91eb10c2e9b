/**
 * Pull requests: the gh-shaped JSON model and the operations on
 * `.forge/prs/<id>/` (pr.md, patch.diff, reviews/, comments/). Git is not
 * run here: callers make the patch and hand over its bytes. Returns data,
 * never prints.
 */
import { createHash, randomUUID } from "node:crypto";
import { InvalidFileError, UsageError } from "../errors.js";
import { atomicWrite } from "../store/atomic_write.js";
import { readStoreBytes } from "../store/read_file.js";
import { join } from "node:path";
import { displayPath, entityDir, patchFile, type Store } from "../store/store.js";
import { appendRecord, createEntity, loadRecords, PRS, updateEntity } from "./folder_entity.js";
import type { LabelDef } from "./defs.js";
import { bodyOf, checkTitle, storedBody, type CommentJson, type IssueContext } from "./issue.js";
import { laterRecordId } from "./later_id.js";
import { isDraftPr, lastActivity } from "./activity.js";
import type { LoadedEntity } from "./load.js";
import type { PatchStat } from "./patch_stat.js";
import type { CommitJson } from "./patch_commits.js";
import {
  latestReviews,
  mergeStateStatus,
  pendingReviewers,
  reviewDecision,
  type Mergeable,
} from "./pr_review_state.js";
import { COMMENT, PR, PR_REVIEW } from "./schema.js";

/** A review in gh's `reviews` shape. */
export interface ReviewJson {
  author: { login: string };
  body: string;
  id: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED";
  submittedAt: string;
}

/** One item of gh's `statusCheckRollup`. */
export interface CheckJson {
  __typename: "CheckRun";
  conclusion: string;
  name: string;
  status: string;
}

/** A pull request in gh's `pr list/view --json` shape (keys sorted, as gh prints them). */
export interface PrJson {
  additions?: number;
  assignees: Array<{ login: string }>;
  author: { login: string };
  baseRefName: string;
  baseRefOid: string;
  body: string;
  changedFiles?: number;
  ci: string | null;
  closed: boolean;
  closedAt: string | null;
  closingIssuesReferences: Array<{ id: string; number: number | null }>;
  comments?: CommentJson[];
  createdAt: string;
  deletions?: number;
  files?: Array<{ additions: number; deletions: number; path: string }>;
  headRefName: string;
  headRefOid: string;
  id: string;
  isArchived: boolean;
  isDraft: boolean;
  labels: LabelDef[];
  mergedAt: string | null;
  /** gh's shape; `number` is 0 for a title `milestones.md` does not define. */
  milestone: { number: number; title: string; description: string; dueOn: string | null } | null;
  number: number;
  patchSha256: string;
  previousPatchSha256: string[];
  reviews?: ReviewJson[];
  state: "OPEN" | "CLOSED" | "MERGED";
  statusCheckRollup: CheckJson[];
  title: string;
  updatedAt: string;
  url: string;
  commits?: CommitJson[];
  latestReviews?: ReviewJson[];
  mergeable?: Mergeable;
  mergeCommit?: { oid: string } | null;
  mergeStateStatus?: string;
  reviewDecision?: "APPROVED" | "CHANGES_REQUESTED" | "REVIEW_REQUIRED" | "";
  reviewRequests?: Array<{ __typename: "User"; login: string }>;
}

/** Every `--json` field of a pull request. */
export const PR_FIELDS: readonly string[] = [
  "additions",
  "assignees",
  "author",
  "baseRefName",
  "baseRefOid",
  "body",
  "changedFiles",
  "ci",
  "closed",
  "closedAt",
  "closingIssuesReferences",
  "comments",
  "createdAt",
  "deletions",
  "files",
  "headRefName",
  "headRefOid",
  "id",
  "isArchived",
  "isDraft",
  "labels",
  "mergedAt",
  "milestone",
  "number",
  "patchSha256",
  "previousPatchSha256",
  "reviews",
  "state",
  "statusCheckRollup",
  "title",
  "updatedAt",
  "url",
  "mergeable",
  "mergeStateStatus",
  "reviewDecision",
  "latestReviews",
  "reviewRequests",
  "commits",
  "mergeCommit",
].sort();

/** The fields that need the reviews read. */
export const REVIEW_FIELDS: readonly string[] = [
  "latestReviews",
  "mergeStateStatus",
  "reviewDecision",
  "reviewRequests",
  "reviews",
];

/** The fields that need git to answer (the patch checked against the base's tip). */
export const MERGE_FIELDS: readonly string[] = ["mergeable", "mergeStateStatus"];

/** The fields that need `patch.diff` read. */
export const PATCH_FIELDS: readonly string[] = ["additions", "changedFiles", "commits", "deletions", "files"];

/** What a PR needs besides its own file to become JSON. */
export interface PrContext extends IssueContext {
  /** Issue id → number, for `closingIssuesReferences`. */
  issueNumbers: ReadonlyMap<string, number>;
}

/** The parts of a PR's JSON that come from other files; each is included when given. */
export interface PrParts {
  reviews?: ReviewJson[];
  comments?: CommentJson[];
  stat?: PatchStat;
  commits?: CommitJson[];
  /** The commit forge-merge made, from the merge records (null: none). */
  mergeCommit?: string | null;
  /** `git apply --check` of the patch on the base's tip, and whether that tip moved past `baseSha`. */
  merge?: { mergeable: Mergeable; behind: boolean };
}

/** The largest `patch.diff` forge reads (git's output cap is the same). */
export const MAX_PATCH_BYTES = 64 * 1024 * 1024;

/**
 * A pull request as gh-shaped JSON. `updatedAt` is derived (the latest of
 * `createdAt`, `closedAt`, `mergedAt`, `editedAt` and its last comment, review
 * or edit record: `lastActivity`); a merged PR is `closed`, with
 * `closedAt` its merge time when no close was recorded.
 * @param e the loaded pr.md
 * @param number its derived number
 * @param ctx label, milestone and issue-number lookups
 * @param parts reviews, comments and the patch's stat, when wanted
 */
export function prToJson(e: LoadedEntity, number: number, ctx: PrContext, parts: PrParts = {}): PrJson {
  const d = e.data;
  const state = d.state as "open" | "closed" | "merged";
  const mergedAt = state === "merged" ? ((d.mergedAt as string | undefined) ?? null) : null;
  const closedAt = state === "open" ? null : ((d.closedAt as string | undefined) ?? mergedAt);
  const created = d.createdAt as string;
  let updated = created;
  for (const t of [d.closedAt, d.mergedAt, d.editedAt, lastActivity(e)] as Array<string | undefined>)
    if (t && t > updated) updated = t;
  const ms = d.milestone as string | undefined;
  const msDef = ms === undefined ? undefined : ctx.milestones.get(ms);
  const ci = (d.ci as string | undefined) ?? null;
  const out: Record<string, unknown> = {
    assignees: (d.assignees as string[]).map((login) => ({ login })),
    author: { login: d.author as string },
    baseRefName: d.baseRefName,
    baseRefOid: (d.baseSha as string | undefined) ?? "",
    body: bodyOf(e.body),
    ci,
    closed: state !== "open",
    closedAt,
    closingIssuesReferences: (d.closes as string[]).map((id) => ({ id, number: ctx.issueNumbers.get(id) ?? null })),
    createdAt: created,
    headRefName: d.headRefName,
    headRefOid: (d.headSha as string | undefined) ?? "",
    id: e.ref.id,
    isArchived: e.ref.archived,
    isDraft: isDraftPr(e),
    labels: (d.labels as string[]).map((name) => ctx.labels.get(name) ?? { name, color: "", description: "" }),
    mergedAt,
    milestone:
      ms === undefined
        ? null
        : { number: msDef?.number ?? 0, title: ms, description: msDef?.description ?? "", dueOn: msDef?.dueOn ?? null },
    number,
    patchSha256: d.patchSha256,
    previousPatchSha256: d.previousPatchSha256,
    state: state === "merged" ? "MERGED" : state === "closed" ? "CLOSED" : "OPEN",
    statusCheckRollup: statusCheckRollup(ci),
    title: d.title,
    updatedAt: updated,
    url: `${ctx.baseUrl ?? ""}/pull/${number}`,
  };
  if (parts.mergeCommit !== undefined) out.mergeCommit = parts.mergeCommit === null ? null : { oid: parts.mergeCommit };
  if (parts.commits) out.commits = parts.commits;
  const requested = (d.reviewers as string[] | undefined) ?? [];
  if (parts.reviews) {
    out.latestReviews = latestReviews(parts.reviews);
    out.reviewDecision = reviewDecision(parts.reviews, requested);
    out.reviewRequests = pendingReviewers(parts.reviews, requested).map((login) => ({ __typename: "User", login }));
  }
  if (parts.merge) {
    out.mergeable = parts.merge.mergeable;
    out.mergeStateStatus = mergeStateStatus({
      state,
      isDraft: isDraftPr(e),
      mergeable: parts.merge.mergeable,
      reviewDecision: (out.reviewDecision as string | undefined) ?? "",
      ci,
      behind: parts.merge.behind,
    });
  }
  if (parts.reviews) out.reviews = parts.reviews;
  if (parts.comments) out.comments = parts.comments;
  if (parts.stat) {
    out.additions = parts.stat.additions;
    out.deletions = parts.stat.deletions;
    out.changedFiles = parts.stat.files.length;
    out.files = parts.stat.files;
  }
  return sortKeys(out) as unknown as PrJson;
}

/**
 * gh's `statusCheckRollup` for a PR's `ci` verdict: one check named `ci`,
 * or none.
 * @example statusCheckRollup("pass") //
 * [{__typename: "CheckRun", conclusion: "SUCCESS", name: "ci", status: "COMPLETED"}]
 */
export function statusCheckRollup(ci: string | null): CheckJson[] {
  if (ci === null) return [];
  const [status, conclusion] =
    ci === "running"
      ? ["IN_PROGRESS", ""]
      : ["COMPLETED", ci === "pass" ? "SUCCESS" : ci === "fail" ? "FAILURE" : "CANCELLED"];
  return [{ __typename: "CheckRun", conclusion: conclusion!, name: "ci", status: status! }];
}

/** The sha256 of a patch's bytes, as stored in `patchSha256`. */
export function patchSha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Input for `createPr`. */
export interface NewPr {
  title: string;
  body: string;
  author: string;
  baseRefName: string;
  headRefName: string;
  baseSha: string;
  headSha: string;
  /** `git format-patch` output, stored byte for byte. */
  patch: Uint8Array;
  isDraft: boolean;
  closes: string[];
  labels: string[];
  assignees: string[];
  milestone?: string;
  /** Reviewers asked (`--reviewer`), gh's `reviewRequests` until they review. */
  reviewers?: string[];
  /** Clock and id generator, injectable for tests. */
  now: string;
  id?: string;
}

/**
 * Create a pull request: a new folder with `pr.md` and `patch.diff`, made
 * in one rename.
 * @returns the new PR's id
 * @throws UsageError for a bad title or an empty patch; ConflictError on an id clash
 */
export function createPr(store: Store, input: NewPr): string {
  checkTitle(input.title);
  if (input.patch.length === 0) throw new UsageError("the patch is empty");
  const id = input.id ?? randomUUID();
  const data = {
    title: input.title,
    id,
    state: "open",
    isDraft: input.isDraft,
    author: input.author,
    baseRefName: input.baseRefName,
    headRefName: input.headRefName,
    baseSha: input.baseSha,
    headSha: input.headSha,
    patchSha256: patchSha256(input.patch),
    previousPatchSha256: [],
    createdAt: input.now,
    milestone: input.milestone,
    closes: uniq(input.closes),
    labels: uniq(input.labels),
    assignees: uniq(input.assignees),
    reviewers: uniq(input.reviewers ?? []),
  };
  createEntity(store, PRS, PR, data, storedBody(input.body), { "patch.diff": input.patch });
  return id;
}

/**
 * Replace a PR's patch (after its head moved): `patch.diff` is rewritten,
 * then `pr.md` gets the new `baseSha`, `headSha` and `patchSha256`, the old
 * digest appended to `previousPatchSha256`, and no `ci` (a verdict belongs to
 * one patch). The old bytes stay in git's history.
 * @returns the updated PR
 */
export function replacePatch(
  store: Store,
  e: LoadedEntity,
  patch: { bytes: Uint8Array; baseSha: string; headSha: string }
): LoadedEntity {
  if (patch.bytes.length === 0) throw new UsageError("the patch is empty");
  return updateEntity(PR, e, (d) => {
    // Under pr.md's lock: a parallel update cannot pair its patch with this digest.
    atomicWrite(patchFile(store, PRS, e.ref.id, e.ref.archived), patch.bytes);
    d.baseSha = patch.baseSha;
    d.headSha = patch.headSha;
    d.previousPatchSha256 = [...(d.previousPatchSha256 as string[]), d.patchSha256 as string];
    d.patchSha256 = patchSha256(patch.bytes);
    delete d.ci;
  });
}

/**
 * Read a PR's `patch.diff` and check it against `patchSha256`.
 * @throws NotFoundError; InvalidFileError when refused, too big, or not the recorded patch
 */
export function readPatch(store: Store, e: LoadedEntity): Buffer {
  const path = patchFile(store, PRS, e.ref.id, e.ref.archived);
  const bytes = readStoreBytes(store, path, MAX_PATCH_BYTES);
  if (patchSha256(bytes) !== e.data.patchSha256)
    throw new InvalidFileError(displayPath(store, path), "does not match the PR's patchSha256");
  return bytes;
}

/**
 * Append a review: a new file `reviews/<id>.md`, never an edit.
 * @returns the review as JSON
 */
export function addReview(
  store: Store,
  e: LoadedEntity,
  input: { state: ReviewJson["state"]; body: string; author: string; now: string; id?: string }
): ReviewJson {
  if (input.state !== "APPROVED" && input.body.trim() === "") throw new UsageError("this review needs a body");
  const id = input.id ?? laterRecordId(recordDirs(store, e, "reviews"), input.now);
  appendRecord(
    store,
    PRS,
    e.ref,
    "reviews",
    PR_REVIEW,
    { id, author: input.author, state: input.state, createdAt: input.now },
    storedBody(input.body)
  );
  return {
    author: { login: input.author },
    body: bodyOf(storedBody(input.body)),
    id,
    state: input.state,
    submittedAt: input.now,
  };
}

/**
 * Append a comment: a new file `comments/<id>.md`, never an edit.
 * @returns the comment as JSON
 */
export function addPrComment(
  store: Store,
  e: LoadedEntity,
  input: { body: string; author: string; now: string; id?: string }
): CommentJson {
  if (input.body.trim() === "") throw new UsageError("comment body must not be empty");
  const id = input.id ?? laterRecordId(recordDirs(store, e, "comments"), input.now);
  appendRecord(
    store,
    PRS,
    e.ref,
    "comments",
    COMMENT,
    { id, author: input.author, createdAt: input.now },
    storedBody(input.body)
  );
  return { author: { login: input.author }, body: bodyOf(storedBody(input.body)), createdAt: input.now, id };
}

/**
 * A PR's reviews, oldest first by `(createdAt, id)`.
 * @throws InvalidFileError for a bad review file
 */
export async function loadReviews(store: Store, e: LoadedEntity): Promise<ReviewJson[]> {
  const files = await loadRecords(store, PRS, e.ref, "reviews", PR_REVIEW);
  return files.map((f) => ({
    author: { login: f.data.author as string },
    body: bodyOf(f.body),
    id: f.data.id as string,
    state: f.data.state as ReviewJson["state"],
    submittedAt: f.data.createdAt as string,
  }));
}

/**
 * A PR's comments, oldest first by `(createdAt, id)`.
 * @throws InvalidFileError for a bad comment file
 */
export async function loadPrComments(store: Store, e: LoadedEntity): Promise<CommentJson[]> {
  const files = await loadRecords(store, PRS, e.ref, "comments", COMMENT);
  return files.map((f) => ({
    author: { login: f.data.author as string },
    body: bodyOf(f.body),
    createdAt: f.data.createdAt as string,
    id: f.data.id as string,
  }));
}

// --- internal ---

/** A PR's folders of one record sort: live, and archived when it is (as loadRecords reads them). */
function recordDirs(store: Store, e: LoadedEntity, sub: string): string[] {
  const live = join(entityDir(store, PRS, e.ref.id, false), sub);
  return e.ref.archived ? [join(entityDir(store, PRS, e.ref.id, true), sub), live] : [live];
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

function uniq(xs: string[]): string[] {
  return [...new Set(xs)];
}
