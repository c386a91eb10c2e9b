import test from "ava";
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, evidenceImportFile, flushCacheWrites } from "@forge/core";
import { exportBundle } from "./envelope.js";
import { importProjectionBatch } from "./import_batch.js";
import { readImportLog } from "./import_log.js";
import {
  type CachedLogOptions,
  digestOf,
  importDigest,
  type LoggedImport,
  readImportLogCached as readCached,
  readImportLogStamped,
  withPayloads,
} from "./import_log_cache.js";
import { transformEnvelopeV3 } from "./transform_v3.js";
import { NOW, PRODUCER, sampleBundle, tempStore, trialOf } from "./_fixture.js";

const lane = (bundle: unknown) => transformEnvelopeV3(exportBundle(bundle, PRODUCER));
/** A read, and the cache write it put off (an executable's exit runs it). */
function readImportLogCached(store: ReturnType<typeof tempStore>, opts: CachedLogOptions): LoggedImport[] {
  const log = readCached(store, opts);
  flushCacheWrites();
  return log;
}
/** Well after every file's mtime: each may be kept. */
const LATER = { write: true, now: Date.now() + 60_000 };
const cachePath = (store: ReturnType<typeof tempStore>) => join(cacheDir(store), "imports.observed");

/** A store with two imports: one with kernel records, one (an act result's) with none. */
function twoImports() {
  const store = tempStore();
  const full = importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  const empty = importProjectionBatch(
    store,
    lane(
      sampleBundle({
        bundle_id: "act:a1",
        claims: [],
        relations: [],
        verification: { trials: [], typed_diff: [] },
        receipts: [],
        aliases: [],
        evidence_refs: [],
        episodes: [
          {
            episode_id: "oracle:a1",
            kind: "oracle",
            claim_id: null,
            outcome: "bound_not_reached",
            recorded_at: "2026-11-30T02:30:00Z",
            detail: {},
          },
        ],
      })
    ),
    { now: () => new Date("2026-11-30T04:00:00Z") }
  );
  return { store, full: full.batch_id, empty: empty.batch_id };
}

const byId = (log: LoggedImport[]) => new Map(log.map((l) => [l.record.batch_id, l]));

test(
  "readImportLogCached: the first read is the log itself; the next leaves out only payloads with records, and " +
    "withPayloads puts them back",
  (t) => {
    const { store, full, empty } = twoImports();
    const log = readImportLog(store);
    const first = readImportLogCached(store, LATER);
    t.deepEqual(
      first.map((l) => l.record),
      log
    );
    t.true(first.every((l) => !l.elided && l.stamp !== null));
    t.regex(readFileSync(cachePath(store), "latin1"), /^forge-imports 1 [0-9a-f]{8}\n\[/);

    const second = byId(readImportLogCached(store, LATER));
    t.true(second.get(full)!.elided);
    t.is(second.get(full)!.record.kernel_payload, null);
    t.deepEqual({ ...second.get(full)!.record, kernel_payload: log[0]!.kernel_payload }, log[0]);
    // An empty payload is kept as it is: it costs nothing, and a reader needs no file for it.
    t.false(second.get(empty)!.elided);
    t.deepEqual(second.get(empty)!.record, log[1]);

    const back = withPayloads(store, [...second.values()], () => true, LATER.now);
    t.deepEqual(
      back.map((l) => l.record),
      log,
      "in fold order, payloads read back"
    );
    t.true(back.every((l) => !l.elided));
    const some = withPayloads(store, [...second.values()], () => false, LATER.now);
    t.true(byId(some).get(full)!.elided, "only what is wanted is read");
  }
);

test(
  "readImportLogCached: a file changed within the racy window is read and not kept; one edited in place is read " +
    "again",
  (t) => {
    const { store, full } = twoImports();
    const file = evidenceImportFile(store, full);
    const racy = readImportLogCached(store, { write: true, now: statSync(file).mtimeMs + 10 });
    t.true(racy.every((l) => l.stamp === null));
    t.throws(() => readFileSync(cachePath(store)), { code: "ENOENT" }, "nothing could vouch: nothing written");

    readImportLogCached(store, LATER);
    t.true(byId(readImportLogCached(store, LATER)).get(full)!.elided);
    // A trial's outcome edited in place: same size, mtime put back to the nanosecond; only ctime tells.
    const st = statSync(file, { bigint: true });
    const text = readFileSync(file, "utf8");
    t.true(text.includes('"outcome":"pass"'));
    writeFileSync(file, text.replace('"outcome":"pass"', '"outcome":"fail"'));
    const ns = st.mtimeNs.toString();
    execFileSync("touch", ["-m", "-d", `@${ns.slice(0, -9)}.${ns.slice(-9)}`, file]);
    t.is(statSync(file, { bigint: true }).mtimeNs, st.mtimeNs);
    // Read from its file (not the cache), and refused there: its digest no longer holds.
    t.throws(() => readImportLogCached(store, LATER), { message: /field 'record_sha256': does not match/ });
    t.throws(() => readImportLog(store), { message: /field 'record_sha256': does not match/ });
    // The degradation law: a reader that asks has it left out and named.
    const unreadable: string[] = [];
    const rest = readImportLogCached(store, { ...LATER, unreadable });
    t.deepEqual(unreadable, [`import:${full}`]);
    t.false(rest.some((l) => l.record.batch_id === full));
  }
);

test(
  "readImportLogCached: a damaged cache is not trusted, and a bad import file is reported even when the cache " +
    "held it",
  (t) => {
    const { store, full } = twoImports();
    readImportLogCached(store, LATER);
    const good = readFileSync(cachePath(store), "utf8");
    for (const bad of [
      good.slice(0, -5),
      good.replace('"batch_id"', '"batch_jd"'),
      good.replace(/^forge-imports 1/, "forge-imports 2"),
    ]) {
      writeFileSync(cachePath(store), bad);
      const log = readImportLogCached(store, { write: false, now: LATER.now });
      t.true(
        log.every((l) => !l.elided),
        "every file read"
      );
      t.deepEqual(
        log.map((l) => l.record),
        readImportLog(store)
      );
    }
    writeFileSync(cachePath(store), good);
    writeFileSync(evidenceImportFile(store, full), "{not json");
    t.throws(() => readImportLogCached(store, LATER), { code: "E_INVALID_FILE", message: /not JSON/ });
  }
);

test("readImportLogCached: an import added by another process is read, and the cache rewritten with it", (t) => {
  const { store } = twoImports();
  readImportLogCached(store, LATER);
  importProjectionBatch(
    store,
    lane(
      sampleBundle({
        bundle_id: "ci:run2",
        verification: { trials: [trialOf("run2:test", "c-test", "pass", "run2")], typed_diff: [] },
      })
    ),
    {
      now: () => new Date("2026-11-30T05:00:00Z"),
    }
  );
  const log = readImportLogCached(store, LATER);
  t.is(log.length, 3);
  t.deepEqual(
    log.map((l) => l.elided),
    [true, false, false]
  );
  t.deepEqual(
    withPayloads(store, log, () => true, LATER.now).map((l) => l.record),
    readImportLog(store)
  );
  t.deepEqual(
    readImportLogCached(store, LATER).map((l) => l.elided),
    [true, false, true]
  );
});

test(
  "readImportLogStamped: the log with each file's stamp, or for a file too recent to vouch for, the sha256 of the " +
    "bytes read",
  (t) => {
    const { store, full, empty } = twoImports();
    const log = readImportLogStamped(store, LATER.now);
    t.deepEqual(
      log.map((l) => l.record),
      readImportLog(store)
    );
    t.true(log.every((l) => l.stamp !== null && l.digest === undefined && !l.elided));
    t.throws(() => readFileSync(cachePath(store)), { code: "ENOENT" }, "no cache written");
    const file = evidenceImportFile(store, full);
    const racy = byId(readImportLogStamped(store, statSync(file).mtimeMs + 10));
    t.is(racy.get(full)!.stamp, null);
    t.is(racy.get(full)!.digest, digestOf(readFileSync(file)));
    t.regex(racy.get(empty)!.digest!, /^sha256:[0-9a-f]{64}$/);
  }
);

test(
  "importDigest: the digest a read took, else the file's bytes while its lstat is the stamp read; nothing once it " +
    "moved",
  (t) => {
    const { store, full } = twoImports();
    const file = evidenceImportFile(store, full);
    const l = byId(readImportLogStamped(store, LATER.now)).get(full)!;
    t.is(importDigest(store, l, LATER.now), digestOf(readFileSync(file)));
    t.is(importDigest(store, { ...l, stamp: null, digest: "sha256:given" }, LATER.now), "sha256:given");
    t.is(importDigest(store, { ...l, stamp: null }, LATER.now), undefined, "no stamp, no digest: nothing can tell");
    // Edited in place (same size, mtime put back): the stamp read no longer holds, so the new bytes say nothing of the
    // old.
    const st = statSync(file, { bigint: true });
    writeFileSync(file, readFileSync(file, "utf8").replace('"outcome":"pass"', '"outcome":"fail"'));
    const ns = st.mtimeNs.toString();
    execFileSync("touch", ["-m", "-d", `@${ns.slice(0, -9)}.${ns.slice(-9)}`, file]);
    t.is(importDigest(store, l, LATER.now), undefined);
  }
);

test(
  "readImportLogCached: a new import or two is read from its file and the cache left as it is, until what it " +
    "lacks is an eighth of it",
  (t) => {
    const store = tempStore();
    const add = (k: number) =>
      importProjectionBatch(
        store,
        lane(
          sampleBundle({
            bundle_id: `ci:r${k}`,
            verification: { trials: [trialOf(`r${k}:test`, "c-test", "pass", `r${k}`)], typed_diff: [] },
          })
        ),
        { now: () => new Date(Date.UTC(2026, 10, 30, 4, 0, k)) }
      ).batch_id;
    for (let k = 0; k < 40; k++) add(k);
    readImportLogCached(store, LATER);
    const kept = readFileSync(cachePath(store), "latin1");
    t.true(kept.length > 8 * 4096, `the cache is ${kept.length} bytes`);
    const one = add(40);
    const log = byId(readImportLogCached(store, LATER));
    t.is(log.size, 41);
    t.false(log.get(one)!.elided, "read from its file");
    t.deepEqual(
      [...log.values()].map((l) => l.record.batch_id).sort(),
      readImportLog(store)
        .map((r) => r.batch_id)
        .sort()
    );
    t.is(readFileSync(cachePath(store), "latin1"), kept, "one small import: not rewritten");
    let k = 41;
    while (readFileSync(cachePath(store), "latin1") === kept && k < 80) {
      add(k++);
      readImportLogCached(store, LATER);
    }
    t.true(k < 80, "rewritten once enough was read from files");
    t.true(k - 40 >= 2, `rewritten after ${k - 40} imports`);
    t.true(byId(readImportLogCached(store, LATER)).get(one)!.stamp !== null);
    t.is(readImportLogCached(store, LATER).filter((l) => !l.elided).length, 0, "every payload kept out again");
  }
);
