import test from "ava";
import { trialStats } from "./beliefs.js";
import { compile, extendCompiled } from "./compile.js";
import { KERNEL_SCHEMA, type KernelBatch, type Trial } from "./model.js";
import { genBatch, int, rng } from "./testing.js";

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);
const only = (trials: unknown[]): KernelBatch =>
  ({ schema_version: KERNEL_SCHEMA, claims: [], trials, relations: [] }) as KernelBatch;

test(
  "extendCompiled(compile(batch), new trials) is compile of both, on 200 generated batches, and leaves the " +
    "batch's compile as it was",
  (t) => {
    let dangling = 0;
    let gained = 0;
    for (const seed of SEEDS) {
      const r = rng(seed);
      const gen = genBatch(r, { cycleChance: 0.2 });
      // Every tenth batch has no trials (a compile marked thin), every fifteenth no claims.
      const base: KernelBatch =
        seed % 10 === 0 ? { ...gen, trials: [] } : seed % 15 === 0 ? { ...gen, claims: [], relations: [] } : gen;
      const checks = base.claims.filter((c) => c.kind === "check").map((c) => c.claim_id);
      const derived = base.claims.filter((c) => c.kind !== "check").map((c) => c.claim_id);
      // New trials at the batch's checks, at checks it does not state (dangling), and some at its other claims.
      const delta = genBatch(r, { prefix: "x", existing: { checks, derived }, checks: int(r, 0, 2) });
      const trials = delta.trials.map((x, i): Trial =>
        i % 4 === 3 && derived.length > 0 ? { ...x, claim_id: derived[int(r, 0, derived.length - 1)]! } : x
      );
      const before = compile(base);
      const got = extendCompiled(before, only(trials));
      const want = compile({ ...base, trials: [...base.trials, ...trials] });
      t.deepEqual(got, want, `seed ${seed}`);
      t.deepEqual(before, compile(base), `seed ${seed}: the batch's compile is unchanged`);
      dangling += want.markers.filter((m) => m.startsWith("dangling_ref:trial:x")).length;
      gained +=
        before.markers.filter((m) => m.startsWith("missing_semantics:") || m === "thin_payload:no_trials").length -
        want.markers.filter((m) => m.startsWith("missing_semantics:") || m === "thin_payload:no_trials").length;
    }
    t.true(dangling > 50 && gained > 20, `the generator is too tame: ${dangling} dangling, ${gained} markers cleared`);
  }
);

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
  t.is(
    extendCompiled(before, {
      ...only([fresh]),
      relations: [
        { relation_id: "r", kind: "supports", from: "a", to: "b", group: null, recorded_at: first.recorded_at },
      ],
    }),
    null,
    "a relation"
  );
  const lost = compile({ ...batch, trials: [...batch.trials, { ...fresh, trial_id: "lost", claim_id: "nowhere" }] });
  t.is(extendCompiled(lost, only([{ ...fresh, trial_id: "lost" }])), null, "the id of a dangling trial");
  const clash = compile({
    ...batch,
    trials: [...batch.trials, { ...first, outcome: first.outcome === "pass" ? "fail" : "pass" }],
  });
  t.true(clash.markers.includes(`duplicate_id:trial:${first.trial_id}`));
  t.is(extendCompiled(clash, only([{ ...first, trial_id: first.trial_id }])), null, "the id of trials in conflict");
});

test(
  "trialStats counts a node as its own graph classes its trials: a node two graphs share (extendCompiled's) is " +
    "counted for each, and a count given out can be changed",
  (t) => {
    const check = (id: string) => ({
      claim_id: id,
      claim_version_id: `${id}@1`,
      kind: "check",
      subject: {},
      statement: id,
      recorded_at: "2026-01-01T00:00:00Z",
      supersedes_claim_version_id: null,
    });
    const trial = (id: string, claim: string, outcome: "pass" | "fail"): Trial => ({
      trial_id: id,
      claim_id: claim,
      outcome,
      duration_ms: 1,
      signature: outcome === "fail" ? "sig-v1:" + "a".repeat(32) : null,
      recorded_at: "2026-01-02T00:00:00Z",
      env_fingerprint: null,
      receipt_ref: null,
      run_id: "run1",
      retry_of: null,
    });
    const batch: KernelBatch = {
      schema_version: KERNEL_SCHEMA,
      claims: [check("a"), check("b"), check("c"), check("d")],
      trials: [trial("a1", "a", "fail")],
      relations: [],
    };
    const before = compile(batch);
    t.deepEqual(trialStats(before.index.get("a")!, before), { n: 1, s: 0, f: 1, flaky: 0, errors: 0, infra: 0 });
    // Three more failures in run1 make it an infrastructure run: a1, in a node the new trials do not touch, is no
    // longer counted.
    const after = extendCompiled(
      before,
      only([trial("b1", "b", "fail"), trial("c1", "c", "fail"), trial("d1", "d", "fail")])
    )!;
    t.is(after.index.get("a"), before.index.get("a"), "the node is shared");
    t.deepEqual(after.infra_runs, ["run1"]);
    t.deepEqual(trialStats(after.index.get("a")!, after), { n: 0, s: 0, f: 0, flaky: 0, errors: 0, infra: 1 });
    t.deepEqual(trialStats(before.index.get("a")!, before), { n: 1, s: 0, f: 1, flaky: 0, errors: 0, infra: 0 });
    const given = trialStats(before.index.get("a")!, before);
    given.f = 99;
    t.is(trialStats(before.index.get("a")!, before).f, 1);
    t.deepEqual(trialStats(before.index.get("a")!, before, new Set(["a1"])), {
      n: 0,
      s: 0,
      f: 0,
      flaky: 0,
      errors: 0,
      infra: 0,
    });
  }
);
