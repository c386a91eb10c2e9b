/**
 * Evidence compaction (spec/evidence.md, "Packs and retention"): the loose
 * import files of the store, packed into one file,
 * `.forge/evidence/imports/pack-<pack_sha256>.json`, that holds each record
 * exactly as its file did (a record of before digests gets its
 * `record_sha256`, which no fold reads). The log read is the same records
 * in the same fold order, so every answer is the same; idempotency holds
 * (a batch in a pack is imported already). The pack is written (atomic,
 * checked by reading it back) before its parts are removed: a pack
 * interrupted between the two leaves both, and readers take each record
 * once. A damaged file is never packed: it stays for fsck to name.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite, displayPath, evidenceImportFile, evidenceImportsDir, type Store } from "@forge/core";
import { cmp } from "@forge/kernel";
import { importIds, type ImportRecord, packableRecord, readPackFile, sealPack, sealRecord } from "./import_log.js";

/** What a pack did. */
export interface PackResult {
  /** The pack written (relative to the repository), or null when fewer than `min` files could be packed. */
  pack: string | null;
  /** The loose import files packed (and removed). */
  packed: number;
  /** Loose files left as they are: damaged ones (fsck names them). */
  left: number;
}

/**
 * Pack the loose imports of the store (or those of `ids`) into one file.
 * @param opts `ids`: only these batches (a pilot run's); `min`: pack only when at least this many (default 2)
 * @throws InvalidFileError when the pack written does not read back as the records packed (nothing removed)
 * @example packImports(store).packed // the loose files now in one pack
 */
export function packImports(store: Store, opts: { ids?: readonly string[]; min?: number } = {}): PackResult {
  const loose = new Set(importIds(store));
  const wanted = opts.ids ? opts.ids.filter((id) => loose.has(id)) : [...loose];
  const records: ImportRecord[] = [];
  let left = 0;
  for (const id of new Set(wanted)) {
    const rec = packableRecord(store, id);
    if (!rec) {
      left++;
      continue;
    }
    if (rec.record_sha256 === undefined) sealRecord(rec);
    records.push(rec);
  }
  if (records.length < (opts.min ?? 2)) return { pack: null, packed: 0, left };
  records.sort((a, b) => cmp(a.imported_at, b.imported_at) || cmp(a.batch_id, b.batch_id));
  const { text, sha } = sealPack(records);
  const name = `pack-${sha}.json`;
  const file = join(evidenceImportsDir(store), name);
  try {
    atomicWrite(file, text, { exclusive: true });
  } catch (err) {
    // The same pack (the same records) is there already.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  // Read back before anything is removed: the pack must give exactly the records packed.
  const back = readPackFile(store, name).records;
  if (back.length !== records.length || back.some((r, i) => r.batch_id !== records[i]!.batch_id))
    throw new Error(`${displayPath(store, file)}: does not read back as the records packed`);
  for (const r of records) rmSync(evidenceImportFile(store, r.batch_id), { force: true });
  return { pack: displayPath(store, file), packed: records.length, left };
}
