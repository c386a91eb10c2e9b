/**
 * Operations shared by every folder-per-entity kind (issues, PRs, tasks):
 * create a folder atomically, rewrite the owning file, append a record file
 * (comments, reviews), read those records, archive. Kind-specific modules
 * (`issue.ts`, `pr.ts`, `task.ts`) build on these and add their JSON models.
 */
import { mkdirSync, readdirSync, renameSync } from "node:fs";
import { join, sep } from "node:path";
import { ConflictError } from "../errors.js";
import { createDirAtomic } from "../store/create_dir.js";
import type { EntityRef } from "../store/entities_dir.js";
import { lockFile } from "../store/lock.js";
import { archiveDir, displayPath, entityDir, entityFile, type KindLayout, type Store } from "../store/store.js";
import { isUuid } from "../time.js";
import { loadFile, rewriteFile, type LoadedEntity, type LoadedFile } from "./load.js";
import type { EntitySchema } from "./schema.js";
import { checkedText, writeChecked } from "./write.js";

/** Pull requests: `.forge/prs/<id>/pr.md`. */
export const PRS: KindLayout = { plural: "prs", file: "pr.md", noun: "pull request" };
/** Tasks: `.forge/tasks/<id>/task.md`. */
export const TASKS: KindLayout = { plural: "tasks", file: "task.md", noun: "task" };

/**
 * Create an entity: its folder, owning file and any extra files, made in one
 * rename (no half-made entity after a crash).
 * @param data known fields; `data.id` is the folder name
 * @param extraFiles more files in the folder, e.g. `patch.diff` (text or bytes)
 * @throws ConflictError when the id exists
 */
export function createEntity(
  store: Store,
  kind: KindLayout,
  schema: EntitySchema,
  data: Record<string, unknown>,
  body: string,
  extraFiles: Record<string, string | Uint8Array> = {}
): void {
  const id = data.id as string;
  const dir = entityDir(store, kind, id);
  // Checked as the reader will read it, before a byte is written.
  const text = checkedText(schema, displayPath(store, dir + sep + kind.file), { data, extra: {}, body });
  createDirAtomic(dir, { ...extraFiles, [kind.file]: text });
}

/**
 * Rewrite an entity's owning file with `change` applied to a copy of its
 * fields (known fields in schema order, unknown fields kept), atomically.
 * @param change mutates the fields; may return a new stored body
 * @returns the entity with the new fields and body
 */
export function updateEntity(
  schema: EntitySchema,
  e: LoadedEntity,
  change: (d: Record<string, unknown>) => { body?: string } | void
): LoadedEntity {
  // Under the file's lock, on the fields as they are now (`rewriteFile`): a parallel edit of another field is kept.
  return rewriteFile(schema, e, change);
}

/**
 * Append a record file (`<sub>/<id>.md`) to an entity: a new file, never an
 * edit, so concurrent appends from two clones merge without conflict.
 * @throws EEXIST if that record id exists (never overwritten)
 */
export function appendRecord(
  store: Store,
  kind: KindLayout,
  ref: EntityRef,
  sub: string,
  schema: EntitySchema,
  data: Record<string, unknown>,
  body: string
): void {
  const path = join(entityDir(store, kind, ref.id, ref.archived), sub, `${data.id as string}.md`);
  writeChecked(schema, path, displayPath(store, path), { data, extra: {}, body }, { exclusive: true });
}

/**
 * Read an entity's record files of one sort, oldest first by `(createdAt, id)`.
 * For an archived entity the live folder is read too: a merge can leave a
 * comment made in another clone there.
 * @throws InvalidFileError for a bad record file
 */
export async function loadRecords(
  store: Store,
  kind: KindLayout,
  ref: EntityRef,
  sub: string,
  schema: EntitySchema
): Promise<LoadedFile[]> {
  const dirs = [join(entityDir(store, kind, ref.id, ref.archived), sub)];
  if (ref.archived) dirs.push(join(entityDir(store, kind, ref.id, false), sub));
  const files: LoadedFile[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".md") && isUuid(n.slice(0, -3)) && !seen.has(n));
    } catch {
      continue;
    }
    for (const n of names) {
      seen.add(n);
      files.push(await loadFile(store, schema, join(dir, n)));
    }
  }
  return files.sort((a, b) => {
    const x = a.data.createdAt as string;
    const y = b.data.createdAt as string;
    return x < y ? -1 : x > y ? 1 : (a.data.id as string) < (b.data.id as string) ? -1 : 1;
  });
}

/**
 * Move an entity's folder to `.forge/archive/<kind>/<id>/`. Nothing is
 * deleted; numbers do not change (archived entities stay ranked).
 * @throws ConflictError if it is already archived
 */
export function archiveEntity(store: Store, kind: KindLayout, e: LoadedEntity): LoadedEntity {
  if (e.ref.archived)
    throw new ConflictError(`${displayPath(store, entityDir(store, kind, e.ref.id, true))} is already archived`);
  mkdirSync(archiveDir(store, kind), { recursive: true });
  // Under the owning file's lock, so no rewrite is half-way when the folder moves (its lock moves along and is released
  // there).
  const path = entityFile(store, kind, e.ref.id, true);
  const lock = lockFile(e.path, { file: e.file });
  try {
    renameSync(entityDir(store, kind, e.ref.id), entityDir(store, kind, e.ref.id, true));
  } catch (err) {
    lock.release();
    throw err;
  }
  lock.release(path);
  return { ...e, ref: { id: e.ref.id, archived: true }, path, file: displayPath(store, path) };
}
