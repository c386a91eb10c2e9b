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
  CI_RUN, CI_RUNS, codeTree, displayPath, entityDir, entityFile, entityOrder, git, InvalidFileError, ISSUE, ISSUES, isForgeError, isUuid, lexists, loadEntity,
  loadEntityFast, loadFile, MERGE_RECORD, mergeFile, mergesDir, parseFrontmatterFast, PR, PRS, readStoreFile, validate, type EntityRef, type EntitySchema,
  type KindLayout, type LoadedEntity, type Store,
} from "@forge/core";
import { type Episode, readImportLog, readScope } from "@forge/evidence";
import { DEFAULT_OBSERVE_CONFIG, type IssueInput, type MergeInput, type ObserveInputs, type PrInput, type RunInput } from "./inputs.js";

/** Options of `gather`. */
export interface GatherOptions {
  scope: string;
  /** The base branch (default: the branch HEAD is on, else `main`). */
  base?: string;
  env?: NodeJS.ProcessEnv;
  /** ObserveConfig.fixed_labels (default `bug`). */
  fixedLabels?: readonly string[];
}

/**
 * Read everything an observation needs.
 * @param top the repository's top folder (for git), or null outside one (or a promise of it: git runs while the files are read)
 * @throws ForgeError when the import log is corrupt (the store needs a human); a git failure of the base first, as when it was asked first
 */
export async function gather(store: Store, top: string | null | Promise<string | null>, opts: GatherOptions): Promise<ObserveInputs> {
  // The base branch's git calls run beside the reads (their answers are taken between the kinds read), never after them.
  const baseP = Promise.resolve(top).then((t) => baseOf(t, opts.base, opts.env));
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
  // Trial episodes (one per trial) are not needed: the kernel payload holds the trials. Only the stored episodes (typed diffs, merges, oracles) are read.
  const records = readImportLog(store);
  const state = readScope(store, opts.scope, { records, episodes: false });
  const stored: Episode[] = [];
  for (const r of records) if (r.batch.scope === opts.scope) for (const e of r.batch.episodes ?? []) if (e.kind !== "trial") stored.push(e);
  state.episodes = stored.sort((a, b) => (a.episode_id < b.episode_id ? -1 : a.episode_id > b.episode_id ? 1 : 0));
  await settle();
  const runs = (await loadAll(store, CI_RUNS, CI_RUN, "run", unreadable)).map(({ e }) => runInput(store, e));
  await settle();
  const prs = (await loadAll(store, PRS, PR, "pr", unreadable)).filter(({ e }) => !e.ref.archived).map(({ e, number }) => prInput(e, number));
  await settle();
  // Only an issue closed as fixed can be questioned (a fix label, or a PR closes it): a file that cannot be one
  // (it says `state: open`, or names no fix label and no PR closes it) is read but not parsed.
  const closed = new Set(prs.flatMap((p) => p.closes));
  const skip = (id: string, text: string): boolean => saysOpen(text) || (!closed.has(id) && !fixedLabels.some((l) => text.includes(l)));
  const issues = (await loadAll(store, ISSUES, ISSUE, "issue", unreadable, skip)).filter(({ e }) => !e.ref.archived).map(({ e, number }): IssueInput => ({
    id: e.ref.id, number, state: e.data.state as string, closedAt: (e.data.closedAt as string | undefined) ?? null, labels: (e.data.labels as string[] | undefined) ?? [],
  }));
  const merges = await loadMerges(store, unreadable);
  return { scope: opts.scope, state, runs, prs, issues, merges, unreadable: unreadable.sort() };
}

/** The base branch, its tip and the tip's code tree. */
async function baseOf(top: string | null, ref: string | undefined, env: NodeJS.ProcessEnv | undefined): Promise<ObserveInputs["base"]> {
  if (top === null) return { ref: ref ?? "main", sha: null, tree: null };
  let name = ref;
  if (name === undefined) {
    const r = await git(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd: top, env });
    name = r.code === 0 && r.stdout.trim() !== "" ? r.stdout.trim() : "main";
  }
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `refs/heads/${name}^{commit}`], { cwd: top, env });
  const sha = r.code === 0 ? r.stdout.trim() : null;
  return { ref: name, sha, tree: sha ? await codeTree(top, sha, env) : null };
}

/**
 * Every entity of a kind with its number; unreadable ones recorded.
 * @param skip leave out a live entity its text shows to be of no interest (read, not parsed)
 */
async function loadAll(
  store: Store, kind: KindLayout, schema: EntitySchema, noun: string, unreadable: string[], skip?: (id: string, text: string) => boolean,
): Promise<Array<{ e: Entity; number: number }>> {
  const order = await entityOrder(store, kind, schema);
  for (const u of order.errors) unreadable.push(`${noun}:${u.ref.id}`);
  const out: Array<{ e: Entity; number: number }> = [];
  for (let i = 0; i < order.length; i++) {
    if (i % 1024 === 1023) await settle();
    const ref = order.at(i)!.ref;
    try {
      let e: Entity | undefined;
      if (skip && !ref.archived && !ref.escapes) {
        // Read once: the text that decided "of interest" is the one parsed (as loadEntityFast would: fast frontmatter, schema, id).
        const path = entityFile(store, kind, ref.id);
        const text = readStoreFile(store, path);
        if (skip(ref.id, text)) continue;
        e = fromText(store, schema, ref, path, text);
      }
      out.push({ e: e ?? loadEntityFast(store, kind, schema, ref) ?? (await loadEntity(store, kind, schema, ref)), number: i + 1 });
    } catch (err) {
      if (!isForgeError(err)) throw err;
      unreadable.push(`${noun}:${ref.id}`);
    }
  }
  return out;
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

function runInput(store: Store, e: Entity): RunInput {
  const d = e.data;
  const logs = join(entityDir(store, CI_RUNS, e.ref.id, e.ref.archived), "steps");
  return {
    id: e.ref.id, status: d.status as string, headSha: d.headSha as string, codeTree: (d.codeTree as string | undefined) ?? null,
    patchSha256: (d.patchSha256 as string | undefined) ?? null, pr: (d.pr as string | undefined) ?? null, envSha256: d.envSha256 as string,
    createdAt: d.createdAt as string, completedAt: (d.completedAt as string | undefined) ?? null,
    steps: ((d.steps as Record<string, unknown>[] | undefined) ?? []).map((s) => ({
      name: s.name as string, outcome: s.outcome as string, logSha256: (s.logSha256 as string | undefined) ?? null, log: lexists(join(logs, `${s.name as string}.log`)),
    })),
  };
}

function prInput(e: Entity, number: number): PrInput {
  const d = e.data;
  return {
    id: e.ref.id, number, state: d.state as string, baseRefName: d.baseRefName as string, baseSha: (d.baseSha as string | undefined) ?? null,
    headSha: (d.headSha as string | undefined) ?? null, patchSha256: d.patchSha256 as string, previousPatchSha256: (d.previousPatchSha256 as string[] | undefined) ?? [],
    closes: (d.closes as string[] | undefined) ?? [], ci: (d.ci as string | undefined) ?? null, createdAt: d.createdAt as string,
  };
}

/** The merge records (`merges/<id>.md`), sorted by id. */
async function loadMerges(store: Store, unreadable: string[]): Promise<MergeInput[]> {
  let names: string[];
  try {
    names = readdirSync(mergesDir(store)).filter((n) => n.endsWith(".md") && isUuid(n.slice(0, -3))).sort();
  } catch {
    return [];
  }
  const out: MergeInput[] = [];
  for (const n of names) {
    const id = n.slice(0, -3);
    try {
      const d = (await loadFile(store, MERGE_RECORD, mergeFile(store, id))).data;
      out.push({
        id, pr: d.pr as string, patchSha256: d.patchSha256 as string, verdict: d.verdict as string, commit: (d.commit as string | undefined) ?? null,
        baseRefName: d.baseRefName as string, createdAt: d.createdAt as string,
      });
    } catch (err) {
      if (!isForgeError(err)) throw err;
      unreadable.push(`merge:${id}`);
    }
  }
  return out;
}
