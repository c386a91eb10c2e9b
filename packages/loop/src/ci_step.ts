/**
 * A claim naming a CI step (`ci:<step>`) is read from the forge-ci runs of
 * the store at the loop's code tree: the latest completed run (no PR patch)
 * whose commit has the same code tree as the workspace. No such run, or a
 * step that did not finish, is `unavailable`, never a pass.
 *
 * Each run record is read as forge-ci reads it (validated, its
 * `recordSha256` seal checked). A damaged one is named
 * (`unreadable:run:<id>: <why>`) and, while it is there, the step is
 * `unavailable`: which run is the latest at this tree, and what it says,
 * cannot be known, so no other run's answer stands in for it.
 */
import {
  CI_RUN,
  CI_RUNS,
  codeTree,
  listEntityRefs,
  loadEntity,
  loadEntityFast,
  printable,
  type EntityRef,
  type Store,
} from "@forge/core";

/** What the store's CI says about one step at a tree. */
export interface CiStepResult {
  observed: "passed" | "failed" | "unavailable";
  runId: string | null;
  exitCode: number | null;
  durationMs: number | null;
  /** One line per damaged run record (`unreadable:run:<id>: <why>`), sorted; when any, `observed` is `unavailable`. */
  unreadable: string[];
}

/**
 * The latest outcome of `step` at code tree `tree`.
 * @param trees a cache of commit → code tree for this call's runs
 */
export async function ciStepAt(
  store: Store,
  step: string,
  tree: string | null,
  env: Record<string, string | undefined>,
  trees: Map<string, string | null>
): Promise<CiStepResult> {
  const none = (unreadable: string[] = []): CiStepResult => ({
    observed: "unavailable",
    runId: null,
    exitCode: null,
    durationMs: null,
    unreadable,
  });
  if (tree === null) return none();
  const unreadable: string[] = [];
  let best: { at: string; r: CiStepResult } | null = null;
  for (const ref of listEntityRefs(store, CI_RUNS).filter((x) => !x.archived)) {
    const d = await runData(store, ref, unreadable);
    if (
      d === null ||
      d.status !== "completed" ||
      d.pr ||
      d.patchSha256 ||
      typeof d.headSha !== "string" ||
      typeof d.createdAt !== "string"
    )
      continue;
    const steps = Array.isArray(d.steps) ? (d.steps as Array<Record<string, unknown>>) : [];
    const s = steps.find((x) => x.name === step);
    if (!s) continue;
    if (!trees.has(d.headSha)) {
      // A commit this repository does not have (any more) has no code tree here.
      trees.set(d.headSha, await codeTree(store.root, d.headSha, env as NodeJS.ProcessEnv).catch(() => null));
    }
    if (trees.get(d.headSha) !== tree) continue;
    const observed =
      s.outcome === "pass" ? "passed" : s.outcome === "fail" || s.outcome === "timeout" ? "failed" : "unavailable";
    const r: CiStepResult = {
      observed,
      runId: ref.id,
      exitCode: typeof s.exitCode === "number" ? s.exitCode : null,
      durationMs: typeof s.durationMs === "number" ? s.durationMs : null,
      unreadable,
    };
    if (!best || d.createdAt > best.at || (d.createdAt === best.at && ref.id > best.r.runId!))
      best = { at: d.createdAt, r };
  }
  if (unreadable.length) return none(unreadable.sort());
  return best?.r ?? none();
}

/** A run's checked fields, or null (its line added to `unreadable`) when the record is damaged or unreadable. */
async function runData(store: Store, ref: EntityRef, unreadable: string[]): Promise<Record<string, unknown> | null> {
  try {
    return (loadEntityFast(store, CI_RUNS, CI_RUN, ref) ?? (await loadEntity(store, CI_RUNS, CI_RUN, ref))).data;
  } catch (err) {
    unreadable.push(`unreadable:run:${ref.id}: ${printable(err instanceof Error ? err.message : String(err), 300)}`);
    return null;
  }
}
