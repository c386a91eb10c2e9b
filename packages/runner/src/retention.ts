/**
 * Bounded machine state: after each run, only the newest `keep_runs` runs
 * (`ci.env`, default 200) keep their bulky files — step logs (`steps/`),
 * the kept step files (`bin/`) and the patch. Older runs keep only their
 * `summary.md`, so every run's number, verdict and steps stay as they were
 * (numbers are ranks: removing folders would renumber every later run).
 * Never pruned: a run still in progress, the newest run of each open PR
 * (its verdict is the PR's), and a run whose id an evidence import names.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  CI_RUN,
  CI_RUNS,
  entityDir,
  entityOrder,
  evidenceImportsDir,
  loadEntityFast,
  loadEntity,
  PR,
  PRS,
  listEntityRefs,
  type Store,
} from "@forge/core";
import { readCiEnv } from "./posture.js";

/** The default of `keep_runs`. */
export const KEEP_RUNS = 200;

/**
 * Prune the bulky files of runs beyond `keep_runs`.
 * @returns the ids of the runs pruned now
 */
export async function pruneRuns(
  store: Store,
  keep: number = readCiEnv(store).settings.keepRuns ?? KEEP_RUNS
): Promise<string[]> {
  const order = await entityOrder(store, CI_RUNS, CI_RUN);
  if (order.length <= keep) return [];
  const bulky = (id: string): string[] =>
    ["steps", "bin", "patch.diff", "reports"].map((n) => join(entityDir(store, CI_RUNS, id), n));
  const old: Array<{ id: string; pr?: string; done: boolean }> = [];
  for (let i = 0; i < order.length - keep; i++) {
    const ref = order.at(i)!.ref;
    if (!bulky(ref.id).some((p) => existsSync(p))) continue; // pruned before
    try {
      const e = loadEntityFast(store, CI_RUNS, CI_RUN, ref) ?? (await loadEntity(store, CI_RUNS, CI_RUN, ref));
      old.push({ id: ref.id, pr: e.data.pr as string | undefined, done: e.data.status === "completed" });
    } catch {
      // An unreadable summary is fsck's to report; its files are left alone.
    }
  }
  if (old.length === 0) return [];
  const keepIds = new Set<string>([
    ...(await verdictRuns(store, order)),
    ...namedByEvidence(
      store,
      old.map((o) => o.id)
    ),
  ]);
  const pruned: string[] = [];
  for (const o of old) {
    if (!o.done || keepIds.has(o.id)) continue;
    for (const p of bulky(o.id)) rmSync(p, { recursive: true, force: true });
    pruned.push(o.id);
  }
  return pruned;
}

// --- internal ---

/** The newest run of each open PR. */
async function verdictRuns(store: Store, order: Awaited<ReturnType<typeof entityOrder>>): Promise<string[]> {
  const open = new Set<string>();
  for (const ref of listEntityRefs(store, PRS)) {
    if (ref.archived || ref.escapes) continue;
    try {
      const e = loadEntityFast(store, PRS, PR, ref) ?? (await loadEntity(store, PRS, PR, ref));
      if (e.data.state === "open") open.add(ref.id);
    } catch {
      // unreadable: not known to be open
    }
  }
  const newest = new Map<string, string>();
  for (let i = order.length - 1; i >= 0 && newest.size < open.size; i--) {
    const ref = order.at(i)!.ref;
    try {
      const e = loadEntityFast(store, CI_RUNS, CI_RUN, ref) ?? (await loadEntity(store, CI_RUNS, CI_RUN, ref));
      const pr = e.data.pr as string | undefined;
      if (pr && open.has(pr) && !newest.has(pr)) newest.set(pr, ref.id);
    } catch {
      // skipped
    }
  }
  return [...newest.values()];
}

/** The ids among `ids` that some evidence import file mentions. */
function namedByEvidence(store: Store, ids: string[]): string[] {
  const dir = evidenceImportsDir(store);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const left = new Set(ids);
  const found: string[] = [];
  for (const n of names) {
    let text: string;
    try {
      text = readFileSync(join(dir, n), "latin1");
    } catch {
      continue;
    }
    for (const id of left) if (text.includes(id)) (found.push(id), left.delete(id));
    if (left.size === 0) break;
  }
  return found;
}
