import test from "ava";
import { readdirSync, readFileSync } from "node:fs";
import { evidenceImportFile, evidenceImportsDir } from "@forge/core";
import { exportBundle } from "./envelope.js";
import { importForeignRecord, importProjectionBatch } from "./import_batch.js";
import { checkImportRecord, readImportLog } from "./import_log.js";
import { transformEnvelopeV3 } from "./transform_v3.js";
import { NOW, PRODUCER, sampleBundle, tempStore } from "./_fixture.js";

/** A record as a clone's lane wrote it: its bytes, parsed, and its file name. */
function cloneRecord(): { bytes: Buffer; value: Record<string, unknown>; name: string } {
  const there = tempStore();
  const e = importProjectionBatch(there, transformEnvelopeV3(exportBundle(sampleBundle(), PRODUCER)), { now: NOW });
  const bytes = readFileSync(evidenceImportFile(there, e.batch_id));
  return { bytes, value: JSON.parse(bytes.toString("utf8")) as Record<string, unknown>, name: `${e.batch_id}.json` };
}

test("importForeignRecord() writes a clone's record as the lane wrote it, once; again: nothing", (t) => {
  const { bytes, value, name } = cloneRecord();
  const store = tempStore();
  // Indented, as a hand might have left it: written canonically all the same.
  const rec = checkImportRecord(JSON.parse(JSON.stringify(value, null, 2)), `there/evidence/imports/${name}`, name);
  const first = importForeignRecord(store, rec);
  t.is(first.status, "imported");
  t.deepEqual(readFileSync(evidenceImportFile(store, rec.batch_id)), bytes);
  t.deepEqual(
    readImportLog(store).map((r) => r.batch_id),
    [rec.batch_id]
  );
  const again = importForeignRecord(store, rec);
  t.is(again.status, "already_imported");
  t.is(again.imported_at, first.imported_at);
  t.deepEqual(readdirSync(evidenceImportsDir(store)), [name]);
});

test("checkImportRecord() refuses what the lane would not have written, naming the file and the field", (t) => {
  const { value, name } = cloneRecord();
  const file = `there/evidence/imports/${name}`;
  const bad = (change: (v: Record<string, unknown>) => void): string => {
    const v = structuredClone(value);
    change(v);
    return t.throws(() => checkImportRecord(v, file, name))!.message;
  };
  t.is(
    bad((v) => (v.schema_version = "x")),
    `${file}: field 'schema_version': expected forge-evidence-import/v1`
  );
  t.is(
    bad((v) => (v.trial_episodes = "maybe")),
    `${file}: field 'trial_episodes': expected derived|stored`
  );
  t.is(
    bad((v) => (v.imported_at = "yesterday")),
    `${file}: field 'imported_at': expected an RFC 3339 UTC timestamp`
  );
  t.is(
    bad((v) => (v.trials = 99)),
    `${file}: field 'trials': expected 2: the trials of kernel_payload`
  );
  const batch = (v: Record<string, unknown>): Record<string, unknown> => v.batch as Record<string, unknown>;
  t.is(
    bad((v) => (batch(v).episodes = "none")),
    `${file}: field 'batch.episodes': expected a list`
  );
  t.is(
    bad((v) => {
      const trial = (v.kernel_payload as { trials: Array<{ outcome: string }> }).trials[0]!;
      trial.outcome = trial.outcome === "pass" ? "fail" : "pass";
    }),
    `${file}: field 'record_sha256': does not match the file's bytes (edited after it was written)`
  );
  const other = bad((v) => (batch(v).batch_id = "0".repeat(64)));
  t.is(other, `${file}: field 'batch.batch_id': does not match the record's batch_id`);
  const message = (v: unknown, name: string): string => t.throws(() => checkImportRecord(v, "f", name))!.message;
  t.is(message(value, "other.json"), "f: field 'batch_id': does not match the file name");
  t.is(message({ ...value, batch_id: "b1" }, "b1.json"), "f: field 'batch_id': expected 64 hex");
  t.is(message([], "b1.json"), "f: not a JSON object");
});
