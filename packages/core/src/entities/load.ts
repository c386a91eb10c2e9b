import { InvalidFileError } from "../errors.js";
import { formatFrontmatter, parseFrontmatter } from "../frontmatter/parse.js";
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
  const v = validate(schema, fm.data, file);
  return { path, file, data: v.data, extra: v.extra, body: fm.body, warnings: v.warnings };
}

/**
 * Read and validate an entity's owning file; its `id` must match its folder.
 * @throws NotFoundError, InvalidFileError
 */
export async function loadEntity(store: Store, kind: KindLayout, schema: EntitySchema, ref: EntityRef): Promise<LoadedEntity> {
  const path = entityFile(store, kind, ref.id, ref.archived);
  if (ref.escapes) throw new InvalidFileError(displayPath(store, path), "folder is a symlink out of .forge/ (refused)");
  const f = await loadFile(store, schema, path);
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
