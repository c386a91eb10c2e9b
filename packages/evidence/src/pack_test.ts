import test from "ava";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evidenceImportFile, evidenceImportsDir } from "@forge/core";
import { canonicalJson } from "@forge/kernel";
import { exportBundle } from "./envelope.js";
import { importProjectionBatch } from "./import_batch.js";
import { batchesHere, packedBatchIds, readImportLog, readPackFile } from "./import_log.js";
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

test("batchesHere(): a damaged pack here is named, and what it may hold is neither new nor known", (t) => {
  const { s, ids } = store(4);
  const other = "f".repeat(64);
  const name = packImports(s, { ids: ids.slice(0, 3) })
    .pack!.split("/")
    .at(-1)!;
  const shown = `.forge/evidence/imports/${name}`;
  // Intact: packed and loose batches are here, another is new.
  t.deepEqual(batchesHere(s, [ids[0]!, ids[3]!, other]), {
    states: [{ state: "here" }, { state: "here" }, { state: "new" }],
    damaged: [],
  });
  // An edit (still JSON): the pack is named; its batches are not taken as here, nor as new, nor is one it never held.
  const file = join(evidenceImportsDir(s), name);
  writeFileSync(file, readFileSync(file, "utf8").replace('"outcome":"pass"', '"outcome":"fail"'));
  const r = batchesHere(s, [ids[0]!, ids[3]!, other]);
  const maybe = { state: "unknown", why: `a damaged pack here may hold it: ${shown}` };
  t.deepEqual(r.states, [maybe, { state: "here" }, maybe]);
  t.is(r.damaged.length, 1);
  t.regex(r.damaged[0]!, new RegExp(`^${shown.replace(/\./g, "\\.")}: field 'pack_sha256': does not match`));
  // packedBatchIds: never silent: it throws, or names the pack when asked to read on.
  t.throws(() => packedBatchIds(s), { message: /field 'pack_sha256'/ });
  const bad: Array<{ file: string; line: string }> = [];
  t.deepEqual([...packedBatchIds(s, bad)], []);
  t.deepEqual(
    bad.map((b) => b.file),
    [shown]
  );
});

test("batchesHere(): a damaged loose file is named and its batch unknown; an old record (no digest) is here", (t) => {
  const { s, ids } = store(3);
  const loose = `.forge/evidence/imports/${ids[1]}.json`;
  const file = evidenceImportFile(s, ids[1]!);
  writeFileSync(file, readFileSync(file, "utf8").replace('"outcome":"pass"', '"outcome":"fail"'));
  const r = batchesHere(s, [ids[0]!, ids[1]!, ids[2]!]);
  t.deepEqual(r.states, [
    { state: "here" },
    { state: "unknown", why: `its file here is damaged: ${loose}` },
    { state: "here" },
  ]);
  t.deepEqual(r.damaged, [
    `${loose}: field 'record_sha256': does not match the file's bytes (edited after it was written)`,
  ]);
});
