/**
 * The repository's submodules in a disposable worktree, initialised from
 * the main clone's own objects: never the network.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { git } from "@forge/core";

/** How deep submodules of submodules are initialised (a loop of submodules stops here). */
export const MAX_SUBMODULE_DEPTH = 8;

/**
 * Initialise the submodules `.gitmodules` names in the worktree `dir`, each
 * cloned from the main clone's copy (`<common git dir>/modules/<name>`) with
 * `protocol.file.allow=always`: no network, no change to the shared config
 * (url and `active` are given with `-c`). A submodule's own submodules
 * follow, from its copy's `modules/<name>` (where git keeps them), down to
 * MAX_SUBMODULE_DEPTH. A submodule the main clone never initialised has no
 * copy there: it is left empty, as git leaves it.
 * @returns the paths initialised (a nested one as `<outer path>/<its path>`)
 */
export async function initSubmodules(dir: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  if (!existsSync(join(dir, ".gitmodules"))) return [];
  const common = await git(["rev-parse", "--git-common-dir"], { cwd: dir, env });
  if (common.code !== 0) return [];
  const c = common.stdout.trim();
  return initFrom(dir, join(isAbsolute(c) ? c : resolve(dir, c), "modules"), env, 1);
}

/** The submodules of the checkout `dir`, cloned from the copies under `modules`, then theirs. */
async function initFrom(
  dir: string,
  modules: string,
  env: NodeJS.ProcessEnv | undefined,
  depth: number
): Promise<string[]> {
  if (depth > MAX_SUBMODULE_DEPTH || !existsSync(join(dir, ".gitmodules"))) return [];
  const listed = await git(["config", "-z", "-f", ".gitmodules", "--get-regexp", "^submodule\\..*\\.path$"], {
    cwd: dir,
    env,
  });
  if (listed.code !== 0) return [];
  const args: string[] = ["-c", "protocol.file.allow=always"];
  const found: Array<{ path: string; copy: string }> = [];
  for (const entry of listed.stdout.split("\0")) {
    const nl = entry.indexOf("\n");
    if (nl < 0) continue;
    const name = entry
      .slice(0, nl)
      .replace(/^submodule\./, "")
      .replace(/\.path$/, "");
    const path = entry.slice(nl + 1);
    const copy = join(modules, name);
    // A name or path that climbs out, or a copy the main clone does not have: nothing to clone from offline.
    if (name.split("/").includes("..") || path.split("/").includes("..") || !existsSync(copy)) continue;
    args.push("-c", `submodule.${name}.url=${copy}`, "-c", `submodule.${name}.active=true`);
    found.push({ path, copy });
  }
  if (found.length === 0) return [];
  const r = await git([...args, "submodule", "update", "--", ...found.map((f) => f.path)], { cwd: dir, env });
  if (r.code !== 0) return [];
  const paths: string[] = [];
  for (const f of found) {
    paths.push(f.path);
    const inner = await initFrom(join(dir, f.path), join(f.copy, "modules"), env, depth + 1);
    paths.push(...inner.map((p) => `${f.path}/${p}`));
  }
  return paths;
}
