/**
 * Foreign entities against the local store: each is `added` (absent here),
 * `unchanged` (here with the same content: the same bytes, or the same
 * canonical frontmatter), or a `conflict` (here with other content, or
 * archived in one store only), which is reported and never overwritten.
 * Planning reads only; `applyPlan` writes each added entity atomically.
 */
import { dirname, join } from "node:path";
import {
  archiveDir,
  COMMENT,
  EDIT,
  createDirAtomic,
  entityDir,
  entityFile,
  formatFrontmatter,
  importFile,
  ISSUES,
  kindDir,
  loadDefList,
  MERGE_RECORD,
  IMPORT_RECORD,
  mergeFile,
  mkdirInside,
  PR,
  PR_REVIEW,
  PRS,
  readStoreBytes,
  RELEASE,
  releaseFile,
  saveDefList,
  TASKS,
  toFrontmatter,
  wikiDir,
  atomicWrite,
  ISSUE,
  TASK,
  type EntitySchema,
  type KindLayout,
  type Store,
  lexists,
} from "@forge/core";
import { fm, type Incoming } from "./_incoming.js";

/** One entity's outcome. */
export interface Planned {
  inc: Incoming;
  result: "added" | "unchanged" | "conflict";
  /** Why a conflict is one. */
  reason?: string;
}

const LAYOUT: Record<string, KindLayout> = { issue: ISSUES, pr: PRS, task: TASKS };
const OWNER_SCHEMA: Record<string, EntitySchema> = { issue: ISSUE, pr: PR, task: TASK };

/** The append-only records beside an issue or PR: their owner, folder and schema. */
const RECORDS: Record<string, { owner: "issue" | "pr"; sub: string; schema: EntitySchema }> = {
  comment: { owner: "issue", sub: "comments", schema: COMMENT },
  edit: { owner: "issue", sub: "edits", schema: EDIT },
  review: { owner: "pr", sub: "reviews", schema: PR_REVIEW },
  "pr-comment": { owner: "pr", sub: "comments", schema: COMMENT },
  "pr-edit": { owner: "pr", sub: "edits", schema: EDIT },
};

/**
 * Decide every entity's outcome; reads the local store, writes nothing.
 * @throws InvalidFileError when a local file that must be compared cannot be read
 */
export async function planImport(store: Store, entities: Incoming[]): Promise<Planned[]> {
  const out: Planned[] = [];
  const defs = { labels: await loadDefList(store, "labels"), milestones: await loadDefList(store, "milestones") };
  for (const inc of entities) {
    const p = (result: Planned["result"], reason?: string): void =>
      void out.push(reason ? { inc, result, reason } : { inc, result });
    switch (inc.kind) {
      case "issue":
      case "pr":
      case "task": {
        const k = LAYOUT[inc.kind]!;
        const live = lexists(entityFile(store, k, inc.id));
        const arch = lexists(entityFile(store, k, inc.id, true));
        if (!live && !arch) {
          p("added");
          break;
        }
        const here = live ? entityFile(store, k, inc.id) : entityFile(store, k, inc.id, true);
        let same = await sameFile(store, here, inc.bytes!, OWNER_SCHEMA[inc.kind]!);
        if (same && inc.kind === "pr") same = sameBytes(store, join(dirname(here), "patch.diff"), inc.patch!);
        if (!same) p("conflict", `exists here with other content`);
        else if ((arch && !live) !== inc.archived)
          p("conflict", inc.archived ? "archived there, not here" : "archived here, not there");
        else p("unchanged");
        break;
      }
      case "comment":
      case "review":
      case "pr-comment":
      case "edit":
      case "pr-edit": {
        const { owner, sub, schema } = RECORDS[inc.kind]!;
        const k = LAYOUT[owner]!;
        const found = [false, true]
          .map((a) => join(entityDir(store, k, inc.parent!, a), sub, `${inc.id}.md`))
          .find(lexists);
        if (!found) p("added");
        else
          p(
            (await sameFile(store, found, inc.bytes!, schema)) ? "unchanged" : "conflict",
            "exists here with other content"
          );
        break;
      }
      case "label":
      case "milestone": {
        const list = inc.kind === "label" ? defs.labels : defs.milestones;
        const field = inc.kind === "label" ? "name" : "title";
        const low = inc.id.toLowerCase();
        const local = list.items.find((x) => String(x[field]).toLowerCase() === low);
        if (!local) p("added");
        else if (canonicalItem(local) === canonicalItem(inc.item!)) p("unchanged");
        else
          p(
            "conflict",
            `defined here with other ` +
              `${String(local[field]) === inc.id ? "content" : `case ('${String(local[field]).slice(0, 40)}')`}`
          );
        break;
      }
      default: {
        const path = targetOf(store, inc);
        if (!lexists(path)) p("added");
        else
          p(
            (await sameFile(store, path, inc.bytes!, schemaOf(inc))) ? "unchanged" : "conflict",
            "exists here with other content"
          );
      }
    }
  }
  // conflicts carry their reason; the others need none
  return out.map((x) => (x.result === "conflict" ? x : { inc: x.inc, result: x.result }));
}

/**
 * Write every `added` entity. First every folder that will be written into
 * is made (and checked: a symlink out of the store or a file in the way
 * stops the import before any entity is written); then labels and
 * milestones are appended to their definition files, one save each; then
 * each entity is written atomically — a new issue, task or PR appears in
 * one rename together with its comments and reviews.
 * @throws InvalidFileError when a local folder on the way is refused
 */
export async function applyPlan(store: Store, plan: Planned[]): Promise<void> {
  const added = plan.filter((x) => x.result === "added").map((x) => x.inc);
  const newOwners = new Map(
    added
      .filter((i) => LAYOUT[i.kind])
      .map((i) => [`${i.kind}/${i.id}`, { inc: i, files: {} as Record<string, Buffer> }])
  );
  const dirs = new Set<string>();
  const writes: Array<() => void> = [];
  for (const inc of added) {
    switch (inc.kind) {
      case "label":
      case "milestone":
        break;
      case "issue":
      case "pr":
      case "task": {
        const k = LAYOUT[inc.kind]!;
        dirs.add(inc.archived ? archiveDir(store, k) : kindDir(store, k));
        const o = newOwners.get(`${inc.kind}/${inc.id}`)!;
        o.files[k.file] = inc.bytes!;
        if (inc.patch) o.files["patch.diff"] = inc.patch;
        writes.push(() => createDirAtomic(entityDir(store, k, inc.id, inc.archived), o.files));
        break;
      }
      case "comment":
      case "review":
      case "pr-comment":
      case "edit":
      case "pr-edit": {
        const { owner, sub } = RECORDS[inc.kind]!;
        const fresh = newOwners.get(`${owner}/${inc.parent}`);
        if (fresh) {
          fresh.files[`${sub}/${inc.id}.md`] = inc.bytes!;
          break;
        }
        // Beside the owning file wherever it is here (live or archived).
        const k = LAYOUT[owner]!;
        const archivedHere =
          !lexists(entityFile(store, k, inc.parent!)) && lexists(entityFile(store, k, inc.parent!, true));
        const dir = join(entityDir(store, k, inc.parent!, archivedHere), sub);
        dirs.add(dir);
        writes.push(() => atomicWrite(join(dir, `${inc.id}.md`), inc.bytes!, { exclusive: true }));
        break;
      }
      default: {
        const path = targetOf(store, inc);
        dirs.add(dirname(path));
        writes.push(() => atomicWrite(path, inc.bytes!, { exclusive: true }));
      }
    }
  }
  for (const d of dirs) mkdirInside(store, d);
  for (const key of ["labels", "milestones"] as const) {
    const items = added.filter((i) => i.kind === (key === "labels" ? "label" : "milestone")).map((i) => i.item!);
    if (items.length === 0) continue;
    const list = await loadDefList(store, key);
    saveDefList(store, key, list, [...list.items, ...items]);
  }
  for (const w of writes) w();
}

// --- internal ---

/** Where a file entity lives here. */
function targetOf(store: Store, inc: Incoming): string {
  switch (inc.kind) {
    case "wiki":
      return join(wikiDir(store), inc.id);
    case "release":
      return releaseFile(store, inc.id);
    case "merge":
      return mergeFile(store, inc.id);
    case "import-record":
      return importFile(store, inc.id);
    default:
      throw new Error(`no file target for ${inc.kind}`);
  }
}

function schemaOf(inc: Incoming): EntitySchema | null {
  return inc.kind === "release"
    ? RELEASE
    : inc.kind === "merge"
      ? MERGE_RECORD
      : inc.kind === "import-record"
        ? IMPORT_RECORD
        : null;
}

/** The same bytes, or (for frontmatter) the same canonical form. */
async function sameFile(store: Store, path: string, bytes: Buffer, schema: EntitySchema | null): Promise<boolean> {
  const here = readStoreBytes(store, path, 64 * 1024 * 1024);
  if (here.equals(bytes)) return true;
  if (!schema) return false;
  try {
    const a = await fm(schema, here, "here");
    const b = await fm(schema, bytes, "there");
    const canon = (x: typeof a): string => formatFrontmatter(toFrontmatter(schema, x.data, x.extra), x.body);
    return canon(a) === canon(b);
  } catch {
    return false;
  }
}

function sameBytes(store: Store, path: string, bytes: Buffer): boolean {
  try {
    return readStoreBytes(store, path, 64 * 1024 * 1024).equals(bytes);
  } catch {
    return false;
  }
}

/** A label or milestone item, keys sorted, for comparison. */
function canonicalItem(item: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(item)
      .sort()
      .map((k) => [k, item[k]])
  );
}
