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
  CI_RUN, CI_RUNS, codeTree, entityDir, entityOrder, git, ISSUE, ISSUES, isForgeError, isUuid, lexists, loadEntity, loadEntityFast, loadFile, MERGE_RECORD,
  mergeFile, mergesDir, PR, PRS, type EntitySchema, type KindLayout, type LoadedEntity, type Store,
} from "@forge/core";
import { readScope } from "@forge/evidence";
import type { IssueInput, MergeInput, ObserveInputs, PrInput, RunInput } from "./inputs.js";

/** Options of `gather`. */
export interface GatherOptions {
  scope: string;
  /** The base branch (default: the branch HEAD is on, else `main`). */
  base?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Read everything an observation needs.
 * @param top the repository's top folder (for git), or null outside one
 * @throws ForgeError when the import log is corrupt (the store needs a human)
 */
export async function gather(store: Store, top: string | null, opts: GatherOptions): Promise<ObserveInputs> {
  const unreadable: string[] = [];
  const base = await baseOf(top, opts.base, opts.env);
  const state = readScope(store, opts.scope);
  const runs = (await loadAll(store, CI_RUNS, CI_RUN, "run", unreadable)).map(({ e }) => runInput(store, e));
  const prs = (await loadAll(store, PRS, PR, "pr", unreadable)).filter(({ e }) => !e.ref.archived).map(({ e, number }) => prInput(e, number));
  const issues = (await loadAll(store, ISSUES, ISSUE, "issue", unreadable)).filter(({ e }) => !e.ref.archived).map(({ e, number }): IssueInput => ({
    id: e.ref.id, number, state: e.data.state as string, closedAt: (e.data.closedAt as string | undefined) ?? null,
  }));
  const merges = await loadMerges(store, unreadable);
  return { scope: opts.scope, base, state, runs, prs, issues, merges, unreadable: unreadable.sort() };
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

/** Every entity of a kind with its number; unreadable ones recorded. */
async function loadAll(store: Store, kind: KindLayout, schema: EntitySchema, noun: string, unreadable: string[]): Promise<Array<{ e: LoadedEntity; number: number }>> {
  const order = await entityOrder(store, kind, schema);
  for (const u of order.errors) unreadable.push(`${noun}:${u.ref.id}`);
  const out: Array<{ e: LoadedEntity; number: number }> = [];
  for (let i = 0; i < order.length; i++) {
    const ref = order.at(i)!.ref;
    try {
      out.push({ e: loadEntityFast(store, kind, schema, ref) ?? (await loadEntity(store, kind, schema, ref)), number: i + 1 });
    } catch (err) {
      if (!isForgeError(err)) throw err;
      unreadable.push(`${noun}:${ref.id}`);
    }
  }
  return out;
}

function runInput(store: Store, e: LoadedEntity): RunInput {
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

function prInput(e: LoadedEntity, number: number): PrInput {
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
