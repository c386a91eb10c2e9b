/** Trial classes for compile(): infrastructure runs and flaky passes. */
import type { CompiledNode } from "./compile.js";
import { cmp } from "./cmp.js";
import type { KernelConfig } from "./model.js";

/**
 * Infrastructure runs (most trials failing at once) and flaky passes (a
 * pass on a retry of a run that failed the claim). A failure in an
 * infrastructure run that **reproduces at the same tree** (the same claim
 * also fails in another run, or in a trial with no run) is evidence, never
 * discarded: a bad patch that breaks every step of a small suite is a
 * regression, not an outage, once it fails twice (spec/evidence.md §1.1).
 * A run's trials are dropped all together or none: in a run with a
 * failure that reproduces, every trial counts (it is still listed).
 */
export function classifyTrials(
  nodes: CompiledNode[],
  cfg: KernelConfig
): { infraRuns: string[]; infraTrials: Set<string>; flaky: Set<string> } {
  const runs = new Map<string, { total: number; failed: number; trials: string[] }>();
  const flaky = new Set<string>();
  // Failed trials that reproduce: their claim has a failure in another run.
  const reproduced = new Set<string>();
  for (const n of nodes) {
    const failedRuns = new Set<string>();
    let failsWithoutRun = 0;
    for (const t of n.trials) {
      if (t.outcome === "fail") {
        if (t.run_id === null) failsWithoutRun++;
        else failedRuns.add(t.run_id);
      }
      if (t.run_id === null) continue;
      if (t.outcome === "error") continue;
      let r = runs.get(t.run_id);
      if (!r) runs.set(t.run_id, (r = { total: 0, failed: 0, trials: [] }));
      r.total++;
      if (t.outcome === "fail") r.failed++;
      r.trials.push(t.trial_id);
    }
    for (const t of n.trials)
      if (t.outcome === "pass" && t.retry_of !== null && failedRuns.has(t.retry_of)) flaky.add(t.trial_id);
    if (failedRuns.size + failsWithoutRun >= 2)
      for (const t of n.trials) if (t.outcome === "fail" && t.run_id !== null) reproduced.add(t.trial_id);
  }
  const infraRuns: string[] = [];
  const infraTrials = new Set<string>();
  for (const [id, r] of runs) {
    if (r.total < cfg.infra_min_trials || r.failed * 1_000_000 < cfg.infra_fail_micros * r.total) continue;
    infraRuns.push(id);
    // All or none: a run with a failure that reproduces is evidence whole (dropping its passes and keeping its
    // failures could only push a fail rate up); otherwise every trial of it is left out.
    if (r.trials.some((t) => reproduced.has(t))) continue;
    for (const t of r.trials) infraTrials.add(t);
  }
  return { infraRuns: infraRuns.sort(cmp), infraTrials, flaky };
}
