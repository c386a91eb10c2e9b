/**
 * Property tests over generated graphs (seeded, so a failure names its seed
 * and replays): delta parity, temporal replay at +∞, minimal perturbation,
 * order independence, and the bounds of conservative and exactBounded.
 */
import test from "ava";
import { genBatch, int, rng, shuffle } from "./testing.js";
import { assess } from "./assess.js";
import { evaluate } from "./beliefs.js";
import { canonicalJson } from "./canonical_json.js";
import { cmp } from "./cmp.js";
import { compile } from "./compile.js";
import type { KernelBatch } from "./model.js";
import { causalRefuter } from "./oracles/causal_refuter.js";
import { conservative } from "./oracles/conservative.js";
import { deltaParity } from "./oracles/delta_parity.js";
import { exactBounded } from "./oracles/exact_bounded.js";
import { minimalPerturbation } from "./oracles/minimal_perturbation.js";
import { holds } from "./oracles/oracle.js";
import { temporalReplay } from "./oracles/temporal_replay.js";
import { schedule } from "./schedule.js";

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

function beliefsOf(batch: unknown): Array<[string, number | null]> {
  const c = compile(batch);
  return [...evaluate(c, schedule(c)).entries()].sort(([a], [b]) => cmp(a, b));
}

test("deltaParity() finds incremental equal to full recomputation on 200 generated graphs and deltas", (t) => {
  for (const seed of SEEDS) {
    const r = rng(seed);
    const base = genBatch(r, { cycleChance: 0.1 });
    const existing = {
      checks: base.claims.filter((c) => c.kind === "check").map((c) => c.claim_id),
      derived: base.claims.filter((c) => c.kind !== "check").map((c) => c.claim_id),
    };
    const delta = genBatch(r, { prefix: "d", checks: int(r, 0, 2), derived: int(r, 0, 2), existing, cycleChance: 0.1 });
    const a = deltaParity(base, delta);
    t.is(a.parity, true, `seed ${seed}: ${JSON.stringify(a.mismatches)}`);
    t.false(a.bound_reached);
  }
});

test(
  "deltaParity() recomputes a claim the delta does not name when the delta turns its run into an infrastructure " +
    "failure",
  (t) => {
    const claim = (id: string) => ({
      claim_id: id,
      claim_version_id: `${id}@1`,
      kind: "check",
      recorded_at: "2026-01-01T00:00:00Z",
    });
    const trial = (claim: string, outcome: string) => ({
      trial_id: `${claim}-t`,
      claim_id: claim,
      outcome,
      duration_ms: 1,
      signature: null,
      recorded_at: "2026-02-01T00:00:00Z",
      run_id: "R",
      retry_of: null,
    });
    const base = {
      schema_version: "forge-kernel/v1",
      claims: ["a", "b", "c"].map(claim),
      trials: [trial("a", "fail"), trial("b", "fail"), trial("c", "pass")],
      relations: [],
    };
    const delta = { claims: ["d", "e"].map(claim), trials: [trial("d", "fail"), trial("e", "fail")] };
    const a = deltaParity(base, delta);
    t.true(a.parity, JSON.stringify(a.mismatches));
    t.true(a.dirty.includes("c"));
    t.deepEqual(
      compile({ ...base, claims: [...base.claims, ...delta.claims], trials: [...base.trials, ...delta.trials] })
        .infra_runs,
      ["R"]
    );
  }
);

test("temporalReplay() at +∞ (null or a far cutoff) equals the current beliefs on 200 generated graphs", (t) => {
  for (const seed of SEEDS) {
    const batch = genBatch(rng(seed), { cycleChance: 0.1 });
    const now = beliefsOf(batch).map(([id, b]) => ({ id, belief_micros: b }));
    t.deepEqual(temporalReplay(batch, null).beliefs, now, `seed ${seed}`);
    t.deepEqual(temporalReplay(batch, "9999-12-31T23:59:59Z").beliefs, now, `seed ${seed}`);
  }
});

test("temporalReplay() before every trial gives the priors: 500000 for checks", (t) => {
  const batch = genBatch(rng(3), { checks: 3, derived: 0 });
  const r = temporalReplay(batch, "2026-01-01T00:00:01Z");
  t.true(r.beliefs.every((b) => b.belief_micros === 500_000));
});

test("minimalPerturbation() answers flip the verdict, are 1-minimal and within budget on 200 generated graphs", (t) => {
  let found = 0;
  for (const seed of SEEDS) {
    const r = rng(seed);
    const c = compile(genBatch(r, { maxTrials: 5 }));
    const sch = schedule(c);
    const b = evaluate(c, sch);
    for (const n of c.nodes) {
      const k = int(r, 1, 3);
      const m = minimalPerturbation(c, n.id, { max_removed_nodes: k, max_evaluations: 500, scheduled: sch });
      t.true(m.evaluations <= 500, `seed ${seed}`);
      t.is(m.holds, holds(b.get(n.id) ?? null, c.config.fragile_threshold_micros));
      if (!m.found) continue;
      found++;
      t.true(m.removed.length <= k, `seed ${seed}: ${m.removed.length} > ${k}`);
      const after = evaluate(c, sch, { removed: new Set(m.removed) }).get(n.id) ?? null;
      t.is(after, m.belief_after_micros);
      t.not(holds(after, c.config.fragile_threshold_micros), m.holds, `seed ${seed}: no flip`);
      t.true(m.minimal);
      for (const drop of m.removed) {
        const smaller = new Set(m.removed.filter((x) => x !== drop));
        const v = evaluate(c, sch, { removed: smaller }).get(n.id) ?? null;
        t.is(holds(v, c.config.fragile_threshold_micros), m.holds, `seed ${seed}: not 1-minimal without ${drop}`);
      }
    }
  }
  t.true(found > 50, `only ${found} flips found: the generator is too tame`);
});

test("the same batch in any order gives byte-identical assessments and oracle answers", (t) => {
  for (const seed of SEEDS.slice(0, 100)) {
    const r = rng(seed);
    const batch = genBatch(r, { cycleChance: 0.2 });
    const shuffled: KernelBatch = {
      ...batch,
      claims: shuffle(r, batch.claims),
      trials: shuffle(r, batch.trials),
      relations: shuffle(r, batch.relations),
    };
    const out = (b: KernelBatch): string => {
      const c = compile(b);
      const targets = c.nodes.map((n) => n.id);
      return canonicalJson({
        assess: assess(c),
        conservative: conservative(c),
        exact: targets.map((id) => exactBounded(c, id)),
        refute: targets.map((id) => causalRefuter(c, id)),
        perturb: targets.map((id) => minimalPerturbation(c, id)),
        replay: temporalReplay(b, "2026-01-15T00:00:00Z"),
      });
    };
    t.is(out(shuffled), out(batch), `seed ${seed}`);
  }
});

test("conservative() never exceeds the belief, on 200 generated graphs", (t) => {
  for (const seed of SEEDS) {
    const c = compile(genBatch(rng(seed)));
    for (const n of conservative(c).nodes) {
      if (n.belief_micros === null) t.is(n.lower_micros, null);
      else t.true(n.lower_micros! <= n.belief_micros && n.lower_micros! >= 0, `seed ${seed} ${n.id}`);
    }
  }
});

test("exactBounded() equals the propagated belief (to rounding) when no supporter is shared", (t) => {
  let compared = 0;
  for (const seed of SEEDS) {
    const c = compile(genBatch(rng(seed), { groupChance: 0.5 }));
    const sch = schedule(c);
    for (const n of c.nodes) {
      const e = exactBounded(c, n.id, { scheduled: sch });
      if (e.refused !== null) continue;
      // Tree-shaped cone: every leaf reached by exactly one path.
      if (!isTree(c, n.id)) continue;
      compared++;
      t.true(
        Math.abs(e.exact_micros! - e.propagated_micros!) <= 20,
        `seed ${seed} ${n.id}: ${e.exact_micros} vs ${e.propagated_micros}`
      );
    }
  }
  t.true(compared > 100);
});

function isTree(c: ReturnType<typeof compile>, id: string): boolean {
  const seen = new Set<string>();
  const walk = (x: string): boolean => {
    if (seen.has(x)) return false;
    seen.add(x);
    return c.index.get(x)!.terms.every((t) => t.members.every((m) => walk(m.from)));
  };
  return walk(id);
}
