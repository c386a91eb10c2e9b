/**
 * gh refuses a label or milestone the repository does not define. A store
 * with no definitions at all (no `labels.md` / `milestones.md`, or empty
 * ones) has nothing to check against, so there names are free.
 */
import { NotFoundError } from "../errors.js";
import type { IssueContext } from "./issue.js";

/**
 * Check that each added label and the milestone are defined (names match
 * ignoring case, as GitHub's do).
 * @throws NotFoundError naming the first undefined one (gh's messages)
 * @example checkDefined(defs, ["bug"], "v1")
 */
export function checkDefined(defs: IssueContext, labels: readonly string[], milestone?: string): void {
  if (defs.labels.size) {
    const known = new Set([...defs.labels.keys()].map((k) => k.toLowerCase()));
    for (const l of labels)
      if (!known.has(l.toLowerCase())) throw new NotFoundError(`could not add label: '${l.slice(0, 50)}' not found`);
  }
  if (milestone !== undefined && defs.milestones.size) {
    const known = new Set([...defs.milestones.keys()].map((k) => k.toLowerCase()));
    if (!known.has(milestone.toLowerCase()))
      throw new NotFoundError(`could not add to milestone '${milestone.slice(0, 50)}': not found`);
  }
}
