/**
 * The folder a tool runs in: the `repo` argument, relative to the server's root (its working directory), or
 * the root itself. A path that resolves outside the root (through `..`, an absolute path or a symlink) is
 * refused, and so is a folder whose store would be found outside it: forge finds `.forge/` by walking up,
 * and a walk past the root would read and write a store the server was not started for.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { ToolArgError } from "./tools.js";

/**
 * Resolve `repo` against `root` (both real paths after this).
 * @throws ToolArgError when it is outside the root, not a folder, or has no store inside the root
 */
export function resolveRepo(root: string, repo: unknown): string {
  const realRoot = realpathSync(root);
  if (repo !== undefined && typeof repo !== "string") throw new ToolArgError("repo: not a string");
  if (typeof repo === "string" && (repo === "" || repo.includes("\0") || repo.length > 4096))
    throw new ToolArgError("repo: not a path");
  const wanted = repo === undefined ? realRoot : resolve(realRoot, repo);
  if (!inside(realRoot, wanted)) throw new ToolArgError(`repo: ${shown(repo)} is outside ${realRoot}`);
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch {
    throw new ToolArgError(`repo: ${shown(repo)} does not exist`);
  }
  if (!inside(realRoot, real)) throw new ToolArgError(`repo: ${shown(repo)} is outside ${realRoot}`);
  if (!statSync(real).isDirectory()) throw new ToolArgError(`repo: ${shown(repo)} is not a folder`);
  for (let d = real; inside(realRoot, d); d = dirname(d)) {
    if (existsSync(join(d, ".forge"))) return real;
    if (d === realRoot) break;
  }
  throw new ToolArgError(`repo: no .forge/ store at or above ${shown(repo)} inside ${realRoot} (run forge init)`);
}

// --- internal ---

function inside(root: string, p: string): boolean {
  const r = relative(root, p);
  return r === "" || (!r.startsWith(`..${sep}`) && r !== ".." && !isAbsolute(r));
}

function shown(repo: unknown): string {
  return typeof repo === "string" ? JSON.stringify(repo.slice(0, 80)) : "(default)";
}
