/**
 * Schema v1 (frozen; see spec/schema.md): the fields of every frontmatter
 * entity, in the order they are written. The order is chosen so that fields
 * two clones edit independently never sit on adjacent lines (git merges
 * changes separated by an unchanged line without a conflict).
 */
import { InvalidFileError } from "../errors.js";
import { isTimestamp, isUuid } from "../time.js";

/** How a field's value is checked. */
export type FieldType =
  | { t: "string" } // non-empty single-line string
  | { t: "text" } // any string
  | { t: "uuid" }
  | { t: "timestamp" }
  | { t: "enum"; values: readonly string[] }
  | { t: "int"; min?: number }
  | { t: "bool" }
  | { t: "sha256" }
  | { t: "strings" } // list of non-empty strings; absent or empty → []
  | { t: "maps"; fields: FieldSpec[] }; // list of flat maps

/** One field of an entity. */
export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly required?: boolean;
  /** A list added after v1's first files: written only when it has items, so older files stay byte for byte. */
  readonly omitEmpty?: boolean;
}

/** An entity's schema. */
export interface EntitySchema {
  readonly kind: string;
  readonly fields: readonly FieldSpec[];
  /** A sha256 field every write seals the file with and every read checks (seal.ts); the last of `fields`. */
  readonly sealed?: string;
}

/** A validated record: known fields normalised, unknown fields kept in order. */
export interface Validated {
  /** Known fields, typed; lists default to []. */
  readonly data: Record<string, unknown>;
  /** Unknown fields, kept so a rewrite never loses them. */
  readonly extra: Record<string, unknown>;
  /** One line per unknown field, for stderr. */
  readonly warnings: string[];
}

/**
 * Check a parsed mapping against a schema.
 * @param schema the entity's schema
 * @param raw the parsed frontmatter
 * @param file the file name for messages
 * @returns the normalised record and warnings for unknown fields
 * @throws InvalidFileError naming the file and the first bad field
 * @example validate(ISSUE, {title: "x"}, "a.md") // throws: field 'id': missing
 */
export function validate(schema: EntitySchema, raw: Record<string, unknown>, file: string): Validated {
  const data: Record<string, unknown> = {};
  for (const f of schema.fields) {
    const v = raw[f.name];
    if (v === undefined || v === null) {
      if (f.type.t === "strings" || f.type.t === "maps") data[f.name] = [];
      else if (f.required) throw new InvalidFileError(file, "missing", f.name);
      continue;
    }
    data[f.name] = checkValue(f, v, file, f.name);
  }
  const extra: Record<string, unknown> = {};
  const warnings: string[] = [];
  const known = namesOf(schema);
  for (const k of Object.keys(raw)) {
    if (known.has(k)) continue;
    // As an assignment it would set the prototype, and the field would vanish on the next write.
    if (k === "__proto__") throw new InvalidFileError(file, "a reserved name (not allowed as a field)", k);
    extra[k] = raw[k];
    warnings.push(`${file}: unknown field '${k.slice(0, 40)}' (kept)`);
  }
  return { data, extra, warnings };
}

const NAMES = new WeakMap<EntitySchema, Set<string>>();

/** The field names of a schema, as a set (validate runs once per file: 10,000 times for a list). */
function namesOf(schema: EntitySchema): Set<string> {
  let names = NAMES.get(schema);
  if (!names) NAMES.set(schema, (names = new Set(schema.fields.map((f) => f.name))));
  return names;
}

function checkValue(f: FieldSpec, v: unknown, file: string, at: string): unknown {
  const bad = (what: string): never => fail(file, what, at);
  const ty = f.type;
  switch (ty.t) {
    case "string":
      if (typeof v !== "string" || v.trim() === "") bad("expected a non-empty string");
      if ((v as string).includes("\n")) bad("expected a single line");
      return v;
    case "text":
      if (typeof v !== "string") bad("expected a string");
      return v;
    case "uuid":
      if (!isUuid(v)) bad("expected a lowercase uuid v4");
      return v;
    case "timestamp":
      if (!isTimestamp(v)) bad("expected an RFC 3339 UTC timestamp like 2026-01-02T03:04:05Z");
      return v;
    case "enum":
      if (typeof v !== "string" || !ty.values.includes(v)) bad(`expected one of ${ty.values.join("|")}`);
      return v;
    case "int":
      if (typeof v !== "number" || !Number.isSafeInteger(v) || (ty.min !== undefined && v < ty.min))
        bad("expected an integer" + (ty.min !== undefined ? ` ≥ ${ty.min}` : ""));
      return v;
    case "bool":
      if (typeof v !== "boolean") bad("expected true or false");
      return v;
    case "sha256":
      if (typeof v !== "string" || !/^[0-9a-f]{64}$/.test(v)) bad("expected a sha256 hex digest");
      return v;
    case "strings":
      if (!Array.isArray(v)) bad("expected a list");
      for (const x of v as unknown[])
        if (typeof x !== "string" || x.trim() === "" || x.includes("\n")) bad("expected a list of non-empty strings");
      return v;
    case "maps": {
      if (!Array.isArray(v)) bad("expected a list");
      return (v as unknown[]).map((item, i) => {
        if (item === null || typeof item !== "object" || Array.isArray(item)) bad(`item ${i + 1}: expected a mapping`);
        const m = item as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const sub of ty.fields) {
          const x = m[sub.name];
          if (x === undefined || x === null) {
            if (sub.required) throw new InvalidFileError(file, "missing", `${at}[${i}].${sub.name}`);
            continue;
          }
          out[sub.name] = checkValue(sub, x, file, `${at}[${i}].${sub.name}`);
        }
        for (const k of Object.keys(m)) {
          if (k === "__proto__")
            throw new InvalidFileError(file, "a reserved name (not allowed as a field)", `${at}[${i}].${k}`);
          if (!(k in out) && !ty.fields.some((s) => s.name === k)) out[k] = m[k];
        }
        return out;
      });
    }
  }
}

function fail(file: string, what: string, at: string): never {
  throw new InvalidFileError(file, what, at);
}

/**
 * Put a record back in schema order, unknown fields last, ready for
 * `formatFrontmatter`.
 */
export function toFrontmatter(
  schema: EntitySchema,
  data: Record<string, unknown>,
  extra: Record<string, unknown> = {}
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of schema.fields) {
    const v = data[f.name];
    if (v === undefined || (f.omitEmpty && Array.isArray(v) && v.length === 0)) continue;
    out[f.name] = v;
  }
  for (const [k, v] of Object.entries(extra)) if (!(k in out)) out[k] = v;
  return out;
}

// --- schema v1 ---

const S = (name: string, required = false): FieldSpec => ({ name, type: { t: "string" }, required });
const TS = (name: string, required = false): FieldSpec => ({ name, type: { t: "timestamp" }, required });
const ID: FieldSpec = { name: "id", type: { t: "uuid" }, required: true };
const LIST = (name: string): FieldSpec => ({ name, type: { t: "strings" } });

/** `.forge/issues/<id>/issue.md` */
export const ISSUE: EntitySchema = {
  kind: "issue",
  fields: [
    S("title", true),
    ID,
    { name: "state", type: { t: "enum", values: ["open", "closed"] }, required: true },
    TS("closedAt"),
    { name: "stateReason", type: { t: "enum", values: ["completed", "not_planned", "duplicate"] } },
    TS("reopenedAt"),
    S("author", true),
    S("milestone"),
    TS("createdAt", true),
    // The last edit or comment (feeds updatedAt); beside createdAt, which never changes.
    TS("editedAt"),
    { name: "isPinned", type: { t: "bool" } },
    LIST("labels"),
    LIST("assignees"),
    // Links (spec/schema.md "Dependencies"): kept in the blocked issue's file (one writer per edge);
    // `blocking` and `subIssues` are derived. Written only when set, so older files stay byte for byte.
    { name: "parent", type: { t: "uuid" } },
    { ...LIST("blockedBy"), omitEmpty: true },
    // Where `forge import gh` found it (GitHub's html url and node id): a second import matches by them.
    S("githubUrl"),
    S("githubId"),
  ],
};

/** `.forge/issues/<id>/comments/<id>.md` and `.forge/prs/<id>/comments/<id>.md` */
export const COMMENT: EntitySchema = {
  kind: "comment",
  fields: [ID, S("author", true), TS("createdAt", true), S("githubUrl")],
};

/** `.forge/prs/<id>/pr.md` */
export const PR: EntitySchema = {
  kind: "pr",
  fields: [
    S("title", true),
    ID,
    { name: "state", type: { t: "enum", values: ["open", "closed", "merged"] }, required: true },
    // isDraft sits with the lifecycle fields: beside headSha, marking a PR ready
    // in one clone and pushing a new patch in another would conflict.
    TS("closedAt"),
    TS("mergedAt"),
    { name: "isDraft", type: { t: "bool" } },
    S("author", true),
    S("baseRefName", true),
    S("headRefName", true),
    S("baseSha"),
    S("headSha"),
    { name: "patchSha256", type: { t: "sha256" }, required: true },
    { name: "previousPatchSha256", type: { t: "strings" } },
    { name: "ci", type: { t: "enum", values: ["pass", "fail", "running", "cancelled"] } },
    TS("createdAt", true),
    TS("editedAt"),
    S("milestone"),
    LIST("closes"),
    LIST("labels"),
    LIST("assignees"),
    { ...LIST("reviewers"), omitEmpty: true },
    S("githubUrl"),
    S("githubId"),
  ],
};

/** `.forge/prs/<id>/reviews/<id>.md` */
export const PR_REVIEW: EntitySchema = {
  kind: "pr-review",
  fields: [
    ID,
    S("author", true),
    { name: "state", type: { t: "enum", values: ["APPROVED", "CHANGES_REQUESTED", "COMMENTED"] }, required: true },
    TS("createdAt", true),
    S("githubUrl", false),
  ],
};

/**
 * `.forge/issues/<id>/edits/<id>.md` and `.forge/prs/<id>/edits/<id>.md`: one per edit,
 * written once (never edited), so an edit moves `updatedAt` without a line two clones share.
 */
export const EDIT: EntitySchema = {
  kind: "edit",
  // isDraft: set by `pr ready` (false) and `pr ready --undo` (true); the latest such record is the PR's draft state.
  fields: [ID, S("author", true), TS("createdAt", true), LIST("fields"), { name: "isDraft", type: { t: "bool" } }],
};

/** `.forge/tasks/<id>/task.md` */
export const TASK: EntitySchema = {
  kind: "task",
  fields: [
    S("title", true),
    ID,
    { name: "status", type: { t: "enum", values: ["todo", "doing", "blocked", "done"] }, required: true },
    TS("closedAt"),
    S("author", true),
    { name: "issue", type: { t: "uuid" } },
    TS("createdAt", true),
    LIST("assignees"),
  ],
};

const LABEL_FIELDS: FieldSpec[] = [
  S("name", true),
  { name: "color", type: { t: "string" } },
  { name: "description", type: { t: "text" } },
];

/** `.forge/labels.md`: the label definitions. */
export const LABELS: EntitySchema = {
  kind: "labels",
  fields: [{ name: "labels", type: { t: "maps", fields: LABEL_FIELDS } }],
};

/** `.forge/milestones.md`: the milestone definitions. */
export const MILESTONES: EntitySchema = {
  kind: "milestones",
  fields: [
    {
      name: "milestones",
      type: {
        t: "maps",
        fields: [
          S("title", true),
          TS("dueOn"),
          { name: "state", type: { t: "enum", values: ["open", "closed"] } },
          { name: "description", type: { t: "text" } },
        ],
      },
    },
  ],
};

/** `.forge/releases/<tag>.md` */
export const RELEASE: EntitySchema = {
  kind: "release",
  fields: [
    S("tagName", true),
    S("name"),
    S("commit", true),
    S("tree"),
    S("author", true),
    TS("createdAt", true),
    { name: "isDraft", type: { t: "bool" } },
    { name: "isPrerelease", type: { t: "bool" } },
    { name: "latest", type: { t: "bool" } },
    {
      name: "assets",
      type: {
        t: "maps",
        fields: [
          S("name", true),
          { name: "size", type: { t: "int", min: 0 }, required: true },
          { name: "sha256", type: { t: "sha256" }, required: true },
        ],
      },
    },
    // The release identity's own digest (forge-release verify): sha256 over every other field and the notes.
    { name: "digest", type: { t: "sha256" } },
  ],
};

/** `.forge/merges/<id>.md` */
export const MERGE_RECORD: EntitySchema = {
  kind: "merge-record",
  fields: [
    ID,
    { name: "pr", type: { t: "uuid" }, required: true },
    { name: "patchSha256", type: { t: "sha256" }, required: true },
    S("patchId"),
    S("commit"),
    S("baseRefName", true),
    {
      name: "verdict",
      type: { t: "enum", values: ["merged", "conflict", "ci-failed", "already-merged"] },
      required: true,
    },
    S("failedStep"),
    TS("createdAt", true),
    LIST("conflicts"),
    LIST("resolved"),
  ],
};

/**
 * `.forge/merges/imports/<id>.md`: what one `forge-merge import` brought in
 * (`added`, as `<kind>/<id>`) and what it refused to overwrite (`conflicts`).
 */
export const IMPORT_RECORD: EntitySchema = {
  kind: "import-record",
  fields: [
    ID,
    S("source", true),
    TS("createdAt", true),
    { name: "unchanged", type: { t: "int", min: 0 } },
    LIST("added"),
    LIST("conflicts"),
  ],
};

/** `.forge/ci/runs/<id>/summary.md` (machine state, gitignored) */
export const CI_RUN: EntitySchema = {
  kind: "ci-run",
  fields: [
    ID,
    { name: "status", type: { t: "enum", values: ["queued", "in_progress", "completed"] }, required: true },
    { name: "conclusion", type: { t: "enum", values: ["success", "failure", "cancelled", "timed_out"] } },
    { name: "verdict", type: { t: "enum", values: ["pass", "fail", "running", "cancelled"] }, required: true },
    S("headSha", true),
    S("codeTree"),
    { name: "patchSha256", type: { t: "sha256" } },
    { name: "pr", type: { t: "uuid" } },
    { name: "envSha256", type: { t: "sha256" }, required: true },
    S("runner", true),
    S("title"),
    { name: "rerunOf", type: { t: "uuid" } },
    // The runs that share one worktree's setup (the steps before the target ran once there) share this id.
    S("setupId"),
    { name: "pid", type: { t: "int", min: 1 } },
    TS("createdAt", true),
    TS("completedAt"),
    {
      name: "steps",
      type: {
        t: "maps",
        fields: [
          S("name", true),
          { name: "exitCode", type: { t: "int" } },
          { name: "durationMs", type: { t: "int", min: 0 }, required: true },
          {
            name: "outcome",
            type: { t: "enum", values: ["pass", "fail", "timeout", "cancelled", "skipped"] },
            required: true,
          },
          S("signature"),
          { name: "logSha256", type: { t: "sha256" } },
          // The dependency cache's install step: restored (`hit`, not run) or run and kept (`saved`).
          { name: "cache", type: { t: "enum", values: ["hit", "saved"] } },
        ],
      },
    },
    // The sha256 of the file with these 64 digits read as `0`s (seal.ts): an edit is found on read. Absent in a record
    // written before it (read as it was).
    { name: "recordSha256", type: { t: "sha256" } },
  ],
  sealed: "recordSha256",
};

/** Every frontmatter schema, by kind. */
export const SCHEMAS: Readonly<Record<string, EntitySchema>> = {
  issue: ISSUE,
  comment: COMMENT,
  pr: PR,
  "pr-review": PR_REVIEW,
  edit: EDIT,
  task: TASK,
  labels: LABELS,
  milestones: MILESTONES,
  release: RELEASE,
  "merge-record": MERGE_RECORD,
  "import-record": IMPORT_RECORD,
  "ci-run": CI_RUN,
};
