/**
 * The store's version marker, `.forge/version`: one line, the number of the
 * store's shape. `forge init` writes it; every command reads it (through
 * `openStore`). A store without it is version 1, the shape from before the
 * marker. Every command reads and writes a store of this version or the
 * one before it (N−1: its files have the same shape; `forge migrate` brings
 * it to N and leaves a one-hop note in `merges/migrations/`); an older or
 * a newer one is refused with a one-line hint.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ForgeError } from "../errors.js";
import { atomicWrite } from "./atomic_write.js";

/** The store version this code reads and writes. */
export const STORE_VERSION = 2;

/** The marker's path inside a `.forge/` folder. */
export function versionFile(dir: string): string {
  return join(dir, "version");
}

/**
 * The version a store declares: its marker's number, 1 when there is none.
 * @param dir the `.forge/` folder
 * @throws ForgeError (E_STORE_VERSION) for a marker that is not one number
 */
export function storeVersion(dir: string): number {
  let text: string;
  try {
    text = readFileSync(versionFile(dir), "latin1");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 1;
    throw new ForgeError(
      `.forge/version: cannot read (${(err as NodeJS.ErrnoException).code ?? "error"})`,
      "E_STORE_VERSION",
      1
    );
  }
  if (!/^[1-9][0-9]{0,5}\n?$/.test(text))
    throw new ForgeError(".forge/version: not a store version (one number expected)", "E_STORE_VERSION", 1);
  return Number(text.trim());
}

/**
 * Refuse a store this code cannot read: older than N−1 → migrate it with an
 * older forge first; newer → upgrade forge. A store of version N−1 is read
 * as it is (its files have the same shape as N's).
 * @returns the store's version (N or N−1)
 * @throws ForgeError (E_STORE_OLD, E_STORE_NEW)
 */
export function checkStoreVersion(dir: string): number {
  const v = storeVersion(dir);
  if (v === STORE_VERSION || v === STORE_VERSION - 1) return v;
  if (v < STORE_VERSION) {
    throw new ForgeError(
      `this store is version ${v}, forge ${STORE_VERSION} reads versions ${STORE_VERSION - 1} and ` +
        `${STORE_VERSION}: migrate it with an older forge first`,
      "E_STORE_OLD",
      1
    );
  }
  throw new ForgeError(
    `this store is version ${v}, newer than this forge reads (${STORE_VERSION}): upgrade forge`,
    "E_STORE_NEW",
    1
  );
}

/** Write the marker (atomically) for the current version. */
export function writeStoreVersion(dir: string): void {
  atomicWrite(versionFile(dir), `${STORE_VERSION}\n`);
}
