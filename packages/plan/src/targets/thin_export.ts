/**
 * ThinExport: a current degradation marker (`no_imports` is ScopeStale's).
 * A lost log is recorded again by one rerun at the run's tree; a kernel
 * marker naming claims of the graph (a dangling or duplicate record, a
 * cycle, missing semantics) asks that the fold stay consistent around them
 * (delta parity: incremental update = full recomputation); anything else
 * needs a human or forge-export, not a verification.
 */
import type { DegradationLine } from "@forge/contract";
import { cmp } from "@forge/kernel";
import { BASE_MICROS } from "../config.js";
import type { Found, PlanDraft, TargetContext } from "./_context.js";

/** The target of a degradation marker, or null. */
export function thinExport(d: DegradationLine, c: TargetContext): Found | null {
  const m = d.marker;
  const detail = d.detail;
  if (m === "no_imports") return null;
  let draft: PlanDraft | null = null;
  let why = "needs a human or forge-export, not a verification";
  if (m.startsWith("missing_log:") && detail && typeof detail.step === "string" && detail.tree && detail.head_sha) {
    why = "rerun the step once at the run's tree to record a receipt again";
    draft = {
      plan_kind: "CheckRerun",
      params: {
        step: detail.step,
        head_sha: detail.head_sha,
        tree: detail.tree,
        patch_sha256: detail.patch_sha256 ?? null,
        pr: detail.pr ?? null,
        repetitions: 1,
        precision_micros: c.precision,
        why: "missing log",
      },
      max_runs: 1,
      description: `rerun ${detail.step} once: run ${String(detail.run_id).slice(0, 8)} lost its log`,
      why: "missing log",
    };
  } else {
    const named = d.refs.filter((r) => c.nodeById.has(r)).sort(cmp);
    if (named.length > 0) {
      why = "the marker names claims of the graph: delta parity over them";
      draft = {
        plan_kind: "OracleDeltaParity",
        params: { changed_node_ids: named, max_iterations: c.cfg.oracle_max_iterations },
        max_runs: 0,
        description: `delta parity over ${named.length} claim(s) named by ${m}`,
        why: "kernel marker",
      };
    }
  }
  return {
    key: `thin_export:${m}`,
    base_micros: BASE_MICROS.ThinExport,
    modifiers: [{ delta_micros: 50_000, name: "thin_export_active" }],
    refs: d.refs,
    plan_why: why,
    draft,
  };
}
