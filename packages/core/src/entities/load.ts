import { InvalidFileError } from "../errors.js";
import { formatFrontmatter, parseFrontmatter, parseFrontmatterFast, type Frontmatter } from "../frontmatter/parse.js";
import { atomicWrite } from "../store/atomic_write.js";
import type { EntityRef } from "../store/entities_dir.js";
import { readStoreFile } from "../store/read_file.js";
import { displayPath, entityFile, type KindLayout, type Store } from "../store/store.js";
import { toFrontmatter, validate, type EntitySchema } from "./schema.js";

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
  const fm = await parseFrontmatter(readStoreFile(store, path), file);
  return checked(schema, path, file, fm);
}

/**
 * Read and validate an entity's owning file; its `id` must match its folder.
 * @throws NotFoundError, InvalidFileError
 */
export async function loadEntity(store: Store, kind: KindLayout, schema: EntitySchema, ref: EntityRef): Promise<LoadedEntity> {
  const path = entityPath(store, kind, ref);
  return withRef(await loadFile(store, schema, path), ref);
}

/**
 * The synchronous half of `loadEntity`, for callers that load thousands of
 * files (three awaits per file add up): the entity, or `undefined` when its
 * frontmatter needs the general YAML engine (then call `loadEntity`).
 * @throws NotFoundError, InvalidFileError
 */
export function loadEntityFast(store: Store, kind: KindLayout, schema: EntitySchema, ref: EntityRef): LoadedEntity | undefined {
  const path = entityPath(store, kind, ref);
  const file = displayPath(store, path);
  const fm = parseFrontmatterFast(readStoreFile(store, path), file);
  return fm && withRef(checked(schema, path, file, fm), ref);
}

function entityPath(store: Store, kind: KindLayout, ref: EntityRef): string {
  const path = entityFile(store, kind, ref.id, ref.archived);
  if (ref.escapes) throw new InvalidFileError(displayPath(store, path), "folder is a symlink out of .forge/ (refused)");
  return path;
}

function checked(schema: EntitySchema, path: string, file: string, fm: Frontmatter): LoadedFile {
  const v = validate(schema, fm.data, file);
  return { path, file, data: v.data, extra: v.extra, body: fm.body, warnings: v.warnings };
}

function withRef(f: LoadedFile, ref: EntityRef): LoadedEntity {
  if (f.data.id !== ref.id) throw new InvalidFileError(f.file, "does not match its folder name", "id");
  // Spelled out: an object spread is slow in code that has not warmed up yet (list runs this 10,000 times).
  return { path: f.path, file: f.file, data: f.data, extra: f.extra, body: f.body, warnings: f.warnings, ref };
}

/**
 * Write a store file back: known fields in schema order, unknown fields
 * after them, atomically.
 */
export function saveFile(schema: EntitySchema, path: string, data: Record<string, unknown>, extra: Record<string, unknown>, body: string): void {
  atomicWrite(path, formatFrontmatter(toFrontmatter(schema, data, extra), body));
}
