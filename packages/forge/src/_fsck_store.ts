/**
 * The checks of `forge fsck`, like `git fsck`: every file of the store
 * against schema v1 and the evidence log against spec/evidence.md, the refs
 * between them, duplicate ids, stray temp and lock files, the order cache
 * against the folders, and forge-loop's loops as forge-loop checks them.
 * Reads only; yields one problem per finding.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { isUuid, parseFrontmatterFast, readStoreFile, git } from "@forge/core";
import { join } from "node:path";
import {
  CI_RUN,
  CI_RUNS,
  COMMENT,
  EDIT,
  displayPath,
  entityFile,
  evidenceImportFile,
  IMPORT_RECORD,
  importsDir,
  isForgeError,
  ISSUE,
  ISSUES,
  listEntityRefs,
  listReleaseTags,
  loadDefList,
  loadEntity,
  loadFile,
  loadRelease,
  MERGE_RECORD,
  mergesDir,
  PR,
  PR_REVIEW,
  printable,
  PRS,
  readPatch,
  STORE_VERSION,
  storeVersion,
  TASK,
  TASKS,
  cacheDir,
  folderStamp,
  kindDir,
  archiveDir,
  type EntitySchema,
  type KindLayout,
  type LoadedEntity,
  type Store,
} from "@forge/core";
import { loadLoop, loopIds, loopPaths, StorageCorruptionError } from "@forge/contract/loop";
import { importIds, packNames, readImportFile, readPackFile } from "@forge/evidence";
import { issueLinks } from "./_fsck_links.js";

/** One finding: the file (relative to the repo) and what is wrong. */
export interface Problem {
  file: string;
  problem: string;
}

const KINDS: Array<{ kind: KindLayout; schema: EntitySchema; records: Array<[string, EntitySchema]> }> = [
  {
    kind: ISSUES,
    schema: ISSUE,
    records: [
      ["comments", COMMENT],
      ["edits", EDIT],
    ],
  },
  {
    kind: PRS,
    schema: PR,
    records: [
      ["comments", COMMENT],
      ["reviews", PR_REVIEW],
      ["edits", EDIT],
    ],
  },
  { kind: TASKS, schema: TASK, records: [] },
];

/** A temp file or folder of an atomic write, or a lock (`<file>.lock`, a lock set aside while broken). */
export const STRAY = /^\..+\.tmp$|\.tmp$|\.lock$|\.stale$/;

/**
 * Every problem of the store, in a stable order (by check, then path).
 * @param store the store (opened without the version check: fsck reports it)
 */
export async function* fsckStore(store: Store): AsyncGenerator<Problem> {
  const show = (abs: string): string => displayPath(store, abs);
  const bad = (abs: string, err: unknown): Problem => ({ file: show(abs), problem: problemOf(store, err) });
  try {
    const v = storeVersion(store.dir);
    // N−1 is read as it is (every command does): a valid older store is no finding; `forge migrate` is a choice.
    if (v > STORE_VERSION)
      yield {
        file: show(join(store.dir, "version")),
        problem: `store version ${v}, newer than this forge reads (${STORE_VERSION}): upgrade forge`,
      };
    else if (v < STORE_VERSION - 1)
      yield {
        file: show(join(store.dir, "version")),
        problem: `store version ${v}, this forge reads ${STORE_VERSION - 1} and ${STORE_VERSION}: migrate it first`,
      };
  } catch (err) {
    yield bad(join(store.dir, "version"), err);
  }
  const ids = new Map<string, string>();
  const prIds = new Set<string>();
  for (const { kind, schema, records } of KINDS) {
    const refs = listEntityRefs(store, kind);
    const seen = new Set<string>();
    for (const dir of [kindDir(store, kind), archiveDir(store, kind)]) {
      for (const name of names(dir)) {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(name) && !STRAY.test(name)) {
          yield { file: show(join(dir, name)), problem: `not an entity folder (the name is not a uuid)` };
        }
      }
    }
    for (const ref of refs) {
      const file = entityFile(store, kind, ref.id, ref.archived);
      const other = entityFile(store, kind, ref.id, !ref.archived);
      if (exists(file) && exists(other))
        yield {
          file: show(ref.archived ? other : file),
          problem: `duplicate id: also archived as ${show(ref.archived ? file : other)}`,
        };
      const was = ids.get(ref.id);
      if (was !== undefined && was !== kind.plural)
        yield { file: show(file), problem: `duplicate id: also used by ${was}` };
      ids.set(ref.id, kind.plural);
      seen.add(ref.id);
      let e: LoadedEntity | undefined;
      if (!exists(file)) {
        // A live folder left with only records after a merge archived the entity elsewhere is read with it.
        if (!(!ref.archived && exists(other)))
          yield { file: show(file), problem: `missing: the ${kind.noun}'s records have no ${kind.file}` };
      } else {
        try {
          e = await loadEntity(store, kind, schema, ref);
        } catch (err) {
          yield bad(file, err);
        }
      }
      if (e && kind === PRS) {
        prIds.add(ref.id);
        try {
          readPatch(store, e);
        } catch (err) {
          yield bad(join(file, "..", "patch.diff"), err);
        }
      }
      // An archived entity's live folder can hold records too (a merge left them there): read as its own.
      const dirs = ref.archived ? [join(file, ".."), join(other, "..")] : [join(file, "..")];
      for (const [sub, rs] of records)
        for (const dir of dirs.map((d) => join(d, sub))) {
          for (const n of names(dir)) {
            if (STRAY.test(n)) continue;
            const path = join(dir, n);
            if (!/^[0-9a-f-]{36}\.md$/.test(n)) {
              yield { file: show(path), problem: "not a record file (expected <uuid>.md)" };
              continue;
            }
            try {
              const r = await loadFile(store, rs, path);
              if (r.data.id !== n.slice(0, -3))
                yield { file: show(path), problem: "field 'id': does not match the file name" };
            } catch (err) {
              yield bad(path, err);
            }
          }
        }
    }
    yield* orderCache(store, kind, schema, show);
  }
  yield* issueLinks(store);
  for (const [key, file] of [
    ["labels", "labels.md"],
    ["milestones", "milestones.md"],
  ] as const) {
    try {
      const list = await loadDefList(store, key);
      if (key === "labels") yield* labelColors(list.items, show(join(store.dir, file)));
    } catch (err) {
      yield bad(join(store.dir, file), err);
    }
  }
  yield* flatRecords(store, mergesDir(store), MERGE_RECORD, show, (d, path) =>
    prIds.has(d.pr as string) ? undefined : { file: show(path), problem: `field 'pr': no pull request ${String(d.pr)}` }
  );
  yield* flatRecords(store, importsDir(store), IMPORT_RECORD, show);
  for (const tag of safe(() => listReleaseTags(store), [])) {
    try {
      await loadRelease(store, tag);
    } catch (err) {
      yield bad(join(store.dir, "releases", `${tag}.md`), err);
    }
  }
  for (const ref of safe(() => listEntityRefs(store, CI_RUNS), [])) {
    try {
      await loadEntity(store, CI_RUNS, CI_RUN, ref);
    } catch (err) {
      yield bad(entityFile(store, CI_RUNS, ref.id, ref.archived), err);
    }
  }
  // forge-loop's loops, checked as forge-loop reads them (the hash chain of events.jsonl, loop.md's hashes and head).
  for (const id of safe(() => loopIds(store), [])) {
    try {
      await loadLoop(store, id);
    } catch (err) {
      if (err instanceof StorageCorruptionError) yield { file: err.file, problem: err.why };
      else yield bad(loopPaths(store, id).md, err);
    }
  }
  // Each import file on its own: one bad file is named, the others are still checked.
  for (const id of safe(() => importIds(store).sort(), [])) {
    try {
      const { record, damage } = readImportFile(store, id);
      // Readers go on with a marker (the degradation law); fsck names the file.
      if (damage) yield { file: show(evidenceImportFile(store, id)), problem: damage };
      const refs = record.batch.evidence_refs;
      for (const [i, r] of (Array.isArray(refs) ? refs : []).entries()) {
        const why = refProblem(store, r);
        if (why)
          yield { file: show(evidenceImportFile(store, id)), problem: `field 'batch.evidence_refs[${i}]': ${why}` };
      }
    } catch (err) {
      const f = (err as { file?: unknown } | null)?.file;
      yield { file: typeof f === "string" ? f : show(evidenceImportFile(store, id)), problem: problemOf(store, err) };
    }
  }
  yield* experience(store, show);
  // Packs (evidence compaction): each checked whole by its digest, then each record as a loose file's.
  const packed = new Set<string>();
  for (const name of safe(() => packNames(store), [])) {
    const file = show(join(store.dir, "evidence", "imports", name));
    try {
      const { records, damage } = readPackFile(store, name);
      for (const r of records) packed.add(`evidence/imports/${r.batch_id}.json`);
      for (const d of damage) yield { file, problem: d };
      for (const [k, rec] of records.entries()) {
        const refs = rec.batch.evidence_refs;
        for (const [i, r] of (Array.isArray(refs) ? refs : []).entries()) {
          const why = refProblem(store, r);
          if (why) yield { file, problem: `records[${k}]: field 'batch.evidence_refs[${i}]': ${why}` };
        }
      }
    } catch (err) {
      yield { file, problem: problemOf(store, err) };
    }
  }
  yield* deletedFiles(store, packed);
  for (const name of names(join(store.dir, "evidence", "imports"))) {
    if (!/^(pack-)?[0-9a-f]{64}\.json$/.test(name) && !STRAY.test(name))
      yield {
        file: show(join(store.dir, "evidence", "imports", name)),
        problem: "not an import file (expected <batch_id>.json, 64 hex)",
      };
  }
  for (const path of strays(store.dir))
    yield {
      file: show(path),
      problem: path.endsWith(".tmp")
        ? "stray temp file of an interrupted write (forge fsck --prune-temp removes it)"
        : path.endsWith(".stale")
          ? "a broken lock set aside by an interrupted lock break (forge fsck --prune-temp removes it)"
          : "stray lock file (a writer died or is still running)",
    };
}

/**
 * Temp and lock files anywhere in the store (the cache excepted), oldest path order.
 * @param dir the `.forge` folder
 */
export function strays(dir: string): string[] {
  const out: string[] = [];
  const ciCache = join(dir, "ci", "cache");
  const walk = (d: string): void => {
    let ents;
    try {
      ents = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (STRAY.test(e.name)) out.push(p);
      // The dependency cache (.forge/ci/cache/) holds the user's installed trees: their files are not the store's.
      else if (e.isDirectory() && !(d === dir && (e.name === ".cache" || e.name === ".git")) && p !== ciCache) walk(p);
    }
  };
  walk(dir);
  return out;
}

// --- internal ---

/**
 * What is wrong with an import's evidence ref, or undefined: a path must be a plain path of the store
 * (`.forge/…`, no `..`) to a file that is there; a CI run's, to the run live or archived (an archived run's summary
 * moved with it).
 */
function refProblem(store: Store, r: unknown): string | undefined {
  if (r === null || typeof r !== "object") return "expected an object";
  const { path, kind, ref_id } = r as Record<string, unknown>;
  if (path === null || path === undefined) return undefined;
  if (typeof path !== "string" || !/^\.forge\/[A-Za-z0-9._\/-]+$/.test(path) || path.split("/").includes(".."))
    return `path '${printable(String(path), 60)}' is not a path of the store`;
  if (kind === "ci-run" && typeof ref_id === "string") {
    const id = ref_id.slice("ci-run:".length);
    if (!isUuid(id)) return `ref_id '${printable(ref_id, 60)}' names no run`;
    if (exists(entityFile(store, CI_RUNS, id)) || exists(entityFile(store, CI_RUNS, id, true))) return undefined;
    return `no CI run ${id} in this store (its trials are not this store's)`;
  }
  return exists(join(store.root, path)) ? undefined : `path ${path}: no such file`;
}

/** forge-loop's experience kinds (packages/loop's experience.ts: what it reads; anything else is not a record). */
const EXPERIENCE_KINDS = ["observation", "hypothesis", "lesson"];
const EXPERIENCE_STATUS = ["active", "superseded", "retracted"];

/**
 * `.forge/experience/<uuid>.md`, each checked as forge-loop reads it (its id, kind, status, revision, text and scope;
 * a `kind: rumor` is not a record), one finding per file.
 */
function* experience(store: Store, show: (p: string) => string): Generator<Problem> {
  const dir = join(store.dir, "experience");
  for (const n of names(dir)) {
    if (STRAY.test(n)) continue;
    const path = join(dir, n);
    if (!n.endsWith(".md") || !isUuid(n.slice(0, -3))) {
      yield { file: show(path), problem: "not an experience record file (expected <uuid>.md)" };
      continue;
    }
    let d: Record<string, unknown> | undefined;
    try {
      d = parseFrontmatterFast(readStoreFile(store, path), show(path))?.data as Record<string, unknown> | undefined;
    } catch (err) {
      yield { file: show(path), problem: problemOf(store, err) };
      continue;
    }
    const why = !d
      ? "no frontmatter"
      : d.id !== n.slice(0, -3)
        ? "field 'id': does not match the file name"
        : !EXPERIENCE_KINDS.includes(d.kind as string)
          ? `field 'kind': '${printable(String(d.kind), 40)}' is not ${EXPERIENCE_KINDS.join("|")}`
          : !EXPERIENCE_STATUS.includes(d.status as string)
            ? `field 'status': expected ${EXPERIENCE_STATUS.join("|")}`
            : typeof d.revision !== "number"
              ? "field 'revision': expected a number"
              : typeof d.text !== "string"
                ? "field 'text': expected a string"
                : typeof d.scope !== "string"
                  ? "field 'scope': expected a string"
                  : undefined;
    if (why) yield { file: show(path), problem: why };
  }
}

/**
 * Files of the store git tracks that are gone from the work tree (a deleted import, run record or entity is
 * otherwise invisible: nothing else names it), but for loose imports packed since. None outside a git repository.
 */
async function* deletedFiles(store: Store, packed: ReadonlySet<string>): AsyncGenerator<Problem> {
  const r = await git(["ls-files", "--deleted", "-z", "--full-name", "--", "."], { cwd: store.dir }).catch(() => null);
  if (!r || r.code !== 0) return;
  const prefix = await git(["rev-parse", "--show-prefix"], { cwd: store.dir }).catch(() => null);
  if (!prefix || prefix.code !== 0) return;
  // Paths relative to the repository's top; the store's own folder is `prefix` there.
  const top = prefix.stdout.trim();
  const rel = displayPath(store, store.dir);
  for (const f of r.stdout.split("\0").sort()) {
    if (f === "" || !f.startsWith(top)) continue;
    const inStore = f.slice(top.length);
    // A loose import a pack now holds is not missing (`forge-export pack` removes what it packed).
    if (inStore.startsWith(".cache/") || packed.has(inStore)) continue;
    yield {
      file: `${rel}/${inStore}`,
      problem: "missing: tracked by git, deleted from the work tree (git restore brings it back)",
    };
  }
}

/** A label's colour as forge-label writes it (spec/schema.md: 6 lowercase hex digits, no `#`), or none. */
function* labelColors(items: Array<Record<string, unknown>>, file: string): Generator<Problem> {
  for (const [i, l] of items.entries()) {
    const c = l.color;
    if (c === undefined || c === null || c === "" || (typeof c === "string" && /^[0-9a-f]{6}$/.test(c))) continue;
    const shown = typeof c === "string" ? `'${printable(c, 40)}'` : typeof c;
    yield {
      file,
      problem: `field 'labels[${i}].color': ${shown} is not a colour (6 lowercase hex digits, like d73a4a)`,
    };
  }
}

async function* flatRecords(
  store: Store,
  dir: string,
  schema: EntitySchema,
  show: (p: string) => string,
  ref?: (d: Record<string, unknown>, path: string) => Problem | undefined
): AsyncGenerator<Problem> {
  for (const n of names(dir)) {
    const path = join(dir, n);
    if (STRAY.test(n) || safe(() => statSync(path).isDirectory(), false)) continue;
    if (!/^[0-9a-f-]{36}\.md$/.test(n)) {
      yield { file: show(path), problem: "not a record file (expected <uuid>.md)" };
      continue;
    }
    try {
      const r = await loadFile(store, schema, path);
      if (r.data.id !== n.slice(0, -3)) yield { file: show(path), problem: "field 'id': does not match the file name" };
      const p = ref?.(r.data, path);
      if (p) yield p;
    } catch (err) {
      yield { file: show(path), problem: problemOf(store, err) };
    }
  }
}

/**
 * The order cache against the folders: every line's createdAt must be its
 * file's (createdAt never changes), and when the cache's stamp still holds
 * (so it would be trusted without a listing) it must list exactly the
 * folders there are.
 */
async function* orderCache(
  store: Store,
  kind: KindLayout,
  schema: EntitySchema,
  show: (p: string) => string
): AsyncGenerator<Problem> {
  const path = join(cacheDir(store), `${kind.plural.replaceAll("/", "-")}.order`);
  let text: string;
  try {
    text = readFileSync(path, "latin1");
  } catch {
    return;
  }
  const body = text.indexOf("\n") + 1;
  // not a whole cache: rebuilt on the next read
  if (!text.startsWith("forge-order ") || body === 0 || (text.length - body) % 60 !== 0) return;
  const stamp = text.slice(0, body - 1).split(" ")[2] ?? "";
  const cached = new Map<string, string>();
  for (let o = body; o + 60 <= text.length; o += 60) cached.set(text.slice(o + 21, o + 57), text.slice(o, o + 20));
  const actual = new Map<string, string>();
  for (const ref of listEntityRefs(store, kind)) {
    try {
      actual.set(ref.id, (await loadEntity(store, kind, schema, ref)).data.createdAt as string);
    } catch {
      // reported above
    }
  }
  const wrong = [...cached].filter(([id, at]) => actual.has(id) && actual.get(id) !== at).length;
  const trusted = stamp === folderStamp([kindDir(store, kind), archiveDir(store, kind)]).value;
  const missing = trusted ? [...actual.keys()].filter((id) => !cached.has(id)).length : 0;
  const extra = trusted ? [...cached.keys()].filter((id) => !actual.has(id)).length : 0;
  if (wrong || missing || extra) {
    yield {
      file: show(path),
      problem:
        `order cache disagrees with the folders (${wrong} wrong createdAt, ${missing} missing, ${extra} ` +
        `extra; it is rebuildable: delete it)`,
    };
  }
}

function names(dir: string): string[] {
  try {
    if (lstatSync(dir).isSymbolicLink()) return [];
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function safe<T>(f: () => T, dflt: T): T {
  try {
    return f();
  } catch {
    return dflt;
  }
}

/** A finding's text: the error's message without the file name it already starts with. */
function problemOf(store: Store, err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  const f = (err as { file?: unknown } | null)?.file;
  const file = isForgeError(err) && typeof f === "string" ? f : undefined;
  if (file && msg.startsWith(file + ": ")) return msg.slice(file.length + 2);
  const i = msg.indexOf(": ");
  return i > 0 && msg.slice(0, i).startsWith(".forge") ? msg.slice(i + 2) : msg.split("\n")[0]!.replace(store.root, "");
}
