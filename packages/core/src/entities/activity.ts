/**
 * An issue's or PR's last activity, derived from its append-only records
 * (spec/schema.md "updatedAt"): the latest `createdAt` of its comments,
 * edit records and (a PR's) reviews. Each is a file of its own, written once,
 * so two clones that edit or comment one item never touch a shared line, and
 * `updatedAt` still moves on every edit and comment.
 */
import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { READ_FLAGS } from "../store/read_file.js";
import { entityDir, type KindLayout, type Store } from "../store/store.js";
import { UUID } from "../time.js";
import { appendRecord } from "./folder_entity.js";
import { laterRecordId } from "./later_id.js";
import type { LoadedEntity } from "./load.js";
import { EDIT } from "./schema.js";

/** The record folders of each kind whose files move `updatedAt` (beside the owning file). */
export const ACTIVITY_RECORDS: Readonly<Record<string, readonly string[]>> = {
  issues: ["comments", "edits"],
  prs: ["comments", "reviews", "edits"],
};

/** How much of a record file is read for its `createdAt` (a canonical record has it on its fourth line). */
export const RECORD_HEAD = 4096;
// One buffer for every record's head (read synchronously): one of 4 KiB per entity was 40 MB of external memory
// at 10,000 entities, and the collections it set off.
let headBuf: Buffer | undefined;
/** `scanRecords`' patterns: a record's name (a uuid), its `createdAt` and an edit's `isDraft`. */
export const SCAN_RE = {
  uuid: UUID,
  created: /\ncreatedAt: "?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"?\n/,
  draft: /\nisDraft: (true|false)\n/,
} as const;
/** This thread's file calls for `scanRecords`: a record is opened as a store file is read (`READ_FLAGS`). */
const SCAN_FS: ScanFs = {
  flags: READ_FLAGS,
  readdirSync: (dir) => readdirSync(dir),
  openSync,
  readSync,
  closeSync,
};

/** What an entity's records say: the last activity, and the latest draft state an edit record set (with its key). */
interface Activity {
  at: string;
  draft?: { key: string; value: boolean };
}
/** What this module knows of one loaded entity: its activity once read, its record folders known to be missing. */
interface Known {
  memo?: Activity;
  absent?: readonly string[];
}
// Kept on the entity under a symbol, not enumerable (a spread copy, which may name another file, carries none), not
// in a WeakMap: a table of 100,000 short-lived entities nearly doubled a cold list's scavenge time at 100,000 issues.
const KNOWN = Symbol("activity");
type Knowing = { [KNOWN]?: Known };

/** The entity's Known, made when `make` (undefined when it has none, or cannot take one: a frozen object). */
function knownOf(e: LoadedEntity, make = false): Known | undefined {
  const o = e as unknown as Knowing;
  let k = o[KNOWN];
  if (k === undefined && make && Object.isExtensible(o)) {
    k = {};
    Object.defineProperty(o, KNOWN, { value: k });
  }
  return k;
}

/**
 * Record folders of `e` known to be missing (a folder stamp taken before its records are read said so): not listed
 * for its activity (a `readdir` of a missing folder costs an exception).
 */
export function absentFolders<E extends LoadedEntity>(e: E, dirs: readonly string[] | undefined): E {
  if (dirs && dirs.length > 0) {
    const k = knownOf(e, true);
    if (k) k.absent = dirs;
  }
  return e;
}

/**
 * The folders whose records move the entity's `updatedAt`: its own, and for
 * an archived entity the live folder too (a merge can leave a record there).
 * @param path the owning file (`<store>/<plural>/<id>/<file>` or `<store>/archive/<plural>/<id>/<file>`)
 */
export function activityDirs(path: string, archived: boolean): string[] {
  // Cut and joined as strings: the path is already normal (entityFile's), and path.join's normalising made a fifth
  // of a cold list's garbage (43 MB at 10,000 issues).
  const dir = dirname(path);
  const kindDir = dirname(dir);
  const plural = basename(kindDir);
  const subs = ACTIVITY_RECORDS[plural] ?? [];
  const out = subs.map((s) => `${dir}/${s}`);
  if (archived) {
    // <store>/archive/<plural>/<id>: the live folder is <store>/<plural>/<id>.
    const live = `${dirname(dirname(kindDir))}/${plural}/${basename(dir)}`;
    for (const s of subs) out.push(`${live}/${s}`);
  }
  return out;
}

/**
 * The latest `createdAt` of the entity's activity records, or "" when it has none.
 * A record that cannot be read, or has no `createdAt` near its top, moves nothing
 * (reading it in full is the verbs' work: `view` and `fsck` report it).
 */
export function lastActivity(e: LoadedEntity): string {
  return activityOf(e).at;
}

/**
 * Whether a PR is a draft: the latest edit record (by `(createdAt, id)`) that
 * sets `isDraft` (`pr ready` and `pr ready --undo` write one), else pr.md's
 * `isDraft` (set at create). A record, not a rewrite of pr.md, so marking a PR
 * ready leaves every tracked file as it was.
 */
export function isDraftPr(e: LoadedEntity): boolean {
  const d = activityOf(e).draft;
  return d ? d.value : e.data.isDraft === true;
}

function activityOf(e: LoadedEntity): Activity {
  const k = knownOf(e);
  if (k?.memo !== undefined) return k.memo;
  const buf = (headBuf ??= Buffer.allocUnsafe(RECORD_HEAD));
  const out = scanRecords(activityDirs(e.path, e.ref.archived), k?.absent, SCAN_FS, buf, SCAN_RE);
  const made = k ?? knownOf(e, true);
  if (made) made.memo = out;
  return out;
}

/**
 * The entity with its activity as another thread read it (`PreRead`, with `scanRecords`), so it is not read again.
 * @param at the latest `createdAt` of its records ("" when none)
 */
export function withScannedActivity<E extends LoadedEntity>(e: E, at: string): E {
  const k = knownOf(e, true);
  if (k) k.memo = { at };
  return e;
}

/** The file calls `scanRecords` makes, and the flags it opens records with (another thread passes its own). */
export interface ScanFs {
  readonly flags: number;
  readdirSync(dir: string): string[];
  openSync(path: string, flags: number): number;
  readSync(fd: number, buf: Buffer, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
}

/**
 * What the records in `dirs` say (`Activity`): each `<uuid>.md` file's
 * `createdAt` near its top (the frontmatter in the first `buf.length` bytes),
 * and an edit record's `isDraft`. A folder that cannot be listed, or a record
 * that cannot be read or has no `createdAt` there, moves nothing.
 *
 * Self-contained (it names only its parameters and globals): another thread
 * runs its source (`PreRead`), so both read records the same way.
 * @param skip folders known to be missing (not listed)
 * @param re the uuid, createdAt and isDraft patterns (`SCAN_RE`)
 */
export function scanRecords(
  dirs: readonly string[],
  skip: readonly string[] | undefined,
  fs: ScanFs,
  buf: Buffer,
  re: { readonly uuid: RegExp; readonly created: RegExp; readonly draft: RegExp }
): Activity {
  const out: Activity = { at: "" };
  for (const dir of dirs) {
    if (skip?.includes(dir)) continue;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    const edits = dir.endsWith("/edits");
    for (const n of names) {
      if (!n.endsWith(".md") || !re.uuid.test(n.slice(0, -3))) continue;
      // The frontmatter's first bytes (`---\n` … `\n---\n`), or "" when the file cannot be read or has none.
      let head = "";
      let fd: number;
      try {
        fd = fs.openSync(`${dir}/${n}`, fs.flags);
      } catch {
        continue;
      }
      try {
        const text = buf.toString("utf8", 0, fs.readSync(fd, buf, 0, buf.length, 0));
        if (text.startsWith("---\n")) {
          const end = text.indexOf("\n---", 3);
          head = end < 0 ? text : text.slice(0, end + 1);
        }
      } catch {
        // unreadable: moves nothing
      } finally {
        fs.closeSync(fd);
      }
      const m = re.created.exec(head);
      if (!m) continue;
      const t = m[1]!;
      if (t > out.at) out.at = t;
      const dm = edits ? re.draft.exec(head) : null;
      const key = `${t} ${n}`;
      if (dm && (!out.draft || key > out.draft.key)) out.draft = { key, value: dm[1] === "true" };
    }
  }
  return out;
}

/**
 * The entity with a record it just wrote counted (the memo is per loaded
 * object: a verb that appends a record and prints the item passes it on).
 */
export function withActivity<E extends LoadedEntity>(e: E, at: string, draft?: boolean): E {
  const a = activityOf(e);
  const next: Activity = { at: at > a.at ? at : a.at, draft: a.draft };
  if (draft !== undefined) next.draft = { key: `${at} ~`, value: draft };
  const k = knownOf(e, true);
  if (k) k.memo = next;
  return e;
}

/**
 * Record an edit: a new file `edits/<id>.md` beside the owning file (never an
 * edit of a shared line), which moves the entity's `updatedAt` to `now`.
 * @param input.fields the fields the edit changed, by their `--json` names
 * @param input.isDraft a PR's new draft state (`pr ready`), when the edit sets it
 * @returns the entity with the new record counted
 */
export function recordEdit<E extends LoadedEntity>(
  store: Store,
  kind: KindLayout,
  e: E,
  input: { author: string; now: string; fields: readonly string[]; isDraft?: boolean }
): E {
  const live = join(entityDir(store, kind, e.ref.id, false), "edits");
  const dirs = e.ref.archived ? [join(entityDir(store, kind, e.ref.id, true), "edits"), live] : [live];
  const id = laterRecordId(dirs, input.now);
  const data = {
    id,
    author: input.author,
    createdAt: input.now,
    fields: [...new Set(input.fields)],
    isDraft: input.isDraft,
  };
  appendRecord(store, kind, e.ref, "edits", EDIT, data, "");
  return withActivity(e, input.now, input.isDraft);
}
