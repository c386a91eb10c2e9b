/**
 * The store handle and the folder layout. This file is the only place that
 * knows where things live under `.forge/` (DESIGN §3).
 */
import { realpathSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { findStore, type FindStoreOptions } from "./find_store.js";
import { checkStoreVersion } from "./version.js";

/** An open store. */
export interface Store {
  /** Absolute path of `.forge/` (relative to the working folder in `statStore`'s copy, which names files to stat). */
  readonly dir: string;
  /** The folder that holds `.forge/` (the repository root, usually). */
  readonly root: string;
  /** `dir` with every symlink resolved, for prefix checks (SEC-02). */
  readonly real: string;
}

/**
 * Open the store found from `opts` (see `findStore`): one of this version
 * or the one before (N−1) is read as it is; another is refused
 * (`checkStoreVersion`).
 * @throws NotFoundError when there is no store; ForgeError for another version
 */
export function openStore(opts: FindStoreOptions = {}): Store {
  const dir = findStore(opts);
  checkStoreVersion(dir);
  return storeAt(dir);
}

/** A store handle for a known `.forge/` folder (made absolute and normalised). */
export function storeAt(dir: string): Store {
  const abs = resolve(dir);
  return { dir: abs, root: dirname(abs), real: realpathSync(abs) };
}

/** Where one kind of folder-per-entity record lives. */
export interface KindLayout {
  /** The kind's plural folder name, e.g. `issues`. */
  readonly plural: string;
  /** The owning file inside each entity folder, e.g. `issue.md`. */
  readonly file: string;
  /** The singular noun, for messages. */
  readonly noun: string;
}

/** Issues: `.forge/issues/<id>/issue.md`. */
export const ISSUES: KindLayout = { plural: "issues", file: "issue.md", noun: "issue" };

/**
 * The store as a walk's stats name it: `dir` relative to the working folder
 * when it lies under it, else the store itself. The kernel resolves each
 * name of a path: an lstat of `.forge/issues/<id>/issue.md` took 4.2–4.5 µs
 * here, of the same file by its absolute path (4 names more) 4.6–5.3, and a
 * walk over 100,000 issues stats 100,000–300,000 paths. For stats and reads
 * within one command only: no forge command changes its working folder,
 * and a path it prints or writes stays absolute (`store`'s).
 * @param cwd the working folder (default: the process's)
 */
export function statStore(store: Store, cwd?: string): Store {
  let from = cwd;
  try {
    from ??= process.cwd();
  } catch {
    return store;
  }
  return store.dir.startsWith(from + sep) ? { ...store, dir: store.dir.slice(from.length + 1) } : store;
}

/** The live folder of a kind. */
export function kindDir(store: Store, kind: KindLayout): string {
  // Concatenation: `store.dir` is normalised (storeAt) and the names are plain (list calls this per file).
  return store.dir + sep + kind.plural;
}

/** The archive folder of a kind (`.forge/archive/<kind>/`). */
export function archiveDir(store: Store, kind: KindLayout): string {
  return store.dir + sep + "archive" + sep + kind.plural;
}

/** The folder of one entity, live or archived. */
export function entityDir(store: Store, kind: KindLayout, id: string, archived = false): string {
  const base = archived ? archiveDir(store, kind) : kindDir(store, kind);
  // A plain name (no separator, not `.`, `..` or empty: every uuid) needs no normalising: concatenation is
  // join() without its cost, and without a pattern test (list and observe call this 10,000 times).
  return id.length > 2 && !id.includes("/") && !id.includes(sep) ? base + sep + id : join(base, id);
}

/** The owning file of one entity. */
export function entityFile(store: Store, kind: KindLayout, id: string, archived = false): string {
  return entityDir(store, kind, id, archived) + sep + kind.file;
}

/** The append-only comments folder of one entity. */
export function commentsDir(store: Store, kind: KindLayout, id: string, archived = false): string {
  return join(entityDir(store, kind, id, archived), "comments");
}

/** A pull request's patch (`git format-patch` output): `prs/<id>/patch.diff`. */
export function patchFile(store: Store, kind: KindLayout, id: string, archived = false): string {
  return entityDir(store, kind, id, archived) + sep + "patch.diff";
}

/** `ci/ci.env`, the non-secret CI settings (and the default PR base). */
export function ciEnvFile(store: Store): string {
  return join(store.dir, "ci", "ci.env");
}

/** `ci/steps/`: the CI steps, executables named `NN-name`, run in filename order. */
export function ciStepsDir(store: Store): string {
  return join(store.dir, "ci", "steps");
}

/** CI runs: `.forge/ci/runs/<id>/summary.md` (machine state, gitignored), numbered like every kind. */
export const CI_RUNS: KindLayout = { plural: "ci" + sep + "runs", file: "summary.md", noun: "run" };

/** `merges/`: one `<id>.md` record per merge attempt (merged, conflict, red CI). */
export function mergesDir(store: Store): string {
  return join(store.dir, "merges");
}

/** One merge record: `merges/<id>.md`. */
export function mergeFile(store: Store, id: string): string {
  return join(mergesDir(store), `${id}.md`);
}

/** `merges/imports/`: one `<id>.md` record per `forge-merge import` that brought something in or met a conflict. */
export function importsDir(store: Store): string {
  return join(store.dir, "merges", "imports");
}

/** One import record: `merges/imports/<id>.md`. */
export function importFile(store: Store, id: string): string {
  return join(importsDir(store), `${id}.md`);
}

/** `labels.md`, the label definitions. */
export function labelsFile(store: Store): string {
  return join(store.dir, "labels.md");
}

/** `milestones.md`, the milestone definitions. */
export function milestonesFile(store: Store): string {
  return join(store.dir, "milestones.md");
}

/** `wiki/`, the wiki's pages (markdown files at any depth). */
export function wikiDir(store: Store): string {
  return join(store.dir, "wiki");
}

/** `releases/`, one `<tag>.md` per release. */
export function releasesDir(store: Store): string {
  return join(store.dir, "releases");
}

/**
 * `releases/<tag>.md`, one release. The tag must already be checked
 * (`isReleaseTag`): a tag is a single path segment.
 */
export function releaseFile(store: Store, tag: string): string {
  return join(store.dir, "releases", `${tag}.md`);
}

/** `releases/build/`, the build steps (read from the tagged commit's tree). */
export function releaseBuildDir(store: Store): string {
  return join(store.dir, "releases", "build");
}

/** `releases/out/`, built artifacts (machine state, gitignored). */
export function releaseOutRoot(store: Store): string {
  return join(store.dir, "releases", "out");
}

/** `releases/out/<tag>/`, one release's artifacts (the build's `OUT`). */
export function releaseOutDir(store: Store, tag: string): string {
  return join(store.dir, "releases", "out", tag);
}

/** `evidence/imports/`, the canonical import log (append-only, one file per batch). */
export function evidenceImportsDir(store: Store): string {
  return join(store.dir, "evidence", "imports");
}

/** `evidence/imports/<batch>.json`, one import. The batch id must already be checked (64 hex). */
export function evidenceImportFile(store: Store, batchId: string): string {
  return join(store.dir, "evidence", "imports", `${batchId}.json`);
}

/** The rebuildable cache folder (self-ignoring; deleting it changes no answer). */
export function cacheDir(store: Store): string {
  return join(store.dir, ".cache");
}

// "//", "/./", "/../", or a trailing "/", "/." or "/..": a path relative() would normalise.
const NOT_NORMAL = /\/\.{0,2}(?:\/|$)/;

/**
 * A path for messages: relative to the repository root, e.g.
 * `.forge/issues/<id>/issue.md`. Never absolute, so errors do not leak the
 * machine's layout (SEC-10).
 */
export function displayPath(store: Store, abs: string): string {
  // Fast path: a normalised path under the root is the root plus "/" plus the answer.
  const n = store.root.length;
  if (sep === "/" && abs.charCodeAt(n) === 47 && abs.startsWith(store.root) && !NOT_NORMAL.test(abs))
    return abs.slice(n + 1);
  const r = relative(store.root, abs);
  return sep === "/" ? r : r.split(sep).join("/");
}

/**
 * Whether `real` (a realpath) is inside the store.
 * @example isInside(store, store.real + "/issues") // true
 */
export function isInside(store: Store, real: string): boolean {
  return real === store.real || real.startsWith(store.real + sep);
}
