import { mkdirSync, renameSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { ConflictError } from "../errors.js";
import { atomicWrite } from "./atomic_write.js";

/**
 * Create a new entity folder with its files in one step: the files are
 * written into a hidden temp folder beside it, which is then renamed into
 * place. A crash leaves no half-made entity, and an existing folder is never
 * replaced.
 * @param dir the folder to create (must not exist)
 * @param files file name → contents (text or bytes)
 * @throws ConflictError if `dir` already exists
 */
export function createDirAtomic(dir: string, files: Record<string, string | Uint8Array>): void {
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  const tmp = join(parent, `.${basename(dir)}.${randomBytes(4).toString("hex")}.tmp`);
  mkdirSync(tmp);
  for (const [name, text] of Object.entries(files)) atomicWrite(join(tmp, name), text);
  try {
    // rename(2) onto an existing non-empty folder fails (ENOTEMPTY/EEXIST).
    renameSync(tmp, dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTEMPTY" || code === "EEXIST") throw new ConflictError(`${basename(dir)} already exists`);
    throw err;
  }
}
