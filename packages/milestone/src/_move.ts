/**
 * A renamed milestone takes its issues and pull requests with it, as in gh
 * (where they point at the milestone, not at its title): each one naming
 * the old title is rewritten atomically, on its own, to name the new one.
 */
import { entityOrder, ISSUE, ISSUES, loadEntity, PR, PRS, updateEntity, type Store } from "@forge/core";

/**
 * Replace the milestone `from` by `to` on every issue and PR (archived ones
 * too) that names it.
 * @returns how many files changed
 */
export async function moveMilestoneEverywhere(store: Store, from: string, to: string): Promise<number> {
  let changed = 0;
  for (const [kind, schema] of [
    [ISSUES, ISSUE],
    [PRS, PR],
  ] as const) {
    const order = await entityOrder(store, kind, schema);
    for (const e of order.entries) {
      const ent = await loadEntity(store, kind, schema, e.ref);
      if (ent.data.milestone !== from) continue;
      updateEntity(schema, ent, (d) => {
        d.milestone = to;
      });
      changed++;
    }
  }
  return changed;
}
