/**
 * gh refuses a label or milestone the repository does not define. Labels are
 * always checked: a store with no `labels.md` has GitHub's default labels, as
 * a new repository does (see loadLabelDefs). A store with no milestones
 * defined (no `milestones.md`, or an empty one) has nothing to check a
 * milestone against, so there titles are free.
 */
import { NotFoundError } from "../errors.js";
import type { IssueContext } from "./issue.js";

/**
 * Check that each added label and the milestone are defined (names match
 * ignoring case, as GitHub's do).
 * @returns the labels as they are defined (`Bug` → `bug`), as GitHub stores them
 * @throws NotFoundError naming the first undefined one (gh's messages)
 * @example checkDefined(defs, ["Bug"], "v1") // ["bug"]
 */
export function checkDefined(defs: IssueContext, labels: readonly string[], milestone?: string): string[] {
  const known = new Map([...defs.labels.keys()].map((k) => [k.toLowerCase(), k]));
  const out = labels.map((l) => {
    const k = known.get(l.toLowerCase());
    if (k === undefined) throw new NotFoundError(`could not add label: '${l.slice(0, 50)}' not found`);
    return k;
  });
  if (milestone !== undefined && defs.milestones.size) {
    const known = new Set([...defs.milestones.keys()].map((k) => k.toLowerCase()));
    if (!known.has(milestone.toLowerCase()))
      throw new NotFoundError(`could not add to milestone '${milestone.slice(0, 50)}': not found`);
  }
  return [...new Set(out)];
}
