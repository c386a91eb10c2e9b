/**
 * The lane refuses what is not this store's (spec/evidence.md, "Provenance"):
 * an act result's trials live in this store's CI run records (`run_id`), so
 * every run it names must be one (live or archived); the PR it names must
 * be one of this store's; and every step it names, as every step of a CI
 * run record, must be a step's name (`NN-name`), never a path. A result
 * made in another repository is refused with the field that gives it away,
 * and nothing is written.
 */
import { existsSync } from "node:fs";
import { CI_RUNS, entityFile, isCiStepName, isUuid, type KindLayout, printable, PRS, type Store } from "@forge/core";
import { type Rec, RecordError, splitCheck } from "@forge/contract";

/**
 * Check the references of an act result record (already parsed by the lane: only its references are read here).
 * @throws RecordError naming the field
 */
export function checkActProvenance(store: Store, v: Rec): void {
  const lists: Array<[string, string]> = [
    ["trial_refs", "step"],
    ["trials", "step"],
    ["typed_diff", "check"],
  ];
  for (const [list, stepKey] of lists) {
    const xs = v[list];
    if (!Array.isArray(xs)) continue;
    for (const [i, x] of xs.entries()) {
      if (x === null || typeof x !== "object") continue;
      const r = x as Rec;
      // A trial's step or a typed diff's check is a step or `<step> › <test>` (tests are checks): its step part is
      // the step's name.
      const named = r[stepKey];
      stepName(typeof named === "string" ? splitCheck(named).step : named, `${list}[${i}].${stepKey}`);
      if (list !== "typed_diff" && r.run_id !== null && r.run_id !== undefined)
        ours(store, CI_RUNS, r.run_id, `${list}[${i}].run_id`, "CI run");
    }
  }
  const pr = v.pr as Rec | null | undefined;
  if (pr !== null && typeof pr === "object" && pr.id !== null && pr.id !== undefined)
    ours(store, PRS, pr.id, "pr.id", "pull request");
}

/**
 * A step's name as a CI run record gives it: `NN-name`.
 * @throws RecordError naming the field
 */
export function stepName(name: unknown, field: string): void {
  if (typeof name === "string" && isCiStepName(name)) return;
  const shown = typeof name === "string" ? `'${printable(name, 40)}'` : typeof name;
  throw new RecordError(field, `${shown} is not a step name (NN-name, like 10-test)`);
}

function ours(store: Store, kind: KindLayout, id: unknown, field: string, noun: string): void {
  const shown = typeof id === "string" ? printable(id, 40) : typeof id;
  if (typeof id !== "string" || !isUuid(id)) throw new RecordError(field, `expected a uuid, got ${shown}`);
  if (existsSync(entityFile(store, kind, id)) || existsSync(entityFile(store, kind, id, true))) return;
  throw new RecordError(field, `no ${noun} ${id} in this store (a record of another store is not evidence here)`);
}
