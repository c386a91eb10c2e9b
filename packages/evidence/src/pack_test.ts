import test from "ava";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evidenceImportFile, evidenceImportsDir } from "@forge/core";
import { canonicalJson } from "@forge/kernel";
import { exportBundle } from "./envelope.js";
import { importProjectionBatch } from "./import_batch.js";
import { readImportLog, readPackFile } from "./import_log.js";
import { readImportLogCached, readImportLogStamped } from "./import_log_cache.js";
import { packImports } from "./pack.js";
import { readScope } from "./scope.js";
import { transformEnvelopeV3 } from "./transform_v3.js";
import { PRODUCER, sampleBundle, tempStore, trialOf } from "./_fixture.js";

const lane = (b: ReturnType<typeof sampleBundle>) => transformEnvelopeV3(exportBundle(b, PRODUCER));

/** A store of `n` imports (a run each), one written before record_sha256 (its digest taken out). */
function store(n: number) {
  const s = tempStore();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const b = sampleBundle({
      bundle_id: `ci:run${i}`,
      verification: { trials: [trialOf(`run${i}:test`, "c-test", i % 3 ? "pass" : "fail", `run${i}`)], typed_diff: [] },
    });
    ids.push(importProjectionBatch(s, lane(b), { now: () => new Date(Date.UTC(2026, 10, 30, 3, i)) }).batch_id);
  }
  const old = evidenceImportFile(s, ids[0]!);
  const { record_sha256: _d, ...rec } = JSON.parse(readFileSync(old, "utf8")) as Record<string, unknown>;
  writeFileSync(old, canonicalJson(rec) + "\n");
  return { s, ids };
}

/** What a fold reads of the log: every record but the digest (which a pack gives an old record). */
const folded = (recs: ReturnType<typeof readImportLog>) => recs.map(({ record_sha256: _d, ...r }) => r);

test("packImports(): one pack, the same log in the same order, the same fold; the parts removed", (t) => {
  const { s, ids } = store(5);
  const before = readImportLog(s);
  const scope = readScope(s, "default");
  const r = packImports(s);
  t.is(r.packed, 5);
  t.is(r.left, 0);
  t.deepEqual(readdirSync(evidenceImportsDir(s)), [r.pack!.split("/").at(-1)]);
  t.deepEqual(folded(readImportLog(s)), folded(before));
  t.deepEqual(readScope(s, "default"), scope);
  t.deepEqual(
    readImportLogStamped(s).map((l) => l.record.batch_id),
    before.map((x) => x.batch_id)
  );
  t.deepEqual(
    readImportLogCached(s, { write: false }).map((l) => l.record.batch_id),
    before.map((x) => x.batch_id)
  );
  // Idempotency: each batch again is already imported, nothing written.
  for (const [i, id] of ids.entries()) {
    const b = sampleBundle({
      bundle_id: `ci:run${i}`,
      verification: { trials: [trialOf(`run${i}:test`, "c-test", i % 3 ? "pass" : "fail", `run${i}`)], typed_diff: [] },
    });
    const e = importProjectionBatch(s, lane(b));
    t.is(e.batch_id, id);
    t.is(e.status, "already_imported");
  }
  t.is(readdirSync(evidenceImportsDir(s)).length, 1);
  t.deepEqual(packImports(s), { pack: null, packed: 0, left: 0 }, "nothing loose: nothing to pack");
});

test("packImports(): a pack interrupted before it removed its parts reads as the log; a damaged file stays", (t) => {
  const { s, ids } = store(4);
  const before = readImportLog(s);
  const saved = ids.map((id) => [id, readFileSync(evidenceImportFile(s, id))] as const);
  const r = packImports(s);
  for (const [id, b] of saved) writeFileSync(evidenceImportFile(s, id), b);
  t.deepEqual(folded(readImportLog(s)), folded(before), "pack and parts: each batch once");
  t.deepEqual(readImportLogCached(s, { write: false }).length, 4);
  // A damaged part is never packed again: it stays for fsck.
  writeFileSync(evidenceImportFile(s, ids[1]!), "garbage");
  const again = packImports(s);
  t.is(again.left, 1);
  t.is(again.packed, 3);
  t.true(readdirSync(evidenceImportsDir(s)).includes(`${ids[1]}.json`));
  t.is(readPackFile(s, r.pack!.split("/").at(-1)!).records.length, 4);
});

test("readPackFile(): an edit anywhere in a pack is found; readers that ask leave it out and name it", (t) => {
  const { s } = store(3);
  const name = packImports(s).pack!.split("/").at(-1)!;
  const file = join(evidenceImportsDir(s), name);
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replace('"outcome":"pass"', '"outcome":"fail"'));
  t.throws(() => readPackFile(s, name), { message: /field 'pack_sha256': does not match/ });
  t.throws(() => readImportLog(s), { message: /field 'pack_sha256'/ });
  const unreadable: string[] = [];
  t.deepEqual(readImportLogCached(s, { write: false, unreadable }), []);
  t.deepEqual(unreadable, [`import:${name.slice(0, -5)}`]);
});
