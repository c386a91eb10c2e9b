/**
 * `forge import gh`'s writer: what the read files hold, matched against the
 * store by GitHub address (`githubUrl`, kept in each imported file), then
 * added, found unchanged, or reported as a conflict and left as it is
 * (never overwritten), as `forge-merge import` does with a foreign store.
 * Every new file is checked as the reader will read it before the first
 * byte is written (hostile input: one line, nothing written). Issues and
 * PRs are created in GitHub's number order with ids that keep that order
 * among issues of the same second; an import that adds nothing writes
 * nothing (a second import of the same file changes 0 files).
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { ISSUES, commentsDir, displayPath, entityDir, importFile, type Store } from "../store/store.js";
import { createDirAtomic } from "../store/create_dir.js";
import { atomicWrite } from "../store/atomic_write.js";
import { withKindLock } from "../store/lock.js";
import { loadDefList, saveDefList } from "../entities/defs.js";
import { loadRecords, PRS } from "../entities/folder_entity.js";
import { storedBody } from "../entities/issue.js";
import { loadEntity, loadEntityFast, type LoadedEntity } from "../entities/load.js";
import { entityOrder } from "../entities/order.js";
import { patchSha256 } from "../entities/pr.js";
import {
  COMMENT,
  IMPORT_RECORD,
  ISSUE,
  LABELS,
  MILESTONES,
  PR,
  PR_REVIEW,
  toFrontmatter,
  validate,
  type EntitySchema,
} from "../entities/schema.js";
import { checkedText } from "../entities/write.js";
import { formatFrontmatter } from "../frontmatter/parse.js";
import type { KindLayout } from "../store/store.js";
import {
  readGhJson,
  webIssueUrl,
  type GhBatch,
  type GhComment,
  type GhItem,
  type GhLabel,
  type GhReview,
} from "./read.js";

/** One line of the import's output. */
export interface GhImportLine {
  kind: "issue" | "pr" | "comment" | "review" | "label" | "milestone";
  /** The GitHub address (a label's or milestone's name for those). */
  url: string;
  result: "added" | "unchanged" | "conflict" | "skipped";
  reason?: string;
}

/** What an import did. */
export interface GhImportResult {
  lines: GhImportLine[];
  /** Truncation and what forge leaves out, for stderr. */
  notes: string[];
  /** The import record written (`.forge/merges/imports/<id>.md`), or null when nothing was added. */
  record: string | null;
}

/** Options of `importGh`. */
export interface GhImportOptions {
  /** The record's time (default now). */
  now: string;
  /** The record's id. */
  recordId: string;
}

/** A file to import: its name (for messages and the record) and text. */
export interface GhInput {
  file: string;
  text: string;
}

interface Pending {
  dir?: { path: string; files: Record<string, string> };
  records: Array<{ path: string; text: string }>;
  added: string[];
}

/**
 * Import gh's JSON into the store.
 * @throws InvalidFileError for any bad input field (nothing written); ConflictError on a race with another writer
 */
export async function importGh(
  store: Store,
  inputs: readonly GhInput[],
  opts: GhImportOptions
): Promise<GhImportResult> {
  const batches = inputs.map((i) => readGhJson(i.text, i.file));
  const notes = batches.flatMap((b) => b.notes);
  const items = mergeItems(batches, notes);
  return withKindLock(store, ISSUES, () =>
    withKindLock(store, PRS, async () => {
      const lines: GhImportLine[] = [];
      const pending: Pending = { records: [], added: [] };
      const dirs: Array<{ path: string; files: Record<string, string> }> = [];
      const labels = await planDefs(store, "labels", batches, items, lines);
      const milestones = await planDefs(store, "milestones", batches, items, lines);
      for (const kind of ["issue", "pr"] as const) {
        const layout = kind === "issue" ? ISSUES : PRS;
        const schema = kind === "issue" ? ISSUE : PR;
        const known = await indexByUrl(store, layout, schema);
        for (const it of items.filter((x) => x.kind === kind).sort((a, b) => a.number - b.number)) {
          const found = known.get(it.url);
          if (found) await planExisting(store, layout, found, it, lines, pending);
          else {
            const dir = planNew(store, layout, it, lines, pending, notes);
            if (dir) dirs.push(dir);
          }
        }
      }
      const prs = items.filter((x) => x.kind === "pr" && !lines.some((l) => l.url === x.url && l.result === "skipped"));
      if (prs.length > 0)
        notes.push(
          `${prs.length} pull request(s) recorded without a patch (gh's JSON has none): forge-pr diff shows nothing ` +
            "for them, and an open one is recorded closed"
        );
      if (pending.added.length === 0 && !labels && !milestones) return { lines, notes, record: null };
      // Everything is checked; now the writes, definitions first (an issue's labels exist before it does).
      labels?.();
      milestones?.();
      for (const d of dirs) createDirAtomic(d.path, d.files);
      for (const r of pending.records) atomicWrite(r.path, r.text, { exclusive: true });
      const added = [
        ...pending.added,
        ...lines
          .filter((l) => l.result === "added" && (l.kind === "label" || l.kind === "milestone"))
          .map((l) => `${l.kind}s/${l.url}`),
      ];
      const data = {
        id: opts.recordId,
        source: `gh:${inputs.map((i) => i.file).join(",")}`.slice(0, 200),
        createdAt: opts.now,
        unchanged: lines.filter((l) => l.result === "unchanged").length,
        added,
        conflicts: lines.filter((l) => l.result === "conflict").map((l) => `${l.kind}:${l.url}`),
      };
      const path = importFile(store, opts.recordId);
      const v = validate(IMPORT_RECORD, data, displayPath(store, path));
      atomicWrite(path, formatFrontmatter(toFrontmatter(IMPORT_RECORD, v.data), ""), { exclusive: true });
      return { lines, notes, record: displayPath(store, path) };
    })
  );
}

/** The items of every file, one per address (the later file's copy wins; comments are joined). */
function mergeItems(batches: GhBatch[], notes: string[]): GhItem[] {
  const by = new Map<string, GhItem>();
  const alias = new Map<string, string>();
  for (const b of batches)
    for (const it of b.items) {
      const was = by.get(it.url);
      if (was && was.comments && it.comments) it.comments = joinComments(was.comments, it.comments);
      else if (was && was.comments && !it.comments) it.comments = was.comments;
      if (was && was.reviews && it.reviews) {
        const seen = new Set(was.reviews.map(reviewKey));
        it.reviews = [...was.reviews, ...it.reviews.filter((r) => !seen.has(reviewKey(r)))];
      } else if (was && was.reviews && !it.reviews) it.reviews = was.reviews;
      by.set(it.url, it);
      // REST comments name `…/issues/N` for a PR too.
      alias.set(it.url.replace(/\/pull\/(\d+)$/, "/issues/$1"), it.url);
    }
  for (const b of batches)
    for (const [issueUrl, cs] of b.comments) {
      const it = by.get(alias.get(webIssueUrl(issueUrl)) ?? "");
      if (!it) {
        notes.push(`${cs.length} comment(s) of ${issueUrl.slice(0, 120)} skipped: that issue is not in the input`);
        continue;
      }
      it.comments = joinComments(it.comments ?? [], cs);
    }
  for (const it of by.values())
    if (it.commentCount !== undefined && (it.comments?.length ?? 0) < it.commentCount)
      notes.push(
        `${it.url}: ${it.comments?.length ?? 0} of its ${it.commentCount} comments are in the input ` +
          `(gh issue view ${it.number} --comments --json comments gives them all)`
      );
  return [...by.values()];
}

function joinComments(a: GhComment[], b: GhComment[]): GhComment[] {
  const seen = new Set(a.map(commentKey));
  return [...a, ...b.filter((c) => !seen.has(commentKey(c)))];
}

/** A comment's identity: its address, else who, when and what. */
function commentKey(c: { url?: string | undefined; author: string; createdAt: string; body: string }): string {
  return c.url ?? `${c.author}\n${c.createdAt}\n${storedBody(c.body)}`;
}

/** Every issue (or PR) of the store that came from GitHub, by its address. */
async function indexByUrl(store: Store, kind: KindLayout, schema: EntitySchema): Promise<Map<string, LoadedEntity>> {
  const order = await entityOrder(store, kind, schema);
  const m = new Map<string, LoadedEntity>();
  for (const { ref } of order.entries) {
    const e = loadEntityFast(store, kind, schema, ref) ?? (await loadEntity(store, kind, schema, ref));
    const u = e.data.githubUrl;
    if (typeof u === "string") m.set(u, e);
  }
  return m;
}

/**
 * Labels or milestones: new ones are added to the definition file; one
 * defined here already with other values is a conflict, kept as it is.
 * @returns the write to do (after every check), or undefined when nothing is new
 */
async function planDefs(
  store: Store,
  key: "labels" | "milestones",
  batches: GhBatch[],
  items: GhItem[],
  lines: GhImportLine[]
): Promise<(() => void) | undefined> {
  const list = await loadDefList(store, key);
  const field = key === "labels" ? "name" : "title";
  const kind = key === "labels" ? "label" : "milestone";
  const incoming = new Map<string, Record<string, unknown>>();
  const put = (name: string, rec: Record<string, unknown>): void => {
    const was = incoming.get(name.toLowerCase());
    // The fullest copy wins (a label named in an issue may lack the colour its definition has).
    if (!was || Object.keys(rec).length > Object.keys(was).length) incoming.set(name.toLowerCase(), rec);
  };
  if (key === "labels") {
    const all: GhLabel[] = [...batches.flatMap((b) => b.labels), ...items.flatMap((i) => i.labels)];
    for (const l of all) put(l.name, clean({ name: l.name, color: l.color, description: l.description }));
  } else
    for (const m of items.flatMap((i) => (i.milestone ? [i.milestone] : [])))
      put(m.title, clean({ title: m.title, dueOn: m.dueOn, state: m.state, description: m.description }));
  const items2 = list.items.map((x) => ({ ...x }));
  // No labels.md: GitHub's defaults stand in until the repository's own definitions arrive and replace them.
  const standIn = key === "labels" && list.text === undefined;
  let added = 0;
  for (const rec of incoming.values()) {
    const name = String(rec[field]);
    const at = items2.findIndex((x) => String(x[field]).toLowerCase() === name.toLowerCase());
    const here = items2[at];
    if (!here || standIn) {
      if (here) items2[at] = { ...here, ...rec };
      else items2.push(rec);
      added++;
      lines.push({ kind, url: name, result: "added" });
      continue;
    }
    const differ = Object.keys(rec).filter((k) => k !== field && here[k] !== undefined && here[k] !== rec[k]);
    if (differ.length > 0)
      lines.push({ kind, url: name, result: "conflict", reason: `${differ.join(", ")} differ (kept as it is here)` });
    else lines.push({ kind, url: name, result: "unchanged" });
  }
  if (added === 0) return undefined;
  // Checked now, written after every other check passed.
  validate(key === "labels" ? LABELS : MILESTONES, { [key]: items2 }, displayPath(store, list.path));
  return () => saveDefList(store, key, list, items2);
}

function clean(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * An issue (or PR) already here: the fields forge models are compared; a
 * difference is a conflict (kept as it is here). Comments and reviews not
 * here yet are added (they are append-only records).
 */
async function planExisting(
  store: Store,
  kind: KindLayout,
  e: LoadedEntity,
  it: GhItem,
  lines: GhImportLine[],
  pending: Pending
): Promise<void> {
  const want = it.kind === "issue" ? issueData(it, e.data.id as string) : prData(it, e.data.id as string);
  const differ: string[] = [];
  const keys = new Set([...Object.keys(want), ...COMPARED.filter((k) => e.data[k] !== undefined)]);
  for (const k of keys) {
    if (k === "editedAt" || k === "reopenedAt" || k === "patchSha256") continue;
    const v = want[k];
    const here = e.data[k];
    const same = Array.isArray(v) ? sameSet(v as string[], (here as string[] | undefined) ?? []) : here === v;
    if (!same) differ.push(k);
  }
  if (storedBody(it.body) !== e.body) differ.push("body");
  lines.push(
    differ.length > 0
      ? { kind: it.kind, url: it.url, result: "conflict", reason: `${differ.join(", ")} differ (kept as it is here)` }
      : { kind: it.kind, url: it.url, result: "unchanged" }
  );
  const have = await loadRecords(store, kind, e.ref, "comments", COMMENT);
  const seen = new Set(
    have.map((f) =>
      commentKey({
        url: f.data.githubUrl as string | undefined,
        author: f.data.author as string,
        createdAt: f.data.createdAt as string,
        body: f.body,
      })
    )
  );
  // Also without the address, so a comment first written by hand (or by another import shape) is not doubled.
  for (const f of have)
    seen.add(commentKey({ author: f.data.author as string, createdAt: f.data.createdAt as string, body: f.body }));
  const dir = join(entityDir(store, kind, e.ref.id, e.ref.archived), "comments");
  (it.comments ?? []).forEach((c, i) => {
    if (seen.has(commentKey(c)) || seen.has(commentKey({ ...c, url: undefined }))) {
      lines.push({ kind: "comment", url: c.url ?? `${it.url}#${i + 1}`, result: "unchanged" });
      return;
    }
    const id = orderedId(i, c.url ?? `${it.url}\n${commentKey(c)}`);
    const path = join(dir, `${id}.md`);
    pending.records.push({ path, text: commentText(store, path, id, c) });
    pending.added.push(`${kind.plural}/${e.ref.id}/comments/${id}`);
    lines.push({ kind: "comment", url: c.url ?? `${it.url}#${i + 1}`, result: "added" });
  });
  if (it.kind === "pr" && it.reviews && it.reviews.length > 0) await planReviews(store, kind, e, it, lines, pending);
}

/**
 * The reviews of a PR already here that are not here yet (by address, else
 * by who, when, verdict and text: a review imported before reviews kept their
 * address, or written by `forge-pr review`, is not doubled).
 */
async function planReviews(
  store: Store,
  kind: KindLayout,
  e: LoadedEntity,
  it: GhItem,
  lines: GhImportLine[],
  pending: Pending
): Promise<void> {
  const have = await loadRecords(store, kind, e.ref, "reviews", PR_REVIEW);
  const seen = new Set<string>();
  for (const f of have) {
    const r = {
      author: f.data.author as string,
      createdAt: f.data.createdAt as string,
      state: f.data.state as string,
      body: f.body,
    };
    seen.add(reviewKey(r));
    if (typeof f.data.githubUrl === "string") seen.add(reviewKey({ ...r, url: f.data.githubUrl }));
  }
  const dir = entityDir(store, kind, e.ref.id, e.ref.archived);
  it.reviews!.forEach((r, i) => {
    const url = r.url ?? `${it.url}#review-${i + 1}`;
    if (seen.has(reviewKey(r)) || seen.has(reviewKey({ ...r, url: undefined }))) {
      lines.push({ kind: "review", url, result: "unchanged" });
      return;
    }
    const rec = reviewRecord(store, dir, it, r, i);
    pending.records.push(rec);
    pending.added.push(`${kind.plural}/${e.ref.id}/reviews/${rec.path.slice(rec.path.lastIndexOf("/") + 1, -3)}`);
    lines.push({ kind: "review", url, result: "added" });
  });
}

/** Fields an import sets that a file here may have when GitHub's copy has none (then they differ). */
const COMPARED = [
  "state",
  "closedAt",
  "stateReason",
  "mergedAt",
  "milestone",
  "isPinned",
  "isDraft",
  "baseSha",
  "headSha",
];

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** A new issue (or PR): its folder's files, checked. */
function planNew(
  store: Store,
  kind: KindLayout,
  it: GhItem,
  lines: GhImportLine[],
  pending: Pending,
  notes: string[]
): { path: string; files: Record<string, string> } | undefined {
  if (it.kind === "pr" && (!it.baseRefName || !it.headRefName)) {
    lines.push({ kind: "pr", url: it.url, result: "skipped", reason: "no baseRefName/headRefName in the input" });
    notes.push(`${it.url}: skipped: a pull request needs baseRefName and headRefName (gh pr list --json gives them)`);
    return undefined;
  }
  const id = orderedId(it.number, it.url);
  const dir = entityDir(store, kind, id);
  const data = it.kind === "issue" ? issueData(it, id) : prData(it, id);
  const schema = it.kind === "issue" ? ISSUE : PR;
  const files: Record<string, string> = {
    [kind.file]: checkedText(schema, displayPath(store, join(dir, kind.file)), {
      data,
      extra: {},
      body: storedBody(it.body),
    }),
  };
  if (it.kind === "pr") files["patch.diff"] = "";
  pending.added.push(`${kind.plural}/${id}`);
  lines.push({ kind: it.kind, url: it.url, result: "added" });
  (it.comments ?? []).forEach((c, i) => {
    const cid = orderedId(i, c.url ?? `${it.url}\n${commentKey(c)}`);
    const path = join(commentsDir(store, kind, id), `${cid}.md`);
    pending.records.push({ path, text: commentText(store, path, cid, c) });
    lines.push({ kind: "comment", url: c.url ?? `${it.url}#${i + 1}`, result: "added" });
  });
  (it.reviews ?? []).forEach((r, i) => {
    pending.records.push(reviewRecord(store, dir, it, r, i));
    lines.push({ kind: "review", url: r.url ?? `${it.url}#review-${i + 1}`, result: "added" });
  });
  return { path: dir, files };
}

/** A review's file: its id from its address (else who, when, what), so the same review always gets the same id. */
function reviewRecord(store: Store, dir: string, it: GhItem, r: GhReview, i: number): { path: string; text: string } {
  const rid = orderedId(i, r.url ?? `${it.url}\n${r.author}\n${r.createdAt}\n${r.state}`);
  const path = join(dir, "reviews", `${rid}.md`);
  const text = checkedText(PR_REVIEW, displayPath(store, path), {
    data: { id: rid, author: r.author, state: r.state, createdAt: r.createdAt, githubUrl: r.url },
    extra: {},
    body: storedBody(r.body),
  });
  return { path, text };
}

/** A review's identity: its address, else who, when, which verdict and what. */
function reviewKey(r: {
  url?: string | undefined;
  author: string;
  createdAt: string;
  state: string;
  body: string;
}): string {
  return r.url ?? `${r.author}\n${r.createdAt}\n${r.state}\n${storedBody(r.body)}`;
}

function commentText(store: Store, path: string, id: string, c: GhComment): string {
  return checkedText(COMMENT, displayPath(store, path), {
    data: { id, author: c.author, createdAt: c.createdAt, githubUrl: c.url },
    extra: {},
    body: storedBody(c.body),
  });
}

/** An issue's frontmatter from GitHub's values (see spec/schema.md "forge import gh" for each field). */
function issueData(it: GhItem, id: string): Record<string, unknown> {
  const closed = it.state !== "open";
  // gh has no time for a reopen: its updatedAt stands for it (so updatedAt, derived from it, is gh's again).
  const reopenedAt = !closed && it.stateReason === "reopened" ? (it.updatedAt ?? it.createdAt) : undefined;
  return clean({
    title: it.title,
    id,
    state: closed ? "closed" : "open",
    closedAt: closed ? it.closedAt : undefined,
    stateReason: closed && it.stateReason !== undefined && it.stateReason !== "reopened" ? it.stateReason : undefined,
    reopenedAt,
    author: it.author,
    milestone: it.milestone?.title,
    createdAt: it.createdAt,
    editedAt: editedAt(it, [it.createdAt, closed ? it.closedAt : undefined, reopenedAt]),
    isPinned: it.isPinned === true ? true : undefined,
    labels: [...new Set(it.labels.map((l) => l.name))],
    assignees: [...new Set(it.assignees)],
    githubUrl: it.url,
    githubId: it.nodeId,
  });
}

/** A PR's frontmatter: merged stays merged; open and closed are recorded closed (no patch to review or merge). */
function prData(it: GhItem, id: string): Record<string, unknown> {
  const merged = it.state === "merged" || it.mergedAt !== undefined;
  return clean({
    title: it.title,
    id,
    state: merged ? "merged" : "closed",
    closedAt: merged ? undefined : it.closedAt,
    mergedAt: merged ? it.mergedAt : undefined,
    isDraft: it.isDraft === true ? true : undefined,
    author: it.author,
    baseRefName: it.baseRefName,
    headRefName: it.headRefName,
    baseSha: it.baseSha,
    headSha: it.headSha,
    patchSha256: patchSha256(new Uint8Array(0)),
    createdAt: it.createdAt,
    editedAt: editedAt(it, [it.createdAt, it.closedAt, it.mergedAt]),
    milestone: it.milestone?.title,
    labels: [...new Set(it.labels.map((l) => l.name))],
    assignees: [...new Set(it.assignees)],
    githubUrl: it.url,
    githubId: it.nodeId,
  });
}

/** GitHub's updatedAt as the last edit, when it is later than every other stamp (so forge's updatedAt is gh's). */
function editedAt(it: GhItem, stamps: Array<string | undefined>): string | undefined {
  const u = it.updatedAt;
  return u !== undefined && stamps.every((s) => s === undefined || u > s) ? u : undefined;
}

/**
 * A uuid v4-shaped id whose first 8 hex digits are `seq`: ids of one
 * second sort in GitHub's number (or a comment's place) order, so numbers
 * (ranks by createdAt, then id) keep GitHub's order. The rest is a hash of
 * `key`, so the same item always gets the same id.
 */
export function orderedId(seq: number, key: string): string {
  const h = createHash("sha256").update(key).digest("hex");
  const s = (seq % 0x100000000).toString(16).padStart(8, "0") + h;
  const variant = "89ab"[parseInt(s[16]!, 16) & 3]!;
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-${variant}${s.slice(17, 20)}-${s.slice(20, 32)}`;
}
