/**
 * gh renames a label everywhere: every issue and pull request that carries
 * the old name gets the new one, each file rewritten atomically on its own;
 * and a deleted label leaves every issue and pull request.
 */
import { entityOrder, ISSUE, ISSUES, loadEntity, PR, PRS, updateEntity, type Store } from "@forge/core";

/**
 * Replace `from` by `to` in the labels of every issue and PR (archived
 * ones too), keeping each list's order and dropping a duplicate.
 * @returns how many files changed
 */
export async function renameLabelEverywhere(store: Store, from: string, to: string): Promise<number> {
  let changed = 0;
  for (const [kind, schema] of [
    [ISSUES, ISSUE],
    [PRS, PR],
  ] as const) {
    const order = await entityOrder(store, kind, schema);
    for (const e of order.entries) {
      const ent = await loadEntity(store, kind, schema, e.ref);
      const labels = ent.data.labels as string[];
      if (!labels.includes(from)) continue;
      updateEntity(schema, ent, (d) => {
        d.labels = [...new Set(labels.map((l) => (l === from ? to : l)))];
      });
      changed++;
    }
  }
  return changed;
}

/**
 * Take `name` off every issue and PR that carries it (archived ones too), as
 * gh's `label delete` does: matched in any case, as label names are.
 * @returns how many files changed
 */
export async function removeLabelEverywhere(store: Store, name: string): Promise<number> {
  const key = name.toLowerCase();
  let changed = 0;
  for (const [kind, schema] of [
    [ISSUES, ISSUE],
    [PRS, PR],
  ] as const) {
    const order = await entityOrder(store, kind, schema);
    for (const e of order.entries) {
      const ent = await loadEntity(store, kind, schema, e.ref);
      const labels = ent.data.labels as string[];
      if (!labels.some((l) => l.toLowerCase() === key)) continue;
      updateEntity(schema, ent, (d) => {
        d.labels = labels.filter((l) => l.toLowerCase() !== key);
      });
      changed++;
    }
  }
  return changed;
}
