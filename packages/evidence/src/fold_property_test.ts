/**
 * Property: a generated kernel batch, cut into bundles (some records in two
 * bundles) and imported through the lane in a random order, folds back to
 * a scope whose kernel state assesses byte-identically to the batch itself
 * — whatever the cut, the order, or the restatements.
 */
import test from "ava";
import { assess, canonicalJson, compile, type KernelBatch } from "@forge/kernel";
import { genBatch, int, type Rng, rng, shuffle } from "@forge/kernel/testing";
import { BUNDLE_SCHEMA, type EvidenceBundle } from "./bundle.js";
import { exportBundle } from "./envelope.js";
import { importProjectionBatch } from "./import_batch.js";
import { readImportLog } from "./import_log.js";
import { readScope } from "./scope.js";
import { transformEnvelopeV3 } from "./transform_v3.js";
import { NOW, PRODUCER, tempStore } from "./_fixture.js";

/** Cut `b` into `k` bundles; each record lands in one random bundle, and sometimes in a second one too. */
function cut(r: Rng, b: KernelBatch, k: number): EvidenceBundle[] {
  const parts = Array.from({ length: k }, () => ({
    claims: [] as KernelBatch["claims"],
    trials: [] as KernelBatch["trials"],
    relations: [] as KernelBatch["relations"],
  }));
  const place = <T>(xs: T[], pick: (p: (typeof parts)[number]) => T[]): void => {
    for (const x of xs) {
      pick(parts[int(r, 0, k - 1)]!).push(x);
      if (r() < 0.2) pick(parts[int(r, 0, k - 1)]!).push(x);
    }
  };
  place(b.claims, (p) => p.claims);
  place(b.trials, (p) => p.trials);
  place(b.relations, (p) => p.relations);
  return parts.map((p, i) => ({
    schema_version: BUNDLE_SCHEMA,
    bundle_id: `b${i}`,
    candidate_id: "c",
    eval_id: "e",
    version_id: "v",
    trace_id: `t${i}`,
    attempt_id: null,
    bundle_scope: "prop",
    created_at: "2026-11-30T00:00:00Z",
    claims: dedupe(p.claims),
    relations: dedupe(p.relations),
    verification: { trials: dedupe(p.trials), typed_diff: [] },
    refutation: null,
    claim_strength: "observed",
    known_threats: [],
    promotion_state: null,
    receipts: [],
    supersedes_claim_version_id: null,
    episodes: [],
    aliases: [],
    evidence_refs: [],
  }));
}

function dedupe<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

test("a batch cut into bundles and imported in any order folds to the same kernel assessment (60 seeds)", (t) => {
  for (let seed = 1; seed <= 60; seed++) {
    const r = rng(seed);
    const batch = genBatch(r, { cycleChance: 0.1 });
    const want = canonicalJson(assess(compile(batch)));
    const bundles = shuffle(r, cut(r, batch, int(r, 1, 4)));
    const store = tempStore();
    const records = readImportLog(store);
    for (const b of bundles)
      importProjectionBatch(store, transformEnvelopeV3(exportBundle(b, PRODUCER)), { now: NOW, records });
    const st = readScope(store, "prop");
    t.is(canonicalJson(assess(compile(st.kernel))), want, `seed ${seed}`);
    t.is(st.kernel.trials.length, batch.trials.length, `seed ${seed}: every trial stored once`);
  }
});
