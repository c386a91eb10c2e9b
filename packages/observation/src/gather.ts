/**
 * gather(): read the public surfaces an observation is made of, once:
 * the scope's fold of imports, CI run records (with whether each step's
 * log is still there), PRs, issues, merge records, and the base branch's
 * tip and code tree. Reads only; a file that cannot be read is recorded
 * as unreadable (a marker), never skipped silently and never guessed.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  checkSeal,
  CI_RUN,
  CI_RUNS,
  codeTree,
  displayPath,
  entityDir,
  entityFile,
  entityOrder,
  git,
  InvalidFileError,
  ISSUE,
  ISSUES,
  isForgeError,
  isUuid,
  lexists,
  loadEntity,
  loadFile,
  MERGE_RECORD,
  mergeFile,
  mergesDir,
  openRecordCache,
  parseFrontmatterFast,
  recordContext,
  PR,
  PRS,
  readBranchTip,
  readHead,
  readStoreFile,
  statStore,
  validate,
  type EntityRef,
  type HeadRead,
  type EntitySchema,
  type KindLayout,
  type LoadedEntity,
  type Store,
} from "@forge/core";
import {
  type Episode,
  keptView,
  kernelView,
  type KernelView,
  readImportLogCached,
  readScope,
  type ScopeState,
  viewConfig,
  viewFor,
  viewKey,
  withPayloads,
  writeKernelView,
} from "@forge/evidence";
import type { KernelConfig } from "@forge/kernel";
import {
  DEFAULT_OBSERVE_CONFIG,
  type IssueInput,
  type MergeInput,
  type ObserveInputs,
  type PrInput,
  type RunInput,
} from "./inputs.js";

/** Options of `gather`. */
export interface GatherOptions {
  scope: string;
  /** The base branch (default: the branch HEAD is on, else `main`). */
  base?: string;
  env?: NodeJS.ProcessEnv;
  /** ObserveConfig.fixed_labels (default `bug`). */
  fixedLabels?: readonly string[];
  /** ObserveConfig.precision_micros: the kernel's view is made with it (default 300,000). */
  precisionMicros?: number;
  /** ObserveConfig.kernel: the kernel overrides the view is made with (default none). */
  kernel?: Partial<KernelConfig>;
}

/**
 * Read everything an observation needs.
 * @param top where git runs: a folder of the repository (its top or any below), or null: no repository
 * @throws ForgeError when the import log is corrupt (the store needs a human); a git failure of the base first, as when
 * it was asked first
 */
export async function gather(store: Store, top: string | null, opts: GatherOptions): Promise<ObserveInputs> {
  // The base branch's first git call starts now, before the files are read; its answers are taken between the kinds
  // read.
  const baseP = baseOf(top, opts.base, opts.env);
  baseP.catch(() => undefined);
  try {
    const inputs = await read(store, opts);
    return { ...inputs, base: await baseP };
  } catch (err) {
    await baseP;
    throw err;
  }
}

/** Let pending I/O callbacks (the git calls' answers) run, so the next git call starts. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function read(store: Store, opts: GatherOptions): Promise<Omit<ObserveInputs, "base">> {
  const fixedLabels = opts.fixedLabels ?? DEFAULT_OBSERVE_CONFIG.fixed_labels;
  const unreadable: string[] = [];
  const { state, kernel } = evidence(store, opts, unreadable);
  await settle();
  const runs = await loadAll(store, CI_RUNS, CI_RUN, "run", unreadable, {
    archived: true,
    fromText: (_ref, _n, parse) => {
      const e = parse();
      return e ? runInput(store, e) : SLOW;
    },
    fromEntity: (e) => runInput(store, e),
  });
  await settle();
  const prs = await loadAll(store, PRS, PR, "pr", unreadable, PR_READER);
  await settle();
  const issues = await loadAll(
    store,
    ISSUES,
    ISSUE,
    "issue",
    unreadable,
    issueReader(new Set(prs.flatMap((p) => p.closes)), fixedLabels)
  );
  const merges = await loadMerges(store, unreadable);
  return { scope: opts.scope, state, kernel, runs, prs, issues, merges, unreadable: unreadable.sort() };
}

/**
 * The scope's fold and the kernel's view of it. The log is read through its
 * cache (no payload of a file it still vouches for); the view kept under the
 * key of exactly these payloads is used, else the payloads of the scope are
 * read and the view made (and kept).
 */
function evidence(store: Store, opts: GatherOptions, unreadable: string[]): { state: ScopeState; kernel: KernelView } {
  const precision = opts.precisionMicros ?? DEFAULT_OBSERVE_CONFIG.precision_micros;
  const made = viewConfig(precision, opts.kernel ?? {});
  // The degradation law: an import file that is not a record (or was edited) is `unreadable:import:<id>`, left out.
  let log = readImportLogCached(store, { write: true, unreadable });
  let kernel = viewFor(store, keptView(store), log, opts.scope, made);
  if (!kernel) log = withPayloads(store, log, (l) => l.record.batch.scope === opts.scope, undefined, unreadable);
  // Trial episodes (one per trial) are not needed: the kernel payload holds the trials. Only the stored episodes (typed
  // diffs, merges, oracles) are read.
  const state = readScope(store, opts.scope, { records: log.map((l) => l.record), episodes: false });
  const stored: Episode[] = [];
  for (const { record: r } of log)
    if (r.batch.scope === opts.scope) for (const e of r.batch.episodes ?? []) if (e.kind !== "trial") stored.push(e);
  state.episodes = stored.sort((a, b) => (a.episode_id < b.episode_id ? -1 : a.episode_id > b.episode_id ? 1 : 0));
  if (!kernel) {
    kernel = kernelView(state.kernel, precision, opts.kernel ?? {});
    const key = viewKey(log, opts.scope, made);
    if (key !== null) writeKernelView(store, key, kernel);
  }
  return { state, kernel };
}

/** The base branch, its tip and the tip's code tree. */
async function baseOf(
  top: string | null,
  ref: string | undefined,
  env: NodeJS.ProcessEnv | undefined
): Promise<ObserveInputs["base"]> {
  if (top === null) return { ref: ref ?? "main", sha: null, tree: null };
  if (ref !== undefined) return tipOf(top, ref, env);
  const head = await headOf(top, env);
  if (head === null) return { ref: "main", sha: null, tree: null };
  // Not on a branch (detached): the base is `main`.
  if (head.ref === null || !head.ref.startsWith(HEADS)) return tipOf(top, "main", env);
  return withTree(top, head.ref.slice(HEADS.length), head.tip, env);
}

/**
 * The ref HEAD names and its commit (null: not in a repository): read from the repository's files in the plain case
 * (`readHead`), else both asked of git at once, while the heap is small (each git is a fork, which write-protects every
 * page this process has). The full name, as `--short` prints `heads/main` when a tag is also called `main`.
 */
async function headOf(top: string, env: NodeJS.ProcessEnv | undefined): Promise<HeadRead | null> {
  const read = readHead(top, env ?? process.env);
  if (read) return read;
  const [head, tip] = await Promise.all([
    git(["symbolic-ref", "--quiet", "HEAD"], { cwd: top, env }),
    git(["rev-parse", "--verify", "--quiet", "--end-of-options", "HEAD^{commit}"], { cwd: top, env }),
  ]);
  // 128: not in a repository; 1: a detached HEAD.
  if (head.code === 128) return null;
  return { ref: head.code === 0 ? head.stdout.trim() : null, tip: tip.code === 0 ? tip.stdout.trim() : null };
}

const HEADS = "refs/heads/";

/** A named branch, its tip and the tip's code tree. */
async function tipOf(top: string, name: string, env: NodeJS.ProcessEnv | undefined): Promise<ObserveInputs["base"]> {
  const read = readBranchTip(top, name, env ?? process.env);
  if (read !== undefined) return withTree(top, name, read, env);
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${HEADS}${name}^{commit}`], {
    cwd: top,
    env,
  });
  return withTree(top, name, r.code === 0 ? r.stdout.trim() : null, env);
}

async function withTree(
  top: string,
  ref: string,
  sha: string | null,
  env: NodeJS.ProcessEnv | undefined
): Promise<ObserveInputs["base"]> {
  return { ref, sha, tree: sha ? await codeTree(top, sha, env) : null };
}

/**
 * How `loadAll` reads a kind. A live entity's file is read once and its
 * text handed over with its fast parse; what a kind keeps in observe's
 * record cache (`.forge/.cache/<kind>.observed`) is a payload that gives
 * the same input back while the file's lstat is unchanged.
 */
interface Reader<T> {
  /** The cache's payload format and what a payload depends on besides its file (none: no cache). */
  cache?: { layout: string; context: string };
  /** Archived entities are inputs too (else they are read only to find the unreadable). */
  archived?: boolean;
  /**
   * The input of an entity read from its file; `parse` gives its fast parse (undefined when
   * the general YAML engine is needed). `keep` a payload that gives the same input back.
   * @returns the input (undefined: of no interest), or SLOW: `fromEntity` of the general engine's parse
   * @throws ForgeError: unreadable
   */
  fromText(
    ref: EntityRef,
    number: number,
    parse: () => Entity | undefined,
    text: string,
    keep: (payload: string) => void
  ): T | undefined | typeof SLOW;
  /** The input of an entity the general engine read. */
  fromEntity(e: Entity, number: number): T | undefined;
  /**
   * The input from a kept payload, bytes `[start, end)` of `buf` (undefined: of no interest; null: not usable, the file
   * is read).
   */
  fromPayload?(ref: EntityRef, number: number, buf: Buffer, start: number, end: number): T | undefined | null;
}

/** fromText's answer when the entity needs the general YAML engine. */
const SLOW = Symbol("slow");
/** The payload of an archived entity that was read without error (it is no input): `A`. */
const READABLE = 0x41;

/**
 * Every input of a kind, in number order; unreadable entities recorded.
 * Walked newest first, as the record cache is kept; the cache is
 * rewritten only when the walk (which sees every entity) changed something.
 */
async function loadAll<T>(
  store: Store,
  kind: KindLayout,
  schema: EntitySchema,
  noun: string,
  unreadable: string[],
  r: Reader<T>
): Promise<T[]> {
  const order = await entityOrder(store, kind, schema);
  for (const u of order.errors) unreadable.push(`${noun}:${u.ref.id}`);
  const cache = r.cache && openRecordCache(store, kind, { ...r.cache, name: "observed", write: true });
  // The files as the cache's lstats name them (`statStore`); read by their own paths.
  const stats = statStore(store);
  const out: T[] = [];
  let i = order.length - 1;
  try {
    for (; i >= 0; i--) {
      if (i % 1024 === 0) await settle();
      const { ref, createdAt } = order.at(i)!;
      const number = i + 1;
      const key = `${createdAt} ${ref.id}`;
      const input = !ref.archived || r.archived === true;
      const hit = cache && !ref.escapes ? cache.get(key, entityFile(stats, kind, ref.id, ref.archived)) : undefined;
      if (hit) {
        const v = !input
          ? hit.end - hit.start === 1 && hit.buf[hit.start] === READABLE
            ? undefined
            : null
          : r.fromPayload!(ref, number, hit.buf, hit.start, hit.end);
        if (v !== null) {
          if (v !== undefined) out.push(v);
          continue;
        }
        // Not a payload this kind keeps (an entity archived or unarchived since: the folder moved, the file's lstat did
        // not).
        cache!.refuse();
      }
      try {
        let v: T | undefined | typeof SLOW = SLOW;
        if (!ref.escapes) {
          const path = entityFile(store, kind, ref.id, ref.archived);
          const text = readStoreFile(store, path);
          if (input)
            v = r.fromText(
              ref,
              number,
              () => fromText(store, schema, ref, path, text),
              text,
              (payload) => cache?.put(key, payload)
            );
          else if (fromText(store, schema, ref, path, text)) {
            cache?.put(key, String.fromCharCode(READABLE));
            v = undefined;
          }
        }
        if (v === SLOW) {
          // The general engine (and the refusal of a folder that escapes the store).
          const e = await loadEntity(store, kind, schema, ref);
          v = input ? r.fromEntity(e, number) : undefined;
        }
        if (v !== undefined) out.push(v);
      } catch (err) {
        if (!isForgeError(err)) throw err;
        unreadable.push(`${noun}:${ref.id}`);
      }
    }
  } finally {
    cache?.close(i < 0);
  }
  return out.reverse();
}

/** What an observation reads of an entity. */
type Entity = Pick<LoadedEntity, "ref" | "data">;

/**
 * `loadEntityFast` of text already read: undefined when the frontmatter needs the general YAML engine.
 * @throws InvalidFileError as loadEntityFast does (bad frontmatter, schema, an id that is not its folder's)
 */
function fromText(store: Store, schema: EntitySchema, ref: EntityRef, path: string, text: string): Entity | undefined {
  const file = displayPath(store, path);
  const fm = parseFrontmatterFast(text, file);
  if (!fm) return undefined;
  const data = validate(schema, fm.data, file).data;
  checkSeal(schema, text, data, file);
  if (data.id !== ref.id) throw new InvalidFileError(file, "does not match its folder name", "id");
  return { ref, data };
}

/** The frontmatter (between the opening `---` and the next) has the line `state: open`, as forge writes it. */
function saysOpen(text: string): boolean {
  if (!text.startsWith("---\n")) return false;
  const end = text.indexOf("\n---", 3);
  const at = text.indexOf("\nstate: open\n");
  return end > 0 && at >= 0 && at < end;
}

/**
 * The issues. One that cannot have been closed as fixed — it says `state: open`,
 * or names no fix label anywhere in its text and no PR closes it — is left out
 * (and one of those that is not valid is not reported). Kept: `O` (open), or
 * `F`/`N` (a fix label or a completed close in its text, or not) and
 * `[state, closedAt, labels, stateReason]`.
 */
function issueReader(closed: ReadonlySet<string>, fixedLabels: readonly string[]): Reader<IssueInput> {
  const input = (
    id: string,
    number: number,
    state: unknown,
    closedAt: unknown,
    labels: unknown,
    reason: unknown
  ): IssueInput => ({
    id,
    number,
    state: state as string,
    closedAt: (closedAt as string | undefined) ?? null,
    labels: (labels as string[] | undefined) ?? [],
    stateReason: (reason as string | undefined) ?? null,
  });
  return {
    cache: { layout: "observe-issue/2", context: recordContext(fixedLabels) },
    fromText(ref, number, parse, text, keep) {
      if (saysOpen(text)) {
        keep("O");
        return undefined;
      }
      // A fix label, or a close stored as completed (gh's stateReason COMPLETED): it may claim a fix.
      const fixed = fixedLabels.some((l) => text.includes(l)) || text.includes("stateReason: completed");
      const out = !fixed && !closed.has(ref.id);
      let e: Entity | undefined;
      try {
        e = parse();
      } catch (err) {
        if (out) return undefined;
        throw err;
      }
      if (e) {
        const d = e.data;
        keep(
          `${fixed ? "F" : "N"}${JSON.stringify([d.state, d.closedAt ?? null, d.labels ?? [], d.stateReason ?? null])}`
        );
      }
      if (out) return undefined;
      return e ? input(ref.id, number, e.data.state, e.data.closedAt, e.data.labels, e.data.stateReason) : SLOW;
    },
    fromEntity: (e, number) =>
      input(e.ref.id, number, e.data.state, e.data.closedAt, e.data.labels, e.data.stateReason),
    fromPayload(ref, number, buf, start, end) {
      // The flag is read as a byte: most issues are open, or out, and are not decoded.
      const flag = buf[start];
      if (flag === 0x4f && end - start === 1) return undefined;
      if (flag !== 0x46 && flag !== 0x4e) return null;
      if (flag === 0x4e && !closed.has(ref.id)) return undefined;
      const v = parsed(buf.toString("utf8", start + 1, end), 4);
      return v ? input(ref.id, number, v[0], v[1], v[2], v[3]) : null;
    },
  };
}

/** PrInput's fields a PR's payload keeps, in order (its id and number are the entity's). */
const PR_FIELDS = [
  "state",
  "baseRefName",
  "baseSha",
  "headSha",
  "patchSha256",
  "previousPatchSha256",
  "closes",
  "ci",
  "createdAt",
] as const;

/** The PRs (archived ones are only read): kept as PR_FIELDS. */
const PR_READER: Reader<PrInput> = {
  cache: { layout: "observe-pr/1", context: "-" },
  fromText(_ref, number, parse, _text, keep) {
    const e = parse();
    if (!e) return SLOW;
    const p = prInput(e, number);
    keep(JSON.stringify(PR_FIELDS.map((k) => p[k])));
    return p;
  },
  fromEntity: (e, number) => prInput(e, number),
  fromPayload(ref, number, buf, start, end) {
    const v = parsed(buf.toString("utf8", start, end), PR_FIELDS.length);
    if (!v || !Array.isArray(v[5]) || !Array.isArray(v[6])) return null;
    const p: Record<string, unknown> = { id: ref.id, number };
    PR_FIELDS.forEach((k, i) => (p[k] = v[i]));
    return p as unknown as PrInput;
  },
};

/** A kept payload's JSON array of `length` values (undefined: not that). */
function parsed(json: string, length: number): unknown[] | undefined {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) && v.length === length ? v : undefined;
  } catch {
    return undefined;
  }
}

function runInput(store: Store, e: Entity): RunInput {
  const d = e.data;
  const logs = join(entityDir(store, CI_RUNS, e.ref.id, e.ref.archived), "steps");
  return {
    id: e.ref.id,
    status: d.status as string,
    headSha: d.headSha as string,
    codeTree: (d.codeTree as string | undefined) ?? null,
    patchSha256: (d.patchSha256 as string | undefined) ?? null,
    pr: (d.pr as string | undefined) ?? null,
    envSha256: d.envSha256 as string,
    createdAt: d.createdAt as string,
    completedAt: (d.completedAt as string | undefined) ?? null,
    steps: ((d.steps as Record<string, unknown>[] | undefined) ?? []).map((s) => ({
      name: s.name as string,
      outcome: s.outcome as string,
      logSha256: (s.logSha256 as string | undefined) ?? null,
      log: lexists(join(logs, `${s.name as string}.log`)),
    })),
  };
}

function prInput(e: Entity, number: number): PrInput {
  const d = e.data;
  return {
    id: e.ref.id,
    number,
    state: d.state as string,
    baseRefName: d.baseRefName as string,
    baseSha: (d.baseSha as string | undefined) ?? null,
    headSha: (d.headSha as string | undefined) ?? null,
    patchSha256: d.patchSha256 as string,
    previousPatchSha256: (d.previousPatchSha256 as string[] | undefined) ?? [],
    closes: (d.closes as string[] | undefined) ?? [],
    ci: (d.ci as string | undefined) ?? null,
    createdAt: d.createdAt as string,
  };
}

/** The merge records (`merges/<id>.md`), sorted by id. */
async function loadMerges(store: Store, unreadable: string[]): Promise<MergeInput[]> {
  let names: string[];
  try {
    names = readdirSync(mergesDir(store))
      .filter((n) => n.endsWith(".md") && isUuid(n.slice(0, -3)))
      .sort();
  } catch {
    return [];
  }
  const out: MergeInput[] = [];
  for (const n of names) {
    const id = n.slice(0, -3);
    try {
      const d = (await loadFile(store, MERGE_RECORD, mergeFile(store, id))).data;
      out.push({
        id,
        pr: d.pr as string,
        patchSha256: d.patchSha256 as string,
        verdict: d.verdict as string,
        commit: (d.commit as string | undefined) ?? null,
        baseRefName: d.baseRefName as string,
        createdAt: d.createdAt as string,
      });
    } catch (err) {
      if (!isForgeError(err)) throw err;
      unreadable.push(`merge:${id}`);
    }
  }
  return out;
}
