/**
 * The repository's submodules in a disposable worktree, initialised from
 * the main clone's own objects: never the network.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { git } from "@forge/core";

/**
 * Initialise the submodules `.gitmodules` names in the worktree `dir`, each
 * cloned from the main clone's copy (`<common git dir>/modules/<name>`) with
 * `protocol.file.allow=always`: no network, no change to the shared config
 * (url and `active` are given with `-c`). A submodule the main clone never
 * initialised has no copy there: it is left empty, as git leaves it.
 * @returns the paths initialised
 */
export async function initSubmodules(dir: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  if (!existsSync(join(dir, ".gitmodules"))) return [];
  const listed = await git(["config", "-z", "-f", ".gitmodules", "--get-regexp", "^submodule\\..*\\.path$"], {
    cwd: dir,
    env,
  });
  if (listed.code !== 0) return [];
  const common = await git(["rev-parse", "--git-common-dir"], { cwd: dir, env });
  if (common.code !== 0) return [];
  const c = common.stdout.trim();
  const commonDir = isAbsolute(c) ? c : resolve(dir, c);
  const args: string[] = ["-c", "protocol.file.allow=always"];
  const paths: string[] = [];
  for (const entry of listed.stdout.split("\0")) {
    const nl = entry.indexOf("\n");
    if (nl < 0) continue;
    const name = entry
      .slice(0, nl)
      .replace(/^submodule\./, "")
      .replace(/\.path$/, "");
    const path = entry.slice(nl + 1);
    const copy = join(commonDir, "modules", name);
    // A name that climbs out of modules/, or a copy the main clone does not have: nothing to clone from offline.
    if (name.split("/").includes("..") || !existsSync(copy)) continue;
    args.push("-c", `submodule.${name}.url=${copy}`, "-c", `submodule.${name}.active=true`);
    paths.push(path);
  }
  if (paths.length === 0) return [];
  const r = await git([...args, "submodule", "update", "--", ...paths], { cwd: dir, env });
  return r.code === 0 ? paths : [];
}
