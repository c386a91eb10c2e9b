import { NotFoundError } from "../errors.js";
import { labelsFile, milestonesFile, type Store } from "../store/store.js";
import { loadFile } from "./load.js";
import { LABELS, MILESTONES } from "./schema.js";

/** A label definition from `labels.md` (gh `label list --json` shape). */
export interface LabelDef {
  name: string;
  color: string;
  description: string;
}

/** A milestone definition from `milestones.md`. */
export interface MilestoneDef {
  title: string;
  description: string;
  dueOn: string | null;
  state: "OPEN" | "CLOSED";
}

/**
 * The label definitions; an absent `labels.md` means none.
 * @throws InvalidFileError when the file is invalid
 */
export async function loadLabelDefs(store: Store): Promise<Map<string, LabelDef>> {
  const m = new Map<string, LabelDef>();
  for (const l of await loadList(store, labelsFile(store), "labels")) {
    const name = String(l.name);
    m.set(name, { name, color: (l.color as string | undefined) ?? "", description: (l.description as string | undefined) ?? "" });
  }
  return m;
}

/**
 * The milestone definitions; an absent `milestones.md` means none.
 * @throws InvalidFileError when the file is invalid
 */
export async function loadMilestoneDefs(store: Store): Promise<Map<string, MilestoneDef>> {
  const m = new Map<string, MilestoneDef>();
  for (const x of await loadList(store, milestonesFile(store), "milestones")) {
    const title = String(x.title);
    m.set(title, {
      title,
      description: (x.description as string | undefined) ?? "",
      dueOn: (x.dueOn as string | undefined) ?? null,
      state: x.state === "closed" ? "CLOSED" : "OPEN",
    });
  }
  return m;
}

async function loadList(store: Store, path: string, key: "labels" | "milestones"): Promise<Array<Record<string, unknown>>> {
  try {
    const f = await loadFile(store, key === "labels" ? LABELS : MILESTONES, path);
    return f.data[key] as Array<Record<string, unknown>>;
  } catch (err) {
    if (err instanceof NotFoundError) return [];
    throw err;
  }
}
