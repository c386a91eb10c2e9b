/**
 * gh's `mergeable` for a stored PR: does its patch still apply on the base
 * branch's tip? Checked in a temporary index (never the live one), commit
 * by commit as `git am` would, so nothing in the repository changes.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  git,
  loadFile,
  MERGE_RECORD,
  mergeFile,
  mergesDir,
  splitPatchSeries,
  isUuid,
  type LoadedEntity,
  type Mergeable,
  type Store,
} from "@forge/core";
import { isSha } from "./_git.js";

/**
 * Whether the patch applies on the tip of the PR's base branch, and whether
 * that tip has moved past the commit the patch was made on.
 * @param cwd a folder in the repository
 */
export async function mergeableOf(
  cwd: string,
  pr: LoadedEntity,
  patch: Buffer
): Promise<{ mergeable: Mergeable; behind: boolean }> {
  if (pr.data.state !== "open") return { mergeable: "UNKNOWN", behind: false };
  const base = pr.data.baseRefName as string;
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `refs/heads/${base}^{commit}`], { cwd });
  const tip = r.stdout.trim();
  if (r.code !== 0 || !isSha(tip)) return { mergeable: "UNKNOWN", behind: false };
  if (tip === pr.data.baseSha) return { mergeable: "MERGEABLE", behind: false };
  const tmp = mkdtempSync(join(tmpdir(), "forge-mergeable-"));
  try {
    const env = { ...process.env, GIT_INDEX_FILE: join(tmp, "index") };
    if ((await git(["read-tree", tip], { cwd, env })).code !== 0) return { mergeable: "UNKNOWN", behind: true };
    const file = join(tmp, "patch.diff");
    writeFileSync(file, patch);
    const parts = await splitPatchSeries(file, join(tmp, "parts"), cwd, env).catch(() => [file]);
    for (const part of parts) {
      const a = await git(["apply", "--cached", "--whitespace=nowarn", part], { cwd, env });
      if (a.code !== 0) return { mergeable: "CONFLICTING", behind: true };
    }
    return { mergeable: "MERGEABLE", behind: true };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * PR id → the commit its `merged` record names (forge-merge's), read once.
 * @throws InvalidFileError for a bad record
 */
export async function mergeCommits(store: Store): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let names: string[];
  try {
    names = readdirSync(mergesDir(store)).filter((n) => n.endsWith(".md") && isUuid(n.slice(0, -3)));
  } catch {
    return out;
  }
  for (const n of names.sort()) {
    const f = await loadFile(store, MERGE_RECORD, mergeFile(store, n.slice(0, -3)));
    if (f.data.verdict === "merged" && typeof f.data.commit === "string") out.set(f.data.pr as string, f.data.commit);
  }
  return out;
}
