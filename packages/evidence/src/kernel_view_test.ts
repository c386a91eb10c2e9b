/**
 * Property: the view of a graph new trials extended, made from the view
 * before them (viewExtended), is the view made from nothing (viewOf), byte
 * for byte — whatever the trials change: beliefs below them, a run that
 * becomes infrastructure, a pass on retry that becomes flaky, a claim that
 * gains its first trial.
 */
import test from "ava";
import { compile, type Compiled, extendCompiled, KERNEL_SCHEMA, type KernelBatch, type Trial } from "@forge/kernel";
import { genBatch, int, rng } from "@forge/kernel/testing";
import { type KernelView, viewExtended, viewOf } from "./kernel_view.js";

const only = (trials: Trial[]): KernelBatch => ({ schema_version: KERNEL_SCHEMA, claims: [], trials, relations: [] });
/** The view as forge-observe keeps it and the lane reads it back: JSON. */
const kept = (v: KernelView): KernelView => JSON.parse(JSON.stringify(v)) as KernelView;

test(
  "viewExtended of new trials is viewOf the extended graph, byte for byte, on 300 generated batches (extended " +
    "once or twice), and keeps the lines it need not make",
  (t) => {
    let reused = 0;
    let remade = 0;
    let extended = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const base = genBatch(r, { cycleChance: 0.2, checks: int(r, 2, 8), derived: int(r, 0, 6) });
      const checks = base.claims.filter((c) => c.kind === "check").map((c) => c.claim_id);
      const derived = base.claims.filter((c) => c.kind !== "check").map((c) => c.claim_id);
      const precision = [300_000, 100_000][seed % 2]!;
      let before = compile(base);
      let view = kept(viewOf(before, precision, {}));
      for (let round = 0; round < 1 + (seed % 2); round++) {
        const delta = genBatch(r, { prefix: `x${round}`, existing: { checks, derived }, checks: 0, maxTrials: 3 });
        const trials = delta.trials
          .filter(() => r() < 0.3)
          .map((x, i): Trial =>
            i % 3 === 2 && derived.length > 0 ? { ...x, claim_id: derived[int(r, 0, derived.length - 1)]! } : x
          );
        const after = extendCompiled(before, only(trials));
        if (after === null) continue;
        const got = viewExtended(view, before, after, precision, {});
        const want = viewOf(after, precision, {});
        if (got === undefined) {
          t.fail(`seed ${seed}: a graph only new trials extended was refused`);
          continue;
        }
        t.is(JSON.stringify(got), JSON.stringify(want), `seed ${seed}, round ${round}`);
        extended++;
        got.nodes.forEach((n, i) => (n === view.nodes[i] ? reused++ : remade++));
        before = after;
        view = kept(got);
      }
    }
    t.true(
      extended > 300 && reused > 500 && remade > 500,
      `the generator is too tame: ${extended} extended, ${reused} lines kept, ${remade} made again`
    );
  }
);

const check = (id: string) => ({
  claim_id: id,
  claim_version_id: `${id}@1`,
  kind: "check",
  subject: { step: id },
  statement: id,
  recorded_at: "2026-01-01T00:00:00Z",
  supersedes_claim_version_id: null,
});
const trial = (
  id: string,
  claim: string,
  outcome: "pass" | "fail",
  run: string | null,
  retryOf: string | null = null
): Trial => ({
  trial_id: id,
  claim_id: claim,
  outcome,
  duration_ms: 5,
  signature: outcome === "fail" ? "sig-v1:" + "a".repeat(32) : null,
  recorded_at: `2026-01-02T00:00:0${id.length % 10}Z`,
  env_fingerprint: null,
  receipt_ref: null,
  run_id: run,
  retry_of: retryOf,
});

test(
  "viewExtended makes again the nodes whose trials the new ones class otherwise, though they gained none: a run " +
    "become infrastructure, a pass become flaky",
  (t) => {
    const batch: KernelBatch = {
      schema_version: KERNEL_SCHEMA,
      claims: [check("a"), check("b"), check("c"), check("d"), { ...check("e"), kind: "fixes" }],
      trials: [trial("a1", "a", "fail", "run1"), trial("d1", "d", "fail", "run9"), trial("d2", "d", "pass", "run2")],
      relations: [
        { relation_id: "r", kind: "supports", from: "a", to: "e", group: null, recorded_at: "2026-01-01T00:00:00Z" },
      ],
    };
    const before = compile(batch);
    const view = kept(viewOf(before, 300_000, {}));
    // b1, c1 and b2 fail in run1 with a1: run1 is an outage, a1 no longer counts (a and e change; d does not).
    const outage = extendCompiled(
      before,
      only([trial("b1", "b", "fail", "run1"), trial("c1", "c", "fail", "run1"), trial("b2", "b", "fail", "run1")])
    )!;
    const got = viewExtended(view, before, outage, 300_000, {})!;
    t.is(JSON.stringify(got), JSON.stringify(viewOf(outage, 300_000, {})));
    t.deepEqual(
      got.nodes.filter((n, i) => n !== view.nodes[i]).map((n) => n.id),
      ["a", "b", "c", "e"]
    );
    t.is(got.nodes.find((n) => n.id === "a")!.trials.infra, 1);
    // d3, a retry of run9 (where d failed), passes: flaky; d2 is unchanged, d is made again for d3.
    const retry = extendCompiled(before, only([trial("d3", "d", "pass", "run3", "run9")]))!;
    const got2 = viewExtended(view, before, retry, 300_000, {})!;
    t.is(JSON.stringify(got2), JSON.stringify(viewOf(retry, 300_000, {})));
    t.deepEqual(
      got2.nodes.filter((n, i) => n !== view.nodes[i]).map((n) => n.id),
      ["d"]
    );
    t.is(got2.nodes.find((n) => n.id === "d")!.check!.verdict, "flaky");
  }
);

test("viewExtended refuses what is not a graph only new trials extended, or a view not of the graph before", (t) => {
  const batch = genBatch(rng(3), { checks: 4, derived: 3 });
  const before = compile(batch);
  const view = kept(viewOf(before, 300_000, {}));
  const fresh: Trial = { ...batch.trials[0]!, trial_id: "fresh" };
  const after = extendCompiled(before, only([fresh]))!;
  t.not(viewExtended(view, before, after, 300_000, {}), undefined);
  const recompiled: Compiled = compile({ ...batch, trials: [...batch.trials, fresh] });
  t.is(viewExtended(view, before, recompiled, 300_000, {}), undefined, "compiled anew: nothing says what changed");
  t.is(viewExtended(view, before, after, 100_000, {}), undefined, "another precision");
  t.is(viewExtended(view, before, after, 300_000, { min_trials: 5 }), undefined, "other kernel overrides");
  t.is(
    viewExtended({ ...view, nodes: view.nodes.slice(1) }, before, after, 300_000, {}),
    undefined,
    "a view of other nodes"
  );
  t.is(
    viewExtended({ ...view, markers: [...view.markers, "x:y"] }, before, after, 300_000, {}),
    undefined,
    "a view with other markers"
  );
  const withClaim = compile({ ...batch, claims: [...batch.claims, check("new")] });
  t.is(viewExtended(view, before, withClaim, 300_000, {}), undefined, "a new claim");
});
