/**
 * Which repository a store serves: its `origin` remote's owner/name (gh's
 * `-R OWNER/REPO`), and the web address `url` fields are built from.
 */
import { ForgeError, UsageError } from "./errors.js";
import { originUrl } from "./origin_cache.js";

/** A repository as gh names it. */
export interface RepoName {
  host: string;
  owner: string;
  name: string;
}

/**
 * Parse gh's `[HOST/]OWNER/REPO`, `https://host/O/R(.git)` or `git@host:O/R.git`.
 * @returns the name, or null when the text has none of those shapes
 * @example parseRepoName("cli/cli") // {host: "github.com", owner: "cli", name: "cli"}
 */
export function parseRepoName(text: string, defaultHost = "github.com"): RepoName | null {
  let t = text.trim();
  let host = defaultHost;
  const scp = /^[^@/:\s]+@([^:/\s]+):(.+)$/.exec(t);
  const url = /^(?:https?|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+)$/.exec(t);
  if (scp) [host, t] = [scp[1]!, scp[2]!];
  else if (url) [host, t] = [url[1]!, url[2]!];
  t = t.replace(/\.git$/, "").replace(/\/+$/, "");
  const parts = t.split("/");
  if (!scp && !url && parts.length === 3) host = parts.shift()!;
  if (parts.length !== 2 || parts.some((p) => p === "" || /\s/.test(p))) return null;
  return { host: host.toLowerCase().replace(/^www\./, ""), owner: parts[0]!, name: parts[1]! };
}

/**
 * The repository `origin` names, or null when there is no origin (or it is a local path).
 * @param cwd a folder inside the repository
 * @param cacheDir where the answer may be kept (`cacheDir(store)`; `originUrl`), or undefined to ask git each time
 */
export async function originRepo(cwd: string, cacheDir?: string): Promise<RepoName | null> {
  const r = await originUrl(cwd, cacheDir).catch(() => undefined);
  if (!r || r.code !== 0) return null;
  return parseRepoName(r.stdout.trim());
}

/**
 * Check gh's `-R/--repo` against the repository this store serves: any
 * value is accepted when there is no origin remote; otherwise it must name
 * origin's owner/name (case-insensitive, as GitHub's names are).
 * @throws UsageError for a value of the wrong shape (gh's message); ForgeError naming the served repository
 */
export async function checkRepoFlag(value: string, cwd: string): Promise<void> {
  const want = parseRepoName(value);
  if (!want) throw new UsageError(`expected the "[HOST/]OWNER/REPO" format, got "${value.slice(0, 60)}"`);
  const have = await originRepo(cwd);
  if (!have) return;
  const same =
    have.owner.toLowerCase() === want.owner.toLowerCase() && have.name.toLowerCase() === want.name.toLowerCase();
  if (!same)
    throw new ForgeError(
      `this store serves ${have.owner}/${have.name}, not ${want.owner}/${want.name}`,
      "E_OTHER_REPO",
      1
    );
}

/**
 * The web address issues and PRs live under: `https://HOST/OWNER/REPO` from
 * origin, else `file://<repository root>` (stable for a clone).
 * @param cacheDir as `originRepo`'s
 */
export async function repoWebUrl(cwd: string, root: string, cacheDir?: string): Promise<string> {
  const r = await originRepo(cwd, cacheDir);
  if (r) return `https://${r.host}/${r.owner}/${r.name}`;
  return `file://${root}`;
}
