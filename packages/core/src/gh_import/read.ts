/**
 * `forge import gh`'s reader: files of gh's JSON (`gh issue list --json …`
 * and `gh pr list --json …` arrays, `gh issue view --json … --comments`
 * objects) and of GitHub's REST shapes (issues, comments, labels), checked
 * as hostile input (a size cap, a depth cap before parsing, every field
 * typed; an error names the file and the field) and brought to one model.
 * Pure but for nothing: the caller reads the bytes.
 */
import { InvalidFileError } from "../errors.js";
import { formatTimestamp } from "../time.js";

/** The most bytes one input file may have. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;
/** The deepest nesting of arrays and objects an input file may have. */
export const MAX_IMPORT_DEPTH = 32;
/** What gh's list commands fetch of an issue's comments, labels, assignees and a PR's reviews. */
export const GH_LIST_CAP = 100;

/** A comment as imported. */
export interface GhComment {
  /** Its GitHub address (`…#issuecomment-N`), when given: a second import matches by it. */
  url?: string;
  author: string;
  body: string;
  createdAt: string;
}

/** A label as imported. */
export interface GhLabel {
  name: string;
  color?: string;
  description?: string;
}

/** A milestone as imported. */
export interface GhMilestone {
  title: string;
  description?: string;
  dueOn?: string;
  state?: "open" | "closed";
}

/** A PR review as imported. */
export interface GhReview {
  author: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED";
  body: string;
  createdAt: string;
  url?: string;
}

/** An issue or PR as imported, from either shape. */
export interface GhItem {
  kind: "issue" | "pr";
  number: number;
  /** The web address (`https://github.com/o/r/issues/N`): the import's identity. */
  url: string;
  nodeId?: string;
  title: string;
  body: string;
  author: string;
  state: "open" | "closed" | "merged";
  stateReason?: "completed" | "not_planned" | "duplicate" | "reopened";
  createdAt: string;
  updatedAt?: string;
  closedAt?: string;
  mergedAt?: string;
  isPinned?: boolean;
  labels: GhLabel[];
  assignees: string[];
  milestone?: GhMilestone;
  /** The comments given with it (undefined: the input had none to give). */
  comments?: GhComment[];
  /** How many comments GitHub says it has (REST `comments`), when given. */
  commentCount?: number;
  reviews?: GhReview[];
  baseRefName?: string;
  headRefName?: string;
  baseSha?: string;
  headSha?: string;
  isDraft?: boolean;
}

/** What one file brought. */
export interface GhBatch {
  items: GhItem[];
  /** REST comments, by the issue address they belong to. */
  comments: Map<string, GhComment[]>;
  labels: GhLabel[];
  /** Notes for stderr: what gh cut (truncation) or forge leaves out. */
  notes: string[];
}

/**
 * Parse one input file.
 * @param text the file's text
 * @param file its name, for messages
 * @throws InvalidFileError naming the file and the field
 */
export function readGhJson(text: string, file: string): GhBatch {
  if (Buffer.byteLength(text) > MAX_IMPORT_BYTES)
    throw new InvalidFileError(file, `larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`);
  checkDepth(text, file);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new InvalidFileError(file, "not JSON (gh's --json output, an array or an object)");
  }
  // GitHub's search API wraps its issues: `{total_count, incomplete_results, items: […]}`.
  if (v !== null && typeof v === "object" && !Array.isArray(v) && Array.isArray((v as Rec).items)) v = (v as Rec).items;
  const list = Array.isArray(v) ? v : [v];
  const out: GhBatch = { items: [], comments: new Map(), labels: [], notes: [] };
  list.forEach((x, i) => {
    const at = Array.isArray(v) ? `[${i}]` : "";
    const o = obj(x, file, at || "(top)");
    if (isRestComment(o)) {
      const c = restComment(o, file, at);
      const issue = str(o.issue_url ?? o.html_url, file, sub(at, "issue_url")).replace(/#.*$/, "");
      const key = webIssueUrl(issue);
      const cs = out.comments.get(key) ?? [];
      cs.push(c);
      out.comments.set(key, cs);
    } else if (o.number === undefined && typeof o.name === "string") out.labels.push(label(o, file, at));
    else out.items.push(isRest(o) ? restItem(o, file, at, out.notes) : ghItem(o, file, at, out.notes));
  });
  return out;
}

// --- gh's JSON (camelCase) ---

function ghItem(o: Rec, file: string, at: string, notes: string[]): GhItem {
  const f = (k: string): string => sub(at, k);
  const url = str(o.url, file, f("url"));
  const isPr =
    /\/pull\/\d+$/.test(url) ||
    o.headRefName !== undefined ||
    o.baseRefName !== undefined ||
    o.mergedAt !== undefined ||
    o.isDraft !== undefined;
  const state = enumOf(
    o.state ?? (o.closed === true ? "CLOSED" : undefined),
    ["OPEN", "CLOSED", "MERGED"],
    file,
    f("state")
  );
  const number = int(o.number, file, f("number"));
  const item: GhItem = {
    kind: isPr ? "pr" : "issue",
    number,
    url,
    nodeId: optStr(o.id, file, f("id")),
    title: str(o.title, file, f("title")),
    body: optText(o.body, file, f("body")) ?? "",
    author: login(o.author, file, f("author")),
    state: state.toLowerCase() as GhItem["state"],
    stateReason: reason(o.stateReason, file, f("stateReason")),
    createdAt: time(o.createdAt, file, f("createdAt")),
    updatedAt: optTime(o.updatedAt, file, f("updatedAt")),
    closedAt: optTime(o.closedAt, file, f("closedAt")),
    mergedAt: optTime(o.mergedAt, file, f("mergedAt")),
    isPinned: optBool(o.isPinned, file, f("isPinned")),
    labels: list(o.labels, file, f("labels"), (x, a) => label(obj(x, file, a), file, a)),
    assignees: list(o.assignees, file, f("assignees"), (x, a) => login(x, file, a)),
    milestone:
      o.milestone == null ? undefined : milestone(obj(o.milestone, file, f("milestone")), file, f("milestone")),
    comments:
      o.comments === undefined
        ? undefined
        : list(o.comments, file, f("comments"), (x, a) => {
            const c = obj(x, file, a);
            return {
              url: optStr(c.url, file, `${a}.url`),
              author: login(c.author, file, `${a}.author`),
              body: optText(c.body, file, `${a}.body`) ?? "",
              createdAt: time(c.createdAt, file, `${a}.createdAt`),
            };
          }),
    reviews:
      o.reviews === undefined
        ? undefined
        : list(o.reviews, file, f("reviews"), (x, a) => review(obj(x, file, a), file, a, notes, url)).filter(
            (r): r is GhReview => r !== undefined
          ),
    baseRefName: optStr(o.baseRefName, file, f("baseRefName")),
    headRefName: optStr(o.headRefName, file, f("headRefName")),
    baseSha: optStr(o.baseRefOid, file, f("baseRefOid")),
    headSha: optStr(o.headRefOid, file, f("headRefOid")),
    isDraft: optBool(o.isDraft, file, f("isDraft")),
  };
  // gh's lists fetch the first 100 of each (issue list/pr list's GraphQL `first: 100`): exactly 100 may be cut.
  for (const [k, n] of [
    ["comments", item.comments?.length],
    ["labels", item.labels.length],
    ["assignees", item.assignees.length],
    ["reviews", item.reviews?.length],
  ] as const)
    if (n !== undefined && n >= GH_LIST_CAP)
      notes.push(
        `${file}: ${item.kind} #${number}: ${n} ${k}: gh's lists stop at ${GH_LIST_CAP}, so some may be missing ` +
          `(gh ${item.kind === "pr" ? "pr" : "issue"} view ${number} --json ${k} gives them all)`
      );
  return item;
}

function review(o: Rec, file: string, at: string, notes: string[], url: string): GhReview | undefined {
  const state = str(o.state, file, sub(at, "state"));
  if (state !== "APPROVED" && state !== "CHANGES_REQUESTED" && state !== "COMMENTED") {
    notes.push(`${file}: ${url}: a ${state.slice(0, 20)} review is not imported (forge keeps submitted reviews)`);
    return undefined;
  }
  return {
    author: login(o.author, file, sub(at, "author")),
    state,
    body: optText(o.body, file, sub(at, "body")) ?? "",
    createdAt: time(o.submittedAt ?? o.createdAt, file, sub(at, "submittedAt")),
    url: optStr(o.url ?? o.id, file, sub(at, "url")),
  };
}

// --- GitHub's REST shapes (snake_case) ---

function isRest(o: Rec): boolean {
  return o.html_url !== undefined || o.user !== undefined || o.created_at !== undefined;
}

function isRestComment(o: Rec): boolean {
  return o.number === undefined && o.issue_url !== undefined && o.body !== undefined;
}

function restItem(o: Rec, file: string, at: string, notes: string[]): GhItem {
  const f = (k: string): string => sub(at, k);
  const pr = o.pull_request != null ? obj(o.pull_request, file, f("pull_request")) : undefined;
  const head = o.head != null ? obj(o.head, file, f("head")) : undefined;
  const base = o.base != null ? obj(o.base, file, f("base")) : undefined;
  const isPr = pr !== undefined || head !== undefined;
  const mergedAt = optTime(o.merged_at ?? pr?.merged_at, file, f("merged_at"));
  const open = enumOf(o.state, ["open", "closed"], file, f("state")) === "open";
  const count =
    o.comments === undefined || Array.isArray(o.comments) ? undefined : int(o.comments, file, f("comments"));
  const item: GhItem = {
    kind: isPr ? "pr" : "issue",
    number: int(o.number, file, f("number")),
    url: str(o.html_url, file, f("html_url")),
    nodeId: optStr(o.node_id, file, f("node_id")),
    title: str(o.title, file, f("title")),
    body: optText(o.body, file, f("body")) ?? "",
    author: login(o.user, file, f("user")),
    state: open ? "open" : mergedAt ? "merged" : "closed",
    stateReason: reason(o.state_reason, file, f("state_reason")),
    createdAt: time(o.created_at, file, f("created_at")),
    updatedAt: optTime(o.updated_at, file, f("updated_at")),
    closedAt: optTime(o.closed_at, file, f("closed_at")),
    mergedAt,
    labels: list(o.labels, file, f("labels"), (x, a) =>
      typeof x === "string" ? { name: str(x, file, a) } : label(obj(x, file, a), file, a)
    ),
    assignees: list(o.assignees, file, f("assignees"), (x, a) => login(x, file, a)),
    milestone:
      o.milestone == null ? undefined : milestone(obj(o.milestone, file, f("milestone")), file, f("milestone")),
    comments: undefined,
    commentCount: count,
    baseRefName: base ? optStr(base.ref, file, f("base.ref")) : undefined,
    headRefName: head ? optStr(head.ref, file, f("head.ref")) : undefined,
    baseSha: base ? optStr(base.sha, file, f("base.sha")) : undefined,
    headSha: head ? optStr(head.sha, file, f("head.sha")) : undefined,
    isDraft: optBool(o.draft, file, f("draft")),
  };
  void notes;
  return item;
}

function restComment(o: Rec, file: string, at: string): GhComment {
  return {
    url: optStr(o.html_url, file, sub(at, "html_url")),
    author: login(o.user, file, sub(at, "user")),
    body: optText(o.body, file, sub(at, "body")) ?? "",
    createdAt: time(o.created_at, file, sub(at, "created_at")),
  };
}

/** `https://api.github.com/repos/o/r/issues/3` → `https://github.com/o/r/issues/3` (web addresses kept as they are). */
export function webIssueUrl(u: string): string {
  const m = /^https:\/\/api\.github\.com\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)$/.exec(u);
  return m ? `https://github.com/${m[1]}/${m[2]}/issues/${m[3]}` : u;
}

// --- shared pieces ---

/** A field's path for a message: `[3].title`, or `title` in a file of one object. */
function sub(at: string, k: string): string {
  return at ? `${at}.${k}` : k;
}

type Rec = Record<string, unknown>;

function label(o: Rec, file: string, at: string): GhLabel {
  const color = optStr(o.color, file, sub(at, "color"));
  return {
    name: str(o.name, file, sub(at, "name")),
    color: color === undefined || color === "" ? undefined : color,
    description: optText(o.description, file, sub(at, "description")) || undefined,
  };
}

function milestone(o: Rec, file: string, at: string): GhMilestone {
  const state =
    o.state === undefined || o.state === null
      ? undefined
      : enumOf(o.state, ["open", "closed", "OPEN", "CLOSED"], file, sub(at, "state"));
  return {
    title: str(o.title, file, sub(at, "title")),
    description: optText(o.description, file, sub(at, "description")) || undefined,
    dueOn: optTime(o.dueOn ?? o.due_on, file, sub(at, "dueOn")),
    state: state === undefined ? undefined : (state.toLowerCase() as "open" | "closed"),
  };
}

/** A user as a login: `{login}` (gh and REST alike); a deleted user (null) is GitHub's `ghost`. */
function login(v: unknown, file: string, at: string): string {
  if (v === null || v === undefined) return "ghost";
  return str(obj(v, file, at).login, file, sub(at, "login"));
}

function reason(v: unknown, file: string, at: string): GhItem["stateReason"] {
  if (v === null || v === undefined || v === "") return undefined;
  const r = enumOf(
    v,
    ["COMPLETED", "NOT_PLANNED", "DUPLICATE", "REOPENED", "completed", "not_planned", "duplicate", "reopened"],
    file,
    at
  );
  return r.toLowerCase() as GhItem["stateReason"];
}

function obj(v: unknown, file: string, at: string): Rec {
  if (v === null || typeof v !== "object" || Array.isArray(v))
    throw new InvalidFileError(file, "expected an object", at);
  return v as Rec;
}

function list<T>(v: unknown, file: string, at: string, each: (x: unknown, at: string) => T): T[] {
  if (v === undefined || v === null) return [];
  // GraphQL's connection shape (`{nodes: […]}`) as well as gh's plain arrays.
  const xs = Array.isArray(v) ? v : Array.isArray((v as Rec).nodes) ? ((v as Rec).nodes as unknown[]) : undefined;
  if (!xs) throw new InvalidFileError(file, "expected a list", at);
  return xs.map((x, i) => each(x, `${at}[${i}]`));
}

/** A non-empty one-line string. */
function str(v: unknown, file: string, at: string): string {
  if (typeof v !== "string" || v.trim() === "") throw new InvalidFileError(file, "expected a non-empty string", at);
  if (/[\r\n]/.test(v)) throw new InvalidFileError(file, "expected a single line", at);
  return v;
}

function optStr(v: unknown, file: string, at: string): string | undefined {
  return v === undefined || v === null || v === "" ? undefined : str(v, file, at);
}

function optText(v: unknown, file: string, at: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new InvalidFileError(file, "expected a string", at);
  return v;
}

function optBool(v: unknown, file: string, at: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new InvalidFileError(file, "expected true or false", at);
  return v;
}

function int(v: unknown, file: string, at: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw new InvalidFileError(file, "expected a non-negative integer", at);
  return v;
}

function enumOf(v: unknown, values: readonly string[], file: string, at: string): string {
  if (typeof v !== "string" || !values.includes(v))
    throw new InvalidFileError(
      file,
      `expected one of ${[...new Set(values.map((x) => x.toUpperCase()))].join("|")}`,
      at
    );
  return v;
}

/** An RFC 3339 time, brought to the store's form (UTC, seconds). */
function time(v: unknown, file: string, at: string): string {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v))
    throw new InvalidFileError(file, "expected an RFC 3339 time like 2026-01-02T03:04:05Z", at);
  const d = new Date(v);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1970 || d.getUTCFullYear() > 9999)
    throw new InvalidFileError(file, "expected a real instant", at);
  return formatTimestamp(d);
}

function optTime(v: unknown, file: string, at: string): string | undefined {
  return v === undefined || v === null || v === "" ? undefined : time(v, file, at);
}

/** Refuse nesting deeper than MAX_IMPORT_DEPTH before JSON.parse sees it (strings skipped). */
function checkDepth(text: string, file: string): void {
  let depth = 0;
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inStr) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inStr = false;
    } else if (c === 0x22) inStr = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_IMPORT_DEPTH) throw new InvalidFileError(file, `nested deeper than ${MAX_IMPORT_DEPTH} levels`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}
