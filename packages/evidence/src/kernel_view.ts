/**
 * The kernel's view of a scope's fold: its claims compiled, scheduled,
 * evaluated and assessed, and for each node what its observation line takes
 * from that (belief, trial counts, a check's verdict and flake rate, the
 * median duration, the conservative lower bound), as plain JSON data. It
 * depends only on the kernel payloads folded, the kernel's configuration
 * and the precision, so one view is kept, `.forge/.cache/kernel.observed`,
 * under a key naming exactly what it was made from: the scope, the import
 * files whose payloads its fold takes, in fold order, each with what vouches for the
 * bytes read (its lstat, or for a file too recent for its lstat to vouch,
 * the sha256 of those bytes), the configuration, and the build of forge
 * (core's buildId: forge built from other sources makes its views anew).
 * forge-observe reads it and makes it on a miss; the export lane, which
 * compiles the fold it changes anyway, makes the view of that fold when a
 * view is kept (so the next observation does not compile it again), from
 * the kept one when its imports only added trials (viewExtended). An
 * observation after an import that added no kernel record (an oracle's
 * result, a merge, an advisory step) then reads no payload and compiles
 * nothing. Deleting the cache changes no answer.
 */
import { join } from "node:path";
import {
  buildId,
  cacheDir,
  checkedCache,
  readCacheFile,
  writeCacheFile,
  writeCacheLater,
  type Store,
} from "@forge/core";
import {
  assess,
  checkVerdict,
  cmp,
  type Compiled,
  type CompiledNode,
  compile,
  conservative,
  evaluate,
  type FlakeRate,
  type KernelBatch,
  type KernelConfig,
  lowerBound,
  nodeBelief,
  nodeReport,
  type NodeReport,
  schedule,
  type Syndrome,
  syndromesOf,
  type TrialStats,
} from "@forge/kernel";
import { hasRecords, importDigest, type LoggedImport } from "./import_log_cache.js";
import { PAYLOAD_MARKERS } from "./scope.js";
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
  for (const k of Object.keys(config).sort(cmp))
    if (config[k as keyof KernelConfig] !== undefined) kernel[k] = config[k as keyof KernelConfig];
  return JSON.stringify({ kernel, precision_micros: precisionMicros });
}

/**
 * The view of a fold's kernel payload.
 * @example kernelView(readScope(store, "default").kernel, 300_000, {}).nodes.length
 */
export function kernelView(kernel: KernelBatch, precisionMicros: number, config: Partial<KernelConfig>): KernelView {
  return viewOf(compile(kernel, config), precisionMicros, config);
}

/**
 * The view of a fold already compiled with `config`.
 * @example viewOf(compile(kernel, {}), 300_000, {}).markers
 */
export function viewOf(compiled: Compiled, precisionMicros: number, config: Partial<KernelConfig>): KernelView {
  const scheduled = schedule(compiled);
  const beliefs = evaluate(compiled, scheduled);
  const a = assess(compiled, scheduled, beliefs);
  const lower = conservative(compiled, { scheduled, beliefs });
  const lowerOf = new Map(lower.nodes.map((n) => [n.id, n.lower_micros]));
  const nodes = a.nodes.map((r) =>
    nodeOf(compiled.index.get(r.id)!, compiled, r, lowerOf.get(r.id) ?? null, precisionMicros)
  );
  const runs = new Set<string>();
  let trials = 0;
  for (const n of compiled.nodes) {
    trials += n.trials.length;
    for (const t of n.trials) if (t.run_id !== null) runs.add(t.run_id);
  }
  return viewWith(
    compiled,
    precisionMicros,
    config,
    nodes,
    a.syndromes,
    { bound_reached: lower.bound_reached, refused: lower.refused },
    runs,
    trials
  );
}

/**
 * The view of `after`, a graph that differs from `before` only in its
 * nodes' trials (as `extendCompiled` makes it from `before`, once or more),
 * from `view`, the view of `before`: only the nodes whose trials changed,
 * or whose trials the graph now classes otherwise (infrastructure, flaky),
 * and what they support, are made again; every other node's line is the
 * one `view` has. undefined when `after` is not such a graph, or `view` is
 * not of `before` as far as can be seen (the caller makes the view).
 * `viewOf(after)` gives the same (a property test says so).
 * @example viewExtended(viewOf(before, 300_000, {}), before, extendCompiled(before, rerun)!, 300_000, {})
 */
export function viewExtended(
  view: KernelView,
  before: Compiled,
  after: Compiled,
  precisionMicros: number,
  config: Partial<KernelConfig>
): KernelView | undefined {
  const n = after.nodes.length;
  if (
    view.made_with !== viewConfig(precisionMicros, config) ||
    after.config !== before.config ||
    after.relations !== before.relations
  )
    return undefined;
  if (
    before.nodes.length !== n ||
    view.nodes.length !== n ||
    view.conservative.bound_reached ||
    view.markers.join("\n") !== before.markers.join("\n")
  )
    return undefined;
  // The trials the graph classes otherwise now (infrastructure, flaky): few, mostly none.
  const reclassed = new Set<string>();
  for (const [x, y] of [
    [before.infra_trials, after.infra_trials],
    [before.flaky_trials, after.flaky_trials],
  ] as const) {
    for (const id of x) if (!y.has(id)) reclassed.add(id);
    for (const id of y) if (!x.has(id)) reclassed.add(id);
  }
  // The nodes to make again: each whose trials (or their classes) changed, then all they support.
  const dirty = new Set<string>();
  const runs = new Set(view.run_ids);
  let trials = view.trials;
  for (let i = 0; i < n; i++) {
    const a = after.nodes[i]!;
    const b = before.nodes[i]!;
    if (a.id !== b.id || view.nodes[i]!.id !== a.id) return undefined;
    if (a === b) {
      if (reclassed.size > 0 && a.trials.some((t) => reclassed.has(t.trial_id))) dirty.add(a.id);
    } else if (
      a.terms === b.terms &&
      a.dependents === b.dependents &&
      a.version === b.version &&
      a.versions === b.versions &&
      a.superseded_by === b.superseded_by &&
      a.cyclic === b.cyclic &&
      a.kind === b.kind &&
      a.trials.length >= b.trials.length
    ) {
      dirty.add(a.id);
      trials += a.trials.length - b.trials.length;
      for (const t of a.trials) if (t.run_id !== null) runs.add(t.run_id);
    } else {
      return undefined;
    }
  }
  for (const id of dirty) for (const d of after.index.get(id)!.dependents) dirty.add(d);
  // Their beliefs and bounds, supporters first (Kahn's order among them; what is left is in or below a cycle: no
  // belief).
  const at = new Map<string, number>();
  view.nodes.forEach((v, i) => at.set(v.id, i));
  const belief = new Map<string, number | null>();
  const lower = new Map<string, number | null>();
  const indeg = new Map<string, number>();
  for (const id of dirty) indeg.set(id, 0);
  for (const id of dirty) for (const d of after.index.get(id)!.dependents) indeg.set(d, indeg.get(d)! + 1);
  const ready = [...dirty].filter((id) => indeg.get(id) === 0);
  const beliefOf = (id: string): number | null =>
    dirty.has(id) ? (belief.get(id) ?? null) : view.nodes[at.get(id)!]!.belief_micros;
  const lowerOfId = (id: string): number | null =>
    dirty.has(id) ? (lower.get(id) ?? null) : view.nodes[at.get(id)!]!.lower_micros;
  while (ready.length > 0) {
    const id = ready.pop()!;
    const node = after.index.get(id)!;
    const b = nodeBelief(node, after, beliefOf);
    belief.set(id, b);
    lower.set(id, lowerBound(node, after, b, lowerOfId));
    for (const d of node.dependents) {
      const k = indeg.get(d)! - 1;
      indeg.set(d, k);
      if (k === 0) ready.push(d);
    }
  }
  const nodes = after.nodes.map((node, i) => {
    if (!dirty.has(node.id)) return view.nodes[i]!;
    const b = belief.get(node.id) ?? null;
    return nodeOf(node, after, nodeReport(node, after, b), lower.get(node.id) ?? null, precisionMicros);
  });
  return viewWith(after, precisionMicros, config, nodes, syndromesOf(after), view.conservative, runs, trials);
}

/** A node's line in the view. */
function nodeOf(
  n: CompiledNode,
  compiled: Compiled,
  r: NodeReport,
  lower: number | null,
  precisionMicros: number
): KernelNode {
  const v = n.kind === "check" ? checkVerdict(n, compiled, precisionMicros) : null;
  return {
    id: r.id,
    kind: n.kind,
    claim_version_id: r.claim_version_id,
    subject: n.version.subject ?? {},
    mode: n.mode,
    cyclic: n.cyclic,
    belief_micros: r.belief_micros,
    caveat: r.caveat,
    trials: r.trials,
    fragile_reasons: r.fragile_reasons,
    superseded_by: r.superseded_by,
    lower_micros: lower,
    support_members: n.terms.reduce((k, t) => k + t.members.length, 0),
    duration_ms: medianDuration(n, compiled),
    check: v && {
      verdict: v.verdict,
      flake_rate: v.flake_rate,
      signatures: v.signatures,
      env_fingerprints: v.env_fingerprints,
    },
  };
}

/** The view of `compiled` with these nodes, syndromes, conservative's head, and its trials' runs and count. */
function viewWith(
  compiled: Compiled,
  precisionMicros: number,
  config: Partial<KernelConfig>,
  nodes: KernelNode[],
  syndromes: Syndrome[],
  head: KernelView["conservative"],
  runs: ReadonlySet<string>,
  trials: number
): KernelView {
  return {
    made_with: viewConfig(precisionMicros, config),
    nodes,
    syndromes,
    markers: compiled.markers,
    run_ids: [...runs].sort(cmp),
    trials,
    fragile_threshold_micros: compiled.config.fragile_threshold_micros,
    min_trials: compiled.config.min_trials,
    conservative: { bound_reached: head.bound_reached, refused: head.refused },
  };
}

/**
 * The cache key of a scope's view: the build of forge, the configuration,
 * and the imports whose payloads the fold takes, in fold order, each with
 * its stamp (or, lacking one, its digest); null when no view may be kept
 * (forge runs unbundled, or a file can be vouched for by neither).
 */
export function viewKey(log: readonly LoggedImport[], scope: string, madeWith: string): string | null {
  const code = buildId();
  if (code === null) return null;
  const imports: string[][] = [];
  for (const l of contributing(log, scope)) {
    const v = l.stamp ?? l.digest;
    if (v === undefined) return null;
    imports.push([l.record.batch_id, v]);
  }
  return JSON.stringify({ code, made_with: madeWith, scope, imports });
}

/** The kept view's key, read; the view itself is parsed only when asked for. */
export interface KeptView {
  code: string;
  made_with: string;
  scope: string;
  /** [batch id, stamp or digest], in fold order. */
  imports: Array<[string, string]>;
  view(): KernelView | undefined;
}

/** The view kept in the store, or undefined (none, or one that fails its check). */
export function keptView(store: Store): KeptView | undefined {
  const text = readCacheFile(cachePath(store), MAGIC);
  const nl = text === undefined ? -1 : text.indexOf("\n");
  if (nl < 0) return undefined;
  let key: KeptView;
  try {
    key = JSON.parse(text!.slice(0, nl)) as KeptView;
  } catch {
    return undefined;
  }
  if (
    key === null ||
    typeof key !== "object" ||
    typeof key.code !== "string" ||
    typeof key.made_with !== "string" ||
    typeof key.scope !== "string"
  )
    return undefined;
  if (!Array.isArray(key.imports)) return undefined;
  if (
    !key.imports.every(
      (e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && typeof e[1] === "string"
    )
  )
    return undefined;
  return {
    code: key.code,
    made_with: key.made_with,
    scope: key.scope,
    imports: key.imports,
    view: () => {
      try {
        const v = JSON.parse(text!.slice(nl + 1)) as KernelView;
        return v !== null && typeof v === "object" && Array.isArray(v.nodes) && Array.isArray(v.markers)
          ? v
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * The kept view, when its key holds for the scope as `log` folds it (same
 * build, `madeWith`, scope, imports and bytes): each import's stamp is the one
 * kept, or the digest kept is that of the bytes the log read (its own, or
 * its file read again while its lstat is unchanged).
 */
export function viewFor(
  store: Store,
  kept: KeptView | undefined,
  log: readonly LoggedImport[],
  scope: string,
  madeWith: string
): KernelView | undefined {
  if (!kept || kept.code !== buildId() || kept.made_with !== madeWith || kept.scope !== scope) return undefined;
  const mine = contributing(log, scope);
  if (mine.length !== kept.imports.length) return undefined;
  const now = Date.now();
  for (let i = 0; i < mine.length; i++) {
    const l = mine[i]!;
    const [id, v] = kept.imports[i]!;
    if (id !== l.record.batch_id) return undefined;
    if (v !== l.stamp && !(v.startsWith("sha256:") && importDigest(store, l, now) === v)) return undefined;
  }
  return kept.view();
}

/**
 * Keep `view` under `key` (the one view kept: the last made), once the answer is out (`writeCacheLater`), or with
 * `now`, now.
 */
export function writeKernelView(store: Store, key: string, view: KernelView, now = false): void {
  const write = (): void => {
    writeCacheFile(cachePath(store), checkedCache(MAGIC, `${key}\n${JSON.stringify(view)}`));
  };
  if (now) write();
  else writeCacheLater(write);
}

// --- internal ---

/** The imports whose payloads the scope's fold takes (a view depends on these alone), in fold order. */
function contributing(log: readonly LoggedImport[], scope: string): LoggedImport[] {
  return log.filter((l) => {
    const r = l.record;
    return (
      r.batch.scope === scope &&
      !r.markers.some((m) => PAYLOAD_MARKERS.includes(m)) &&
      (l.elided || hasRecords(r.kernel_payload))
    );
  });
}

function cachePath(store: Store): string {
  return join(cacheDir(store), "kernel.observed");
}

/** The median duration of a node's counted trials, or null. */
function medianDuration(n: CompiledNode, c: Compiled): number | null {
  const ds = n.trials
    .filter((t) => t.outcome !== "error" && !c.infra_trials.has(t.trial_id))
    .map((t) => t.duration_ms)
    .sort((x, y) => x - y);
  if (ds.length === 0) return null;
  const m = ds.length >> 1;
  return ds.length % 2 ? ds[m]! : Math.floor((ds[m - 1]! + ds[m]!) / 2);
}
