import { lstatSync } from "node:fs";
import { join } from "node:path";
import { ConflictError, NotFoundError } from "../errors.js";
import { checkedCache, readCacheFile, writeCacheFile, writeCacheLater } from "../store/cache_file.js";
import { fileStamp } from "../store/stamp.js";
import { cacheDir, displayPath, labelsFile, milestonesFile, type Store } from "../store/store.js";
import { withLock } from "../store/lock.js";
import { readStoreFile } from "../store/read_file.js";
import { loadFile } from "./load.js";
import { LABELS, MILESTONES, validate } from "./schema.js";
import { writeChecked } from "./write.js";

/** A label definition from `labels.md` (gh `label list --json` shape). */
export interface LabelDef {
  name: string;
  color: string;
  description: string;
}

/** A milestone definition from `milestones.md`. */
export interface MilestoneDef {
  /** Its place in `milestones.md`, from 1 (what forge-milestone calls its number). */
  number: number;
  title: string;
  description: string;
  dueOn: string | null;
  state: "OPEN" | "CLOSED";
}

/**
 * The labels a new GitHub repository starts with (names, colours and
 * descriptions as GitHub makes them). A store with no `labels.md` has these,
 * as a new repository does; the first label verb that writes `labels.md`
 * writes them into it, so nothing a user saw vanishes.
 */
export const GITHUB_DEFAULT_LABELS: readonly Readonly<LabelDef>[] = [
  { name: "bug", color: "d73a4a", description: "Something isn't working" },
  { name: "documentation", color: "0075ca", description: "Improvements or additions to documentation" },
  { name: "duplicate", color: "cfd3d7", description: "This issue or pull request already exists" },
  { name: "enhancement", color: "a2eeef", description: "New feature or request" },
  { name: "good first issue", color: "7057ff", description: "Good for newcomers" },
  { name: "help wanted", color: "008672", description: "Extra attention is needed" },
  { name: "invalid", color: "e4e669", description: "This doesn't seem right" },
  { name: "question", color: "d876e3", description: "Further information is requested" },
  { name: "wontfix", color: "ffffff", description: "This will not be worked on" },
];

/**
 * The label definitions; an absent `labels.md` means GitHub's default labels.
 * @throws InvalidFileError when the file is invalid
 */
export async function loadLabelDefs(store: Store): Promise<Map<string, LabelDef>> {
  const defs = await cachedDefs(store, "labels", async () => {
    const m = new Map<string, LabelDef>();
    for (const l of (await loadDefList(store, "labels")).items) {
      const name = String(l.name);
      m.set(name, {
        name,
        color: (l.color as string | undefined) ?? "",
        description: (l.description as string | undefined) ?? "",
      });
    }
    return [...m.values()];
  });
  return new Map(defs.map((l) => [l.name, l]));
}

/**
 * The milestone definitions; an absent `milestones.md` means none.
 * @throws InvalidFileError when the file is invalid
 */
export async function loadMilestoneDefs(store: Store): Promise<Map<string, MilestoneDef>> {
  const defs = await cachedDefs(store, "milestones", async () => {
    const m = new Map<string, MilestoneDef>();
    for (const x of (await loadDefList(store, "milestones")).items) {
      const title = String(x.title);
      m.set(title, {
        number: m.size + 1,
        title,
        description: (x.description as string | undefined) ?? "",
        dueOn: (x.dueOn as string | undefined) ?? null,
        state: x.state === "closed" ? "CLOSED" : "OPEN",
      });
    }
    return [...m.values()];
  });
  return new Map(defs.map((d) => [d.title, d]));
}

/** The first line of a definitions cache (`cachedDefs`). */
const DEFS_MAGIC = "forge-defs 1";

/**
 * A definition file's definitions as `parse` makes them, from
 * `.forge/.cache/<labels|milestones>.defs` while the file's key
 * (`fileStamp`) is the one they were made under; else parsed, and the cache
 * written after the answer is out. Parsing `labels.md` was ~1.5 ms of a
 * 25 ms `list | head -1`. An absent or symlinked file, or one that changed
 * too lately to vouch, is parsed as ever; deleting the cache changes no answer.
 */
async function cachedDefs<T>(store: Store, key: "labels" | "milestones", parse: () => Promise<T[]>): Promise<T[]> {
  const now = Date.now();
  let stamp: string | null = null;
  try {
    const st = lstatSync(key === "labels" ? labelsFile(store) : milestonesFile(store));
    if (st.isFile()) stamp = fileStamp(st, now);
  } catch {
    // absent: GitHub's default labels, or no milestones
  }
  if (stamp === null) return parse();
  const cache = join(cacheDir(store), `${key}.defs`);
  const text = readCacheFile(cache, DEFS_MAGIC, 4 << 20);
  const nl = text?.indexOf("\n") ?? -1;
  if (text !== undefined && nl > 0 && text.slice(0, nl) === stamp) return JSON.parse(text.slice(nl + 1)) as T[];
  const defs = await parse();
  writeCacheLater(() => writeCacheFile(cache, checkedCache(DEFS_MAGIC, `${stamp}\n${JSON.stringify(defs)}`)));
  return defs;
}

/** A definition file (`labels.md` or `milestones.md`) as read, for a rewrite. */
export interface DefList {
  /** The file's path. */
  readonly path: string;
  /** The items, known fields in schema order, unknown item fields kept. */
  readonly items: Array<Record<string, unknown>>;
  /** Unknown top-level fields and the body, kept by `saveDefList`. */
  readonly extra: Record<string, unknown>;
  readonly body: string;
  /** Unknown-field warnings, for stderr. */
  readonly warnings: string[];
  /** The file's text as read (undefined when absent): a save refuses if it changed since. */
  readonly text?: string | undefined;
}

/**
 * Read `labels.md` or `milestones.md` for a read-modify-write; an absent
 * `milestones.md` is an empty list, an absent `labels.md` GitHub's default
 * labels (`text` undefined says the file is absent). Hand-edited YAML
 * outside the canonical form is read by the general engine and written back
 * canonically.
 * @throws InvalidFileError when the file is invalid
 */
export async function loadDefList(store: Store, key: "labels" | "milestones"): Promise<DefList> {
  const path = key === "labels" ? labelsFile(store) : milestonesFile(store);
  try {
    const f = await loadFile(store, key === "labels" ? LABELS : MILESTONES, path);
    return {
      path,
      items: f.data[key] as Array<Record<string, unknown>>,
      extra: f.extra,
      body: f.body,
      warnings: f.warnings,
      text: f.text,
    };
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    const items = key === "labels" ? GITHUB_DEFAULT_LABELS.map((l) => ({ ...l })) : [];
    return { path, items, extra: {}, body: "", warnings: [], text: undefined };
  }
}

/**
 * Write a definition file back with new items, atomically, in canonical form:
 * each item's fields in schema order, unknown fields and the body kept.
 * @throws InvalidFileError when an item is invalid (nothing is written)
 */
export function saveDefList(
  store: Store,
  key: "labels" | "milestones",
  list: DefList,
  items: Array<Record<string, unknown>>
): void {
  const schema = key === "labels" ? LABELS : MILESTONES;
  // Checked as a reader would check it, so a write never leaves a file every command then refuses.
  const file = displayPath(store, list.path);
  const v = validate(schema, { [key]: items }, file);
  // Under the file's lock, and only if nobody wrote it since it was read (no lost update).
  withLock(
    list.path,
    () => {
      let now: string | undefined;
      try {
        now = readStoreFile(store, list.path);
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
      if (list.text !== undefined && now !== list.text)
        throw new ConflictError(`${file} changed while this command ran; run it again`);
      writeChecked(schema, list.path, file, { data: v.data, extra: list.extra, body: list.body, source: now });
    },
    { file }
  );
}

/**
 * A definition file being edited (labels.md or milestones.md): the items as
 * they will be written, lookup by name ignoring case (GitHub's names are
 * case-insensitive), and an atomic save. Subclassed by forge-label and
 * forge-milestone, which open it and add their own lookups.
 */
export class DefFile {
  readonly store: Store;
  readonly list: DefList;
  /** The items as they will be written. */
  items: Array<Record<string, unknown>>;
  readonly #key: "labels" | "milestones";
  readonly #field: string;
  readonly #noun: string;
  protected constructor(store: Store, key: "labels" | "milestones", list: DefList) {
    this.store = store;
    this.list = list;
    this.items = list.items.map((x) => ({ ...x }));
    this.#key = key;
    this.#field = key === "labels" ? "name" : "title";
    this.#noun = key === "labels" ? "label" : "milestone";
  }
  /** The index of the item named `name`: exact, else equal but for case; -1 when none. */
  find(name: string): number {
    const f = this.#field;
    const exact = this.items.findIndex((x) => x[f] === name);
    if (exact >= 0) return exact;
    const low = name.toLowerCase();
    return this.items.findIndex((x) => String(x[f]).toLowerCase() === low);
  }
  /**
   * Refuse a name another item has already (ignoring case), except `self`.
   * @throws ConflictError
   */
  checkFree(name: string, self = -1): void {
    const i = this.find(name);
    const q = JSON.stringify(String(this.items[i]?.[this.#field]));
    if (i >= 0 && i !== self)
      throw new ConflictError(`${this.#noun === "label" ? `label with name ${q}` : `milestone ${q}`} already exists`);
  }
  /** Write the file atomically, in canonical form. */
  save(): void {
    saveDefList(this.store, this.#key, this.list, this.items);
  }
}
