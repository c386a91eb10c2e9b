/**
 * `degradation` lines: the markers of the current state, sorted. Nothing
 * is invented: a missing or malformed input is a marker, and a marker
 * describes the state now (a log deleted from a run that a later run at the
 * same tree re-recorded is no longer one).
 */
import type { DegradationDetail, DegradationLine } from "@forge/contract";
import { type KernelView, PAYLOAD_MARKERS } from "@forge/evidence";
import { cmp } from "@forge/kernel";
import type { ObserveInputs, PrInput, RunInput } from "../inputs.js";

/**
 * The degradation lines.
 * @param prById the PRs by id
 */
export function degradationLines(
  inputs: ObserveInputs,
  view: KernelView,
  prById: ReadonlyMap<string, PrInput>
): DegradationLine[] {
  const { state } = inputs;
  const markers = new Map<string, string[]>();
  const details = new Map<string, DegradationDetail>();
  const mark = (m: string, refs: string[], detail?: DegradationDetail): void => {
    const prev = markers.get(m) ?? [];
    markers.set(m, [...new Set([...prev, ...refs])].sort(cmp));
    if (detail) details.set(m, detail);
  };
  if (state.imports.length === 0) mark("no_imports", []);
  for (const imp of state.imports) {
    for (const m of imp.markers) {
      if (PAYLOAD_MARKERS.includes(m)) mark(`${m}:${imp.batch_id}`, [`import:${imp.batch_id}`]);
    }
  }
  if (state.imports.length > 0) for (const m of view.markers) mark(m, markerRefs(m));
  for (const u of inputs.unreadable) mark(`unreadable:${u}`, []);
  let exported: Set<string> | undefined; // every trial's run: gathered only when a completed run asks
  for (const run of inputs.runs) {
    if (run.status !== "completed") continue;
    exported ??= exportedRuns(state, view);
    const pr = run.pr ? prById.get(run.pr) : undefined;
    const at: DegradationDetail = {
      run_id: run.id,
      head_sha: run.headSha,
      tree: run.codeTree,
      patch_sha256: run.patchSha256,
      pr: pr ? { id: pr.id, number: pr.number } : null,
    };
    if (!exported.has(run.id)) mark(`unexported_run:${run.id}`, [`ci-run:${run.id}`], at);
    for (const s of run.steps) {
      if (!ran(s.outcome) || s.log) continue;
      if (rerecorded(inputs.runs, run, s.name)) continue;
      mark(`missing_log:${run.id}:${s.name}`, [`ci-run:${run.id}`], { ...at, step: s.name });
    }
  }
  return [...markers.keys()].sort(cmp).map((m) => ({
    kind: "degradation",
    marker: m,
    refs: markers.get(m)!,
    detail: details.get(m) ?? null,
  }));
}

/** Step outcomes that produce a log. */
function ran(outcome: string): boolean {
  return outcome === "pass" || outcome === "fail" || outcome === "timeout";
}

/**
 * A later completed run (in the order runs rank: createdAt, id) at the same
 * tree (and patch) ran the step and kept its log.
 */
function rerecorded(runs: readonly RunInput[], run: RunInput, step: string): boolean {
  return runs.some(
    (r) =>
      r.status === "completed" &&
      (r.createdAt > run.createdAt || (r.createdAt === run.createdAt && r.id > run.id)) &&
      sameTree(r, run) &&
      r.steps.some((s) => s.name === step && ran(s.outcome) && s.log)
  );
}

function sameTree(a: RunInput, b: RunInput): boolean {
  return (
    (a.patchSha256 ?? "") === (b.patchSha256 ?? "") &&
    (a.codeTree !== null && b.codeTree !== null ? a.codeTree === b.codeTree : a.headSha === b.headSha)
  );
}

/** Runs the scope's evidence holds: a `ci-run:<id>` ref or a trial of the run. */
function exportedRuns(state: ObserveInputs["state"], view: KernelView): Set<string> {
  const out = new Set<string>(view.run_ids);
  for (const r of state.evidence_refs) if (r.ref_id.startsWith("ci-run:")) out.add(r.ref_id.slice(7));
  return out;
}

/** What a kernel marker points at. */
function markerRefs(m: string): string[] {
  const i = m.indexOf(":");
  if (i < 0) return [];
  const rest = m.slice(i + 1);
  if (m.startsWith("cycle:")) return rest.split(",").sort(cmp);
  if (m.startsWith("thin_payload:") || m.startsWith("malformed_payload:")) return [];
  return [rest];
}
