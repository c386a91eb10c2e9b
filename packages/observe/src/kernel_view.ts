/**
 * The kernel's view of a scope's fold: its claims compiled, scheduled,
 * evaluated and assessed, and for each node what its observation line takes
 * from that (belief, trial counts, a check's verdict and flake rate, the
 * median duration, the conservative lower bound), as plain JSON data. It
 * depends only on the kernel payloads folded, the kernel's configuration
 * and the precision, so forge-observe keeps the last one it made in
 * `.forge/.cache/kernel.observed`, under a key naming exactly what it was
 * made from: the import files whose payloads the fold takes (batch id and
 * lstat, in fold order), the configuration, and the build of forge (core's
 * buildId: forge built from other sources makes its views anew, and
 * forge-plan observing by itself shares forge-observe's view). An observation after an import
 * that added no kernel record (an oracle's result, a merge, an advisory
 * step) then reads no payload and compiles nothing; any other change of the
 * fold misses the key and is compiled. Deleting the cache changes no answer.
 */
import { join } from "node:path";
import { buildId, cacheDir, checkedCache, readCacheFile, writeCacheFile, writeCacheLater, type Store } from "@forge/core";
import { hasRecords, type LoggedImport, PAYLOAD_MARKERS } from "@forge/evidence";
import {
  assess, checkVerdict, cmp, type Compiled, compile, conservative, evaluate, type FlakeRate, type KernelBatch, type KernelConfig, schedule,
  type Syndrome, type TrialStats,
} from "@forge/kernel";

const MAGIC = "forge-kernel-view 1";

/** What a node's line takes from the kernel. */
export interface KernelNode {
  id: string;
  kind: string;
  claim_version_id: string;
  subject: Record<string, unknown>;
  mode: string;
  cyclic: boolean;
  belief_micros: number | null;
  caveat: boolean;
  trials: TrialStats;
  fragile_reasons: string[];
  superseded_by: string[];
  lower_micros: number | null;
  support_members: number;
  /** The median duration of its counted trials, or null. */
  duration_ms: number | null;
  /** A check's verdict (`checkVerdict` at the precision), null for any other kind. */
  check: { verdict: string; flake_rate: FlakeRate | null; signatures: string[]; env_fingerprints: string[] } | null;
}

/** The kernel's view of a fold (see the module comment). */
export interface KernelView {
  /** The precision and kernel configuration it was made with (`viewConfig`). */
  made_with: string;
  /** In the kernel's node order. */
  nodes: KernelNode[];
  syndromes: Syndrome[];
  markers: string[];
  /** The CI runs the trials came from, sorted. */
  run_ids: string[];
  trials: number;
  fragile_threshold_micros: number;
  min_trials: number;
  conservative: { bound_reached: boolean; refused: string | null };
}

/** What a view depends on besides the fold: the precision and the kernel overrides, as one string. */
export function viewConfig(precisionMicros: number, config: Partial<KernelConfig>): string {
  const kernel: Record<string, unknown> = {};
  for (const k of Object.keys(config).sort(cmp)) if (config[k as keyof KernelConfig] !== undefined) kernel[k] = config[k as keyof KernelConfig];
  return JSON.stringify({ kernel, precision_micros: precisionMicros });
}

/**
 * The view of a fold's kernel payload.
 * @example kernelView(readScope(store, "default").kernel, 300_000, {}).nodes.length
 */
export function kernelView(kernel: KernelBatch, precisionMicros: number, config: Partial<KernelConfig>): KernelView {
  const compiled = compile(kernel, config);
  const scheduled = schedule(compiled);
  const beliefs = evaluate(compiled, scheduled);
  const a = assess(compiled, scheduled, beliefs);
  const lower = conservative(compiled, { scheduled, beliefs });
  const lowerOf = new Map(lower.nodes.map((n) => [n.id, n.lower_micros]));
  const nodes = a.nodes.map((r): KernelNode => {
    const n = compiled.index.get(r.id)!;
    const v = n.kind === "check" ? checkVerdict(n, compiled, precisionMicros) : null;
    return {
      id: r.id, kind: n.kind, claim_version_id: r.claim_version_id, subject: n.version.subject ?? {}, mode: n.mode, cyclic: n.cyclic, belief_micros: r.belief_micros,
      caveat: r.caveat, trials: r.trials, fragile_reasons: r.fragile_reasons, superseded_by: r.superseded_by, lower_micros: lowerOf.get(r.id) ?? null,
      support_members: n.terms.reduce((k, t) => k + t.members.length, 0), duration_ms: medianDuration(n, compiled),
      check: v && { verdict: v.verdict, flake_rate: v.flake_rate, signatures: v.signatures, env_fingerprints: v.env_fingerprints },
    };
  });
  const runs = new Set<string>();
  let trials = 0;
  for (const n of compiled.nodes) {
    trials += n.trials.length;
    for (const t of n.trials) if (t.run_id !== null) runs.add(t.run_id);
  }
  return {
    made_with: viewConfig(precisionMicros, config), nodes, syndromes: a.syndromes, markers: compiled.markers, run_ids: [...runs].sort(cmp), trials,
    fragile_threshold_micros: compiled.config.fragile_threshold_micros, min_trials: compiled.config.min_trials,
    conservative: { bound_reached: lower.bound_reached, refused: lower.refused },
  };
}

/**
 * The cache key of a scope's view: the build of forge, the configuration,
 * and the imports whose payloads the fold takes (in fold order, with their
 * files' lstat); null when no view may be cached (forge runs unbundled, or
 * one of those files changed too recently to vouch for).
 */
export function viewKey(log: readonly LoggedImport[], scope: string, madeWith: string): string | null {
  const code = buildId();
  if (code === null) return null;
  const imports: string[][] = [];
  for (const l of log) {
    const r = l.record;
    if (r.batch.scope !== scope || r.markers.some((m) => PAYLOAD_MARKERS.includes(m)) || !(l.elided || hasRecords(r.kernel_payload))) continue;
    if (l.stamp === null) return null;
    imports.push([r.batch_id, l.stamp]);
  }
  return JSON.stringify({ code, made_with: madeWith, imports });
}

/** The cached view made under `key`, or undefined. */
export function readKernelView(store: Store, key: string): KernelView | undefined {
  const text = readCacheFile(cachePath(store), MAGIC);
  const nl = text === undefined ? -1 : text.indexOf("\n");
  if (nl < 0 || text!.slice(0, nl) !== key) return undefined;
  try {
    const v = JSON.parse(text!.slice(nl + 1)) as KernelView;
    return v !== null && typeof v === "object" && Array.isArray(v.nodes) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Keep `view` under `key` (the one view kept: the last made), once the observation is out (`writeCacheLater`). */
export function writeKernelView(store: Store, key: string, view: KernelView): void {
  writeCacheLater(() => writeCacheFile(cachePath(store), checkedCache(MAGIC, `${key}\n${JSON.stringify(view)}`)));
}

// --- internal ---

function cachePath(store: Store): string {
  return join(cacheDir(store), "kernel.observed");
}

/** The median duration of a node's counted trials, or null. */
function medianDuration(n: Compiled["nodes"][number], c: Compiled): number | null {
  const ds = n.trials.filter((t) => t.outcome !== "error" && !c.infra_trials.has(t.trial_id)).map((t) => t.duration_ms).sort((x, y) => x - y);
  if (ds.length === 0) return null;
  const m = ds.length >> 1;
  return ds.length % 2 ? ds[m]! : Math.floor((ds[m - 1]! + ds[m]!) / 2);
}
