import test from "ava";
import { compile, extendCompiled } from "./compile.js";
import { KERNEL_SCHEMA, type KernelBatch, type Trial } from "./model.js";
import { genBatch, int, rng } from "./testing.js";

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);
const only = (trials: unknown[]): KernelBatch => ({ schema_version: KERNEL_SCHEMA, claims: [], trials, relations: [] } as KernelBatch);

test("extendCompiled(compile(batch), new trials) is compile of both, on 200 generated batches, and leaves the batch's compile as it was", (t) => {
  let dangling = 0;
  let gained = 0;
  for (const seed of SEEDS) {
    const r = rng(seed);
    const gen = genBatch(r, { cycleChance: 0.2 });
    // Every tenth batch has no trials (a compile marked thin), every fifteenth no claims.
    const base: KernelBatch = seed % 10 === 0 ? { ...gen, trials: [] } : seed % 15 === 0 ? { ...gen, claims: [], relations: [] } : gen;
    const checks = base.claims.filter((c) => c.kind === "check").map((c) => c.claim_id);
    const derived = base.claims.filter((c) => c.kind !== "check").map((c) => c.claim_id);
    // New trials at the batch's checks, at checks it does not state (dangling), and some at its other claims.
    const delta = genBatch(r, { prefix: "x", existing: { checks, derived }, checks: int(r, 0, 2) });
    const trials = delta.trials.map((x, i): Trial => (i % 4 === 3 && derived.length > 0 ? { ...x, claim_id: derived[int(r, 0, derived.length - 1)]! } : x));
    const before = compile(base);
    const got = extendCompiled(before, only(trials));
    const want = compile({ ...base, trials: [...base.trials, ...trials] });
    t.deepEqual(got, want, `seed ${seed}`);
    t.deepEqual(before, compile(base), `seed ${seed}: the batch's compile is unchanged`);
    dangling += want.markers.filter((m) => m.startsWith("dangling_ref:trial:x")).length;
    gained += before.markers.filter((m) => m.startsWith("missing_semantics:") || m === "thin_payload:no_trials").length - want.markers.filter((m) => m.startsWith("missing_semantics:") || m === "thin_payload:no_trials").length;
  }
  t.true(dangling > 50 && gained > 20, `the generator is too tame: ${dangling} dangling, ${gained} markers cleared`);
});

test("extendCompiled leaves to compile what is not only new, valid trials", (t) => {
  const batch = genBatch(rng(7), { checks: 3, maxTrials: 4 });
  const before = compile(batch);
  const first = batch.trials[0]!;
  const fresh: Trial = { ...first, trial_id: "fresh" };
  t.is(extendCompiled(before, only([])), before, "nothing added: the same graph");
  t.not(extendCompiled(before, only([fresh])), null);
  t.is(extendCompiled(before, only([{ ...first }])), null, "a trial id the batch states");
  t.is(extendCompiled(before, only([fresh, { ...fresh, outcome: "fail" }])), null, "the same id twice");
  t.is(extendCompiled(before, only([{ ...fresh, outcome: "maybe" }])), null, "an invalid trial");
  t.is(extendCompiled(before, { ...only([fresh]), claims: [batch.claims[0]!] }), null, "a claim");
  t.is(extendCompiled(before, { ...only([fresh]), relations: [{ relation_id: "r", kind: "supports", from: "a", to: "b", group: null, recorded_at: first.recorded_at }] }), null, "a relation");
  const lost = compile({ ...batch, trials: [...batch.trials, { ...fresh, trial_id: "lost", claim_id: "nowhere" }] });
  t.is(extendCompiled(lost, only([{ ...fresh, trial_id: "lost" }])), null, "the id of a dangling trial");
  const clash = compile({ ...batch, trials: [...batch.trials, { ...first, outcome: first.outcome === "pass" ? "fail" : "pass" }] });
  t.true(clash.markers.includes(`duplicate_id:trial:${first.trial_id}`));
  t.is(extendCompiled(clash, only([{ ...first, trial_id: first.trial_id }])), null, "the id of trials in conflict");
});
