/**
 * A claim naming a CI step (`ci:<step>`) is read from the forge-ci runs of
 * the store at the loop's code tree: the latest completed run (no PR patch)
 * whose commit has the same code tree as the workspace. No such run, or a
 * step that did not finish, is `unavailable`, never a pass.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { codeTree, isUuid, parseFrontmatter, readStoreFile, type Store } from "@forge/core";

/** What the store's CI says about one step at a tree. */
export interface CiStepResult {
  observed: "passed" | "failed" | "unavailable";
  runId: string | null;
  exitCode: number | null;
  durationMs: number | null;
}

/**
 * The latest outcome of `step` at code tree `tree`.
 * @param trees a cache of commit → code tree for this call's runs
 */
export async function ciStepAt(
  store: Store,
  step: string,
  tree: string | null,
  env: Record<string, string | undefined>,
  trees: Map<string, string | null>
): Promise<CiStepResult> {
  const none: CiStepResult = { observed: "unavailable", runId: null, exitCode: null, durationMs: null };
  const dir = join(store.dir, "ci", "runs");
  if (tree === null || !existsSync(dir)) return none;
  let best: { at: string; r: CiStepResult } | null = null;
  for (const id of readdirSync(dir).filter(isUuid)) {
    let d: Record<string, unknown>;
    try {
      d = (await parseFrontmatter(readStoreFile(store, join(dir, id, "summary.md")), "summary.md")).data;
    } catch {
      continue; // An unreadable run says nothing; forge-ci reports it.
    }
    if (
      d.status !== "completed" ||
      d.pr ||
      d.patchSha256 ||
      typeof d.headSha !== "string" ||
      typeof d.createdAt !== "string"
    )
      continue;
    const steps = Array.isArray(d.steps) ? (d.steps as Array<Record<string, unknown>>) : [];
    const s = steps.find((x) => x.name === step);
    if (!s) continue;
    if (!trees.has(d.headSha)) {
      // A commit this repository does not have (any more) has no code tree here.
      trees.set(d.headSha, await codeTree(store.root, d.headSha, env as NodeJS.ProcessEnv).catch(() => null));
    }
    if (trees.get(d.headSha) !== tree) continue;
    const observed =
      s.outcome === "pass" ? "passed" : s.outcome === "fail" || s.outcome === "timeout" ? "failed" : "unavailable";
    const r: CiStepResult = {
      observed,
      runId: id,
      exitCode: typeof s.exitCode === "number" ? s.exitCode : null,
      durationMs: typeof s.durationMs === "number" ? s.durationMs : null,
    };
    if (!best || d.createdAt > best.at || (d.createdAt === best.at && id > best.r.runId!))
      best = { at: d.createdAt, r };
  }
  return best?.r ?? none;
}
