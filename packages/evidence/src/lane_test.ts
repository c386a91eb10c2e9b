import test from "ava";
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evidenceImportsDir } from "@forge/core";
import { assess, compile, KERNEL_SCHEMA } from "@forge/kernel";
import { BATCH_SCHEMA, sealBatch } from "./batch.js";
import { exportBundle } from "./envelope.js";
import { foldCompiled, importProjectionBatch, primeFold } from "./import_batch.js";
import {
  claimVersions,
  compileScope,
  episodes,
  evidenceRefs,
  latestImport,
  listImports,
  relationVersions,
  scopeHealth,
} from "./queries.js";
import { readScope } from "./scope.js";
import { readImportLog } from "./import_log.js";
import { transformEnvelopeV3 } from "./transform_v3.js";
import { claimV, NOW, PRODUCER, sampleBundle, supportsRel, tempStore, trialOf } from "./_fixture.js";

const lane = (bundle: unknown) => transformEnvelopeV3(exportBundle(bundle, PRODUCER));

test("the lane round-trips a bundle's claims, trials and relations through the public queries", (t) => {
  const store = tempStore();
  const b = sampleBundle();
  const e = importProjectionBatch(store, lane(b), { now: NOW });
  t.is(e.status, "imported");
  t.false(e.degraded);
  t.deepEqual(e.markers, []);
  t.is(e.file, `.forge/evidence/imports/${e.batch_id}.json`);
  t.deepEqual(e.counts, {
    claim_versions: 3,
    relation_versions: 2,
    episodes: 2,
    aliases: 1,
    evidence_refs: 2,
    trials: 2,
  });
  t.deepEqual(
    claimVersions(store, "default").map((c) => [c.claim_id, c.kind, c.strength]),
    [
      ["c-lint", "check", "observed"],
      ["c-test", "check", "observed"],
      ["fix", "fixes", "observed"],
    ]
  );
  t.deepEqual(
    relationVersions(store, "default").map((r) => [r.from, r.to, r.group]),
    [
      ["c-lint", "fix", "g"],
      ["c-test", "fix", "g"],
    ]
  );
  t.deepEqual(
    episodes(store, "default").map((x) => [x.episode_id, x.outcome]),
    [
      ["trial:run1:lint", "fail"],
      ["trial:run1:test", "pass"],
    ]
  );
  t.deepEqual(
    evidenceRefs(store, "default").map((r) => r.kind),
    ["ci-run", "receipt"]
  );
  const k = compileScope(readScope(store, "default"));
  t.deepEqual(
    k.nodes.map((n) => [n.id, n.trials.map((x) => x.trial_id)]),
    [
      ["c-lint", ["run1:lint"]],
      ["c-test", ["run1:test"]],
      ["fix", []],
    ]
  );
  t.deepEqual(
    k.index.get("fix")!.terms.map((x) => [x.id, x.members.map((m) => m.from)]),
    [["group:g", ["c-lint", "c-test"]]]
  );
  t.deepEqual(latestImport(store, "default")?.batch_id, e.batch_id);
  t.is(latestImport(store, "other"), null);
});

test("importing the same bundle twice writes one file and says so", (t) => {
  const store = tempStore();
  const a = importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  const b = importProjectionBatch(store, lane(sampleBundle()), { now: () => new Date("2026-12-01T00:00:00Z") });
  t.is(b.status, "already_imported");
  t.is(b.batch_id, a.batch_id);
  t.is(b.imported_at, a.imported_at);
  t.is(readdirSync(evidenceImportsDir(store)).length, 1);
});

test("the same bundle content in another order gives the same batch id", (t) => {
  const b = sampleBundle();
  const r = sampleBundle({
    claims: [...b.claims].reverse(),
    relations: [...b.relations].reverse(),
    verification: { trials: [...b.verification!.trials].reverse(), typed_diff: [] },
  });
  t.is(lane(r).batch_id, lane(b).batch_id);
  t.is(lane(r).kernel_payload_json, lane(b).kernel_payload_json);
});

test("an import holds only what it adds; the scope is the fold of its imports", (t) => {
  const store = tempStore();
  importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  const second = sampleBundle({
    bundle_id: "ci:run2",
    trace_id: "run2",
    attempt_id: "run2",
    verification: {
      trials: [trialOf("run2:test", "c-test", "pass", "run2"), trialOf("run2:lint", "c-lint", "fail", "run2")],
      typed_diff: [],
    },
  });
  const e = importProjectionBatch(store, lane(second), { now: NOW });
  t.is(e.counts.claim_versions, 0, "the claims were already there");
  t.is(e.counts.relation_versions, 0);
  t.is(e.counts.trials, 2);
  const st = readScope(store, "default");
  t.is(st.imports.length, 2);
  t.is(st.kernel.trials.length, 4);
  t.is(st.claim_versions.length, 3);
  const a = assess(compile(st.kernel));
  t.deepEqual(
    a.syndromes.map((s) => [s.trials, s.claims]),
    [[2, ["c-lint"]]]
  );
});

test("a bundle with promotion_state set, or an altered envelope, never enters the lane", (t) => {
  t.throws(() => exportBundle({ ...sampleBundle(), promotion_state: "promoted" }, PRODUCER), {
    message: /promotion_state/,
  });
  const env = exportBundle(sampleBundle(), PRODUCER);
  env.bundle.claims[0]!.statement = "tampered";
  t.throws(() => transformEnvelopeV3(env), { message: /content_sha256/ });
});

test("an invalid bundle is refused naming the field", (t) => {
  const bad = sampleBundle();
  (bad.verification!.trials[0] as { outcome: string }).outcome = "maybe";
  t.throws(() => exportBundle(bad, PRODUCER), {
    message: "invalid bundle: field 'verification.trials[0].outcome': missing or invalid",
  });
});

// --- degradation ---

function rawBatch(over: Record<string, unknown>) {
  return sealBatch({
    schema_version: BATCH_SCHEMA,
    scope: "default",
    recorded_at: "2026-11-30T02:00:00Z",
    source: {
      bundle_id: "b",
      candidate_id: "c",
      eval_id: "e",
      version_id: "v",
      trace_id: "t",
      attempt_id: null,
      claim_strength: "observed",
      known_threats: [],
      promotion_state: null,
      supersedes_claim_version_id: null,
      producer: PRODUCER,
    },
    claim_versions: [],
    relation_versions: [],
    episodes: [],
    aliases: [],
    evidence_refs: [],
    kernel_payload_json: null,
    ...over,
  } as Parameters<typeof sealBatch>[0]);
}

const cv = (id: string, kind = "check") => ({ ...claimV(id, kind), strength: "observed", bundle_id: "b" });

test("a batch with no kernel payload imports as degraded and adds no nodes", (t) => {
  const store = tempStore();
  const e = importProjectionBatch(store, rawBatch({ claim_versions: [cv("a")] }), { now: NOW });
  t.true(e.degraded);
  t.deepEqual(e.markers, ["missing_kernel_payload"]);
  const st = readScope(store, "default");
  t.is(st.claim_versions.length, 1, "the projection row is what the batch stated");
  t.is(compileScope(st).nodes.length, 0, "no node is invented from projection rows");
  t.is(scopeHealth(st).degradation_count, 2, "missing_kernel_payload, and the kernel's thin_payload:no_claims");
});

test("a batch with a malformed kernel payload imports as degraded and contributes nothing to the kernel", (t) => {
  for (const bad of [
    "{not json",
    JSON.stringify({ schema_version: "other", claims: [] }),
    JSON.stringify({ schema_version: KERNEL_SCHEMA, claims: "x" }),
  ]) {
    const store = tempStore();
    const e = importProjectionBatch(store, rawBatch({ claim_versions: [cv("a")], kernel_payload_json: bad }), {
      now: NOW,
    });
    t.deepEqual(e.markers, ["malformed_kernel_payload"], bad);
    t.is(compileScope(readScope(store, "default")).nodes.length, 0);
  }
});

test("a batch with a dangling relation imports as degraded, naming it, with no invented node or group", (t) => {
  const store = tempStore();
  const payload = {
    schema_version: KERNEL_SCHEMA,
    claims: [claimV("a"), claimV("fix", "fixes")],
    trials: [trialOf("t1", "a", "pass")],
    relations: [supportsRel("a", "fix", "g"), supportsRel("ghost", "fix", "g")],
  };
  const e = importProjectionBatch(
    store,
    rawBatch({
      claim_versions: [cv("a"), cv("fix", "fixes")],
      relation_versions: payload.relations,
      kernel_payload_json: JSON.stringify(payload),
    }),
    { now: NOW }
  );
  t.true(e.degraded);
  t.deepEqual(e.markers, ["dangling_ref:relation:ghost>fix", "dangling_ref:relation_version:ghost>fix"]);
  const k = compileScope(readScope(store, "default"));
  t.false(k.index.has("ghost"));
  t.deepEqual(
    k.index.get("fix")!.terms.map((x) => x.members.map((m) => m.from)),
    [["a"]],
    "the group holds only what was stated and resolves"
  );
});

test("a relation to a claim from an earlier import of the scope is not dangling", (t) => {
  const store = tempStore();
  importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  const later = sampleBundle({
    bundle_id: "later",
    claims: [claimV("fix2", "criterion")],
    relations: [supportsRel("c-test", "fix2")],
    verification: { trials: [], typed_diff: [] },
  });
  const e = importProjectionBatch(store, lane(later), { now: NOW });
  t.deepEqual(e.markers, []);
});

test("a batch whose id is not its content hash is refused and nothing is written", (t) => {
  const store = tempStore();
  const b = { ...rawBatch({}), scope: "changed" };
  t.throws(() => importProjectionBatch(store, b, { now: NOW }), { message: /batch_id/ });
  t.deepEqual(listImports(store), []);
});

test("a corrupt import file is an error naming the file, never skipped", (t) => {
  const store = tempStore();
  const e = importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  writeFileSync(`${store.root}/${e.file}`, "{");
  t.throws(() => listImports(store), { message: `${e.file}: not JSON` });
  rmSync(`${store.root}/${e.file}`);
  t.deepEqual(listImports(store), []);
});

test("scopeHealth() counts claim versions, episodes, fragile nodes and syndromes", (t) => {
  const store = tempStore();
  importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  const h = scopeHealth(readScope(store, "default"));
  t.deepEqual(h, {
    total_claim_versions: 3,
    total_relation_versions: 2,
    total_episodes: 2,
    fragile_node_count: 3,
    syndrome_count: 0,
    degradation_count: 0,
    unverified_claim_count: 0,
    supersession_candidate_count: 0,
    last_import_at: "2026-11-30T03:00:00Z",
  });
});

test("an advisory bundle adds no kernel content", (t) => {
  const store = tempStore();
  const e = importProjectionBatch(store, lane(sampleBundle({ claim_strength: "advisory" })), { now: NOW });
  t.is(e.counts.trials, 0);
  t.is(compileScope(readScope(store, "default")).nodes.length, 0);
});

test("trial episodes are stored once (derived from the stored trials) and read back exactly", (t) => {
  const store = tempStore();
  const batch = lane(sampleBundle());
  const e = importProjectionBatch(store, batch, { now: NOW });
  const file = JSON.parse(readFileSync(`${store.root}/${e.file}`, "utf8")) as {
    trial_episodes: string;
    batch: { episodes: unknown[]; kernel_payload_json: unknown };
  };
  t.is(file.trial_episodes, "derived");
  t.deepEqual(file.batch.episodes, []);
  t.is(file.batch.kernel_payload_json, null, "the payload is stored parsed, once");
  t.deepEqual(episodes(store, "default"), batch.episodes);
  t.is(latestImport(store, "default")!.kernel_payload_json, batch.kernel_payload_json);
});

test("a batch with trials but no trial episodes gets none invented", (t) => {
  const store = tempStore();
  const payload = {
    schema_version: KERNEL_SCHEMA,
    claims: [claimV("a")],
    trials: [trialOf("t1", "a", "pass")],
    relations: [],
  };
  importProjectionBatch(store, rawBatch({ claim_versions: [cv("a")], kernel_payload_json: JSON.stringify(payload) }), {
    now: NOW,
  });
  t.deepEqual(episodes(store, "default"), []);
  t.is(readScope(store, "default").kernel.trials.length, 1);
});

test("readScope() with episodes: false skips them but still counts them", (t) => {
  const store = tempStore();
  importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  const st = readScope(store, "default", { episodes: false });
  t.deepEqual(st.episodes, []);
  t.is(st.episode_count, 2);
  t.is(scopeHealth(st).total_episodes, 2);
});

test(
  "importProjectionBatch() with the caller's log imports " + "many batches without re-reading it, and keeps it current",
  (t) => {
    const store = tempStore();
    const records = readImportLog(store);
    const a = importProjectionBatch(store, lane(sampleBundle()), { now: NOW, records });
    const b = importProjectionBatch(
      store,
      lane(
        sampleBundle({
          bundle_id: "two",
          verification: { trials: [trialOf("run2:x", "c-test", "pass", "run2")], typed_diff: [] },
        })
      ),
      { now: NOW, records }
    );
    t.deepEqual(
      records.map((r) => r.batch_id),
      readImportLog(store).map((r) => r.batch_id)
    );
    t.is(importProjectionBatch(store, lane(sampleBundle()), { now: NOW, records }).status, "already_imported");
    t.not(a.batch_id, b.batch_id);
    t.is(b.counts.claim_versions, 0, "the in-memory log knew the claims were there");
  }
);

test(
  "importProjectionBatch() refuses an evidence folder that is a symlink out of the store (SEC-02) and writes " +
    "nothing",
  (t) => {
    const store = tempStore();
    const outside = tempStore().dir;
    symlinkSync(outside, join(store.dir, "evidence"));
    t.throws(() => importProjectionBatch(store, lane(sampleBundle()), { now: NOW }), { message: /evidence/ });
    t.deepEqual(readdirSync(outside), []);
  }
);

test(
  "imports made apart (two clones) that restate one claim " +
    "fold to one row per claim version and no kernel conflict",
  (t) => {
    const one = tempStore();
    const two = tempStore();
    importProjectionBatch(one, lane(sampleBundle()), { now: NOW });
    const later = sampleBundle({
      bundle_id: "ci:run2",
      created_at: "2026-11-30T02:30:00Z",
      claims: sampleBundle().claims.map((c) => ({ ...c, recorded_at: "2026-11-30T02:30:00Z" })),
      verification: { trials: [trialOf("run2:test", "c-test", "pass", "run2")], typed_diff: [] },
    });
    importProjectionBatch(two, lane(later), { now: () => new Date("2026-11-30T03:30:00Z") });
    for (const f of readdirSync(evidenceImportsDir(two)))
      writeFileSync(join(evidenceImportsDir(one), f), readFileSync(join(evidenceImportsDir(two), f)));
    const st = readScope(one, "default");
    t.is(st.claim_versions.length, 3);
    t.is(
      st.claim_versions.find((c) => c.claim_id === "c-test")!.recorded_at,
      "2026-11-30T02:00:00Z",
      "the first statement in fold order"
    );
    t.is(st.relation_versions.length, 2);
    const k = compileScope(st);
    t.deepEqual(k.markers, []);
    t.is(k.index.get("c-test")!.trials.length, 2);
  }
);

test("importProjectionBatch() with a stale log returns the import another process wrote, not one of its own", (t) => {
  const store = tempStore();
  const stale = readImportLog(store);
  const first = importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  const again = importProjectionBatch(store, lane(sampleBundle()), {
    now: () => new Date("2026-12-01T00:00:00Z"),
    records: stale,
  });
  t.is(again.status, "already_imported");
  t.is(again.imported_at, first.imported_at);
  t.deepEqual(readdirSync(evidenceImportsDir(store)), [`${first.batch_id}.json`]);
});

test("readImportLog() refuses an import file that is a symlink out of the store (SEC-02), naming it", (t) => {
  const store = tempStore();
  const e = importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
  const outside = join(tempStore().dir, "x.json");
  writeFileSync(outside, readFileSync(`${store.root}/${e.file}`));
  rmSync(`${store.root}/${e.file}`);
  symlinkSync(outside, `${store.root}/${e.file}`);
  t.throws(() => readImportLog(store), { message: `${e.file}: symlink points outside .forge/ (refused)` });
});

test(
  "exportBundle() and importProjectionBatch() refuse a " + "timestamp that names no real instant, and a bad scope",
  (t) => {
    t.throws(() => exportBundle(sampleBundle({ created_at: "2026-02-30T00:00:00Z" }), PRODUCER), {
      message: "invalid bundle: field 'created_at': expected an RFC 3339 UTC timestamp",
    });
    t.throws(() => exportBundle(sampleBundle({ bundle_scope: "no spaces" }), PRODUCER), {
      message: /field 'bundle_scope'/,
    });
    const b = lane(sampleBundle());
    t.throws(
      () => importProjectionBatch(tempStore(), sealBatch({ ...b, recorded_at: "2026-11-31T00:00:00Z" }), { now: NOW }),
      { message: /field 'recorded_at'/ }
    );
  }
);

test("importProjectionBatch() with the caller's log marks each import exactly as with the log read afresh", (t) => {
  const trials = (xs: ReturnType<typeof trialOf>[]) => ({ trials: xs, typed_diff: [] });
  const batches = [
    lane(sampleBundle({ bundle_id: "claims-only", verification: trials([]) })),
    lane(
      sampleBundle({
        bundle_id: "ghost",
        relations: [supportsRel("ghost", "fix")],
        verification: trials([trialOf("r2:test", "c-test", "pass", "r2")]),
      })
    ),
    lane(sampleBundle({ bundle_id: "elsewhere", bundle_scope: "other" })),
    rawBatch({ kernel_payload_json: null }),
    lane(sampleBundle({ bundle_id: "more", verification: trials([trialOf("r4:test", "c-test", "pass", "r4")]) })),
    lane(
      sampleBundle({
        bundle_id: "ghost-stated",
        claims: [claimV("ghost")],
        relations: [],
        verification: trials([trialOf("r3:ghost", "ghost", "fail", "r3")]),
      })
    ),
    lane(sampleBundle()),
  ];
  const cached = tempStore();
  const fresh = tempStore();
  const records = readImportLog(cached);
  const clock = (i: number) => () => new Date(Date.UTC(2026, 10, 30, 3, i));
  const a = batches.map((b, i) => importProjectionBatch(cached, b, { now: clock(i), records }));
  const b = batches.map((x, i) => importProjectionBatch(fresh, x, { now: clock(i) }));
  t.deepEqual(
    a.map((e) => e.markers),
    b.map((e) => e.markers)
  );
  t.deepEqual(
    a.map((e) => e.markers.filter((m) => m.startsWith("dangling_ref:relation:") || m.startsWith("thin_payload:"))),
    [["thin_payload:no_trials"], ["dangling_ref:relation:ghost>fix"], [], [], [], [], []],
    "a marker the scope already has is not brought again by a later import"
  );
});

test(
  "primeFold: an import starts from the caller's compile of the fold, and foldCompiled gives the fold it compiled " +
    "while that is the log's",
  (t) => {
    const store = tempStore();
    importProjectionBatch(store, lane(sampleBundle()), { now: NOW });
    // A trial of a claim no import states: the kernel marks it dangling, a marker the import brings.
    const dangling = (id: string) =>
      lane(
        sampleBundle({
          bundle_id: `ci:${id}`,
          claims: [],
          relations: [],
          aliases: [],
          evidence_refs: [],
          verification: { trials: [trialOf(`${id}:x`, "c-nowhere", "pass", id)], typed_diff: [] },
        })
      );
    const imported = (records: ReturnType<typeof readImportLog>, id: string, at: string) =>
      importProjectionBatch(store, dangling(id), { now: () => new Date(at), records });

    const plain = readImportLog(store);
    t.is(foldCompiled(plain, "default"), null, "nothing imported with this log yet");
    const before = compile(readScope(store, "default", { records: plain }).kernel);
    primeFold(plain, "default", before);
    t.is(foldCompiled(plain, "default"), before);
    const e = imported(plain, "run2", "2026-11-30T04:00:00Z");
    t.deepEqual(e.markers, ["dangling_ref:trial:run2:x"]);
    // The compile it made is the fold's: the log's records folded and compiled anew give the same graph.
    const fold = readScope(store, "default", { records: plain }).kernel;
    t.deepEqual(foldCompiled(plain, "default"), compile(fold));
    t.is(foldCompiled(plain, "other"), null);
    t.is(foldCompiled(plain, "default", { min_trials: 9 }), null, "another configuration");

    // Primed with a compile that says the trial's marker was there before: it is not new, so the import does not bring
    // it.
    const lied = readImportLog(store);
    const real = compile(readScope(store, "default", { records: lied }).kernel);
    primeFold(lied, "default", { ...real, markers: [...real.markers, "dangling_ref:trial:run3:x"] });
    t.deepEqual(imported(lied, "run3", "2026-11-30T05:00:00Z").markers, [], "the primed compile was used");
    // An import that sorts before the last ones (an earlier time): its payload is folded in the middle, compiled the
    // same.
    const late = readImportLog(store);
    imported(late, "run0", "2026-11-30T03:30:00Z");
    t.deepEqual(
      late.map((r) => r.imported_at),
      ["2026-11-30T03:00:00Z", "2026-11-30T03:30:00Z", "2026-11-30T04:00:00Z", "2026-11-30T05:00:00Z"]
    );
    t.deepEqual(foldCompiled(late, "default"), compile(readScope(store, "default", { records: late }).kernel));
    // One that adds no kernel record keeps it; one into another scope does not.
    importProjectionBatch(
      store,
      lane(
        sampleBundle({
          bundle_id: "act:a9",
          claims: [],
          relations: [],
          aliases: [],
          evidence_refs: [],
          verification: { trials: [], typed_diff: [] },
        })
      ),
      {
        now: () => new Date("2026-11-30T06:00:00Z"),
        records: late,
      }
    );
    t.deepEqual(foldCompiled(late, "default"), compile(readScope(store, "default", { records: late }).kernel));
    importProjectionBatch(store, lane(sampleBundle({ bundle_id: "ci:elsewhere", bundle_scope: "other" })), {
      now: () => new Date("2026-11-30T07:00:00Z"),
      records: late,
    });
    t.is(foldCompiled(late, "default"), null);
  }
);

test(
  "primeFold with the fold's kernel records: an import keeps of its payload exactly what one without the caller's " +
    "log keeps (a restated trial, claim or relation left out; the same id with other content kept)",
  (t) => {
    // Two stores with one history; the same imports, one store through a primed log, the other with none.
    const stores = [tempStore(), tempStore()];
    for (const s of stores) importProjectionBatch(s, lane(sampleBundle()), { now: NOW });
    const records = readImportLog(stores[0]!);
    const state = readScope(stores[0]!, "default", { records, episodes: false });
    primeFold(records, "default", compile(state.kernel), undefined, state.kernel);
    const restating = (id: string, trials: ReturnType<typeof trialOf>[]) =>
      lane(sampleBundle({ bundle_id: `ci:${id}`, verification: { trials, typed_diff: [] } }));
    const again = trialOf("run1:test", "c-test", "pass");
    const changed = { ...trialOf("run1:lint", "c-lint", "fail"), duration_ms: 99 };
    const batches = [
      restating("r2", [again, changed, trialOf("run2:test", "c-test", "pass", "run2")]),
      restating("r3", [trialOf("run2:test", "c-test", "pass", "run2"), trialOf("run3:test", "c-test", "fail", "run3")]),
    ];
    batches.forEach((b, i) => {
      const at = () => new Date(`2026-11-30T0${4 + i}:00:00Z`);
      const primed = importProjectionBatch(stores[0]!, b, { now: at, records });
      const plain = importProjectionBatch(stores[1]!, b, { now: at });
      const file = (s: (typeof stores)[number], id: string) =>
        readFileSync(join(evidenceImportsDir(s), `${id}.json`), "utf8");
      t.is(file(stores[0]!, primed.batch_id), file(stores[1]!, plain.batch_id), `import ${i}: the same record`);
    });
    const kept = (id: string) =>
      (
        JSON.parse(readFileSync(join(evidenceImportsDir(stores[0]!), `${id}.json`), "utf8")) as {
          kernel_payload: { claims: unknown[]; trials: Array<{ trial_id: string }>; relations: unknown[] };
        }
      ).kernel_payload;
    const first = kept(importProjectionBatch(stores[0]!, batches[0]!, { records }).batch_id);
    t.deepEqual(
      first.trials.map((x) => x.trial_id),
      ["run1:lint", "run2:test"],
      "the restated trial is left out, the one with other content kept"
    );
    t.deepEqual([first.claims, first.relations], [[], []], "claims and relations restated");
    t.deepEqual(
      kept(importProjectionBatch(stores[0]!, batches[1]!, { records }).batch_id).trials.map((x) => x.trial_id),
      ["run3:test"],
      "a trial the last import brought is known to the next"
    );
  }
);
