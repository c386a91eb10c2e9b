import { constants, openSync } from "node:fs";
import { ConflictError, InvalidFileError, NotFoundError } from "../errors.js";
import {
  MAX_FILE_BYTES,
  parseFrontmatter,
  parseFrontmatterFast,
  parseFrontmatterSync,
  type Frontmatter,
} from "../frontmatter/parse.js";
import type { EntityRef } from "../store/entities_dir.js";
import { withLock } from "../store/lock.js";
import { readOpened, readStoreFile } from "../store/read_file.js";
import { displayPath, entityFile, type KindLayout, type Store } from "../store/store.js";
import { validate, type EntitySchema } from "./schema.js";
import { checkSeal } from "./seal.js";
import { displayOf, writeChecked } from "./write.js";

/** A store file, read and validated. */
export interface LoadedFile {
  /** Absolute path. */
  readonly path: string;
  /** Path for messages, relative to the repo. */
  readonly file: string;
  /** Known fields, normalised. */
  readonly data: Record<string, unknown>;
  /** Unknown fields, kept for rewrites. */
  readonly extra: Record<string, unknown>;
  readonly body: string;
  /** One line per unknown field. */
  readonly warnings: string[];
  /** The file's text, as read (set by `loadFile`). */
  readonly text?: string;
}

/** An entity's owning file, read and validated. */
export interface LoadedEntity extends LoadedFile {
  readonly ref: EntityRef;
}

/**
 * Read and validate one store file.
 * @throws NotFoundError, InvalidFileError
 */
export async function loadFile(store: Store, schema: EntitySchema, path: string): Promise<LoadedFile> {
  const file = displayPath(store, path);
  const text = readStoreFile(store, path);
  return { ...checked(schema, path, file, await parseFrontmatter(text, file), text), text };
}

/**
 * Read and validate an entity's owning file; its `id` must match its folder.
 * @throws NotFoundError, InvalidFileError
 */
export async function loadEntity(
  store: Store,
  kind: KindLayout,
  schema: EntitySchema,
  ref: EntityRef
): Promise<LoadedEntity> {
  const path = entityPath(store, kind, ref);
  return withRef(await loadFile(store, schema, path), ref);
}

/**
 * The synchronous half of `loadEntity`, for callers that load thousands of
 * files (three awaits per file add up): the entity, or `undefined` when its
 * frontmatter needs the general YAML engine (then call `loadEntity`).
 * @throws NotFoundError, InvalidFileError
 */
export function loadEntityFast(
  store: Store,
  kind: KindLayout,
  schema: EntitySchema,
  ref: EntityRef
): LoadedEntity | undefined {
  const path = entityPath(store, kind, ref);
  const file = displayPath(store, path);
  const text = readStoreFile(store, path);
  const fm = parseFrontmatterFast(text, file);
  return fm && withRef(checked(schema, path, file, fm, text), ref);
}

/**
 * `loadEntityFast` of a file already read and parsed (a cold list's order
 * pass reads each file once and hands its frontmatter on).
 * @throws InvalidFileError
 */
export function entityOfFrontmatter(
  store: Store,
  kind: KindLayout,
  schema: EntitySchema,
  ref: EntityRef,
  fm: Frontmatter,
  text: string
): LoadedEntity {
  const path = entityPath(store, kind, ref);
  return withRef(checked(schema, path, displayPath(store, path), fm, text), ref);
}

function entityPath(store: Store, kind: KindLayout, ref: EntityRef): string {
  const path = entityFile(store, kind, ref.id, ref.archived);
  if (ref.escapes) throw new InvalidFileError(displayPath(store, path), "folder is a symlink out of .forge/ (refused)");
  return path;
}

function checked(schema: EntitySchema, path: string, file: string, fm: Frontmatter, text: string): LoadedFile {
  const v = validate(schema, fm.data, file);
  checkSeal(schema, text, v.data, file);
  return { path, file, data: v.data, extra: v.extra, body: fm.body, warnings: v.warnings };
}

function withRef(f: LoadedFile, ref: EntityRef): LoadedEntity {
  if (f.data.id !== ref.id) throw new InvalidFileError(f.file, "does not match its folder name", "id");
  // Spelled out: an object spread is slow in code that has not warmed up yet (list runs this 10,000 times).
  return { path: f.path, file: f.file, data: f.data, extra: f.extra, body: f.body, warnings: f.warnings, ref };
}

/**
 * Write a store file whole: known fields in schema order, unknown fields
 * after them, checked as a reader would read it (`writeChecked`), atomically.
 * @throws InvalidFileError naming the file and field; nothing written
 */
export function saveFile(
  schema: EntitySchema,
  path: string,
  data: Record<string, unknown>,
  extra: Record<string, unknown>,
  body: string
): void {
  writeChecked(schema, path, displayOf(path), { data, extra, body });
}

/** A change to a file's known fields (mutated in place); may return a new stored body. */
export type FileChange = (data: Record<string, unknown>) => { body?: string } | void;

/**
 * A read-modify-write of one store file, as git does it: take `<file>.lock`,
 * re-read the file under it (what `f` holds may be stale: another process
 * may have written since), apply `change` to those fields, write the checked
 * result atomically, release. Edits of different fields by parallel
 * processes all land.
 * @param f the file as loaded before (its path, and its id, which must not have changed)
 * @param change applied to a copy of the fresh fields
 * @returns the file as written
 * @throws ConflictError when the lock stays held; InvalidFileError when the result would be unreadable (nothing
 * written)
 */
export function rewriteFile<F extends LoadedFile>(schema: EntitySchema, f: F, change: FileChange): F {
  return withLock(
    f.path,
    () => {
      const text = rereadText(f.path, f.file);
      const fm = parseFrontmatterSync(text, f.file);
      if (!fm)
        throw new ConflictError(
          `${f.file} was rewritten meanwhile in a form this command cannot re-read; run it again`
        );
      const v = validate(schema, fm.data, f.file);
      // An edited sealed file is not rewritten (its edit would be sealed as if forge had written it).
      checkSeal(schema, text, v.data, f.file);
      if (v.data.id !== f.data.id) throw new ConflictError(`${f.file} now holds another id; run it again`);
      const data = structuredClone(v.data);
      const r = change(data);
      const body = r && r.body !== undefined ? r.body : fm.body;
      writeChecked(schema, f.path, f.file, { data, extra: v.extra, body, source: text });
      return { ...f, data, extra: v.extra, body, warnings: v.warnings };
    },
    { file: f.file }
  );
}

/**
 * A file already read once through `readStoreFile` (so its path passed the
 * SEC-02 checks), read again under its lock: refused if it became a symlink
 * or grew past the cap.
 */
function rereadText(path: string, file: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new NotFoundError(`${file}: no such file (moved or archived meanwhile)`);
    throw new InvalidFileError(file, code === "ELOOP" ? "is a symlink (rewrite refused)" : `cannot read (${code})`);
  }
  return readOpened(fd, file, MAX_FILE_BYTES).toString("utf8");
}
