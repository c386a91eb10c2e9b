/**
 * `git remote get-url origin`, remembered: every list and view builds its
 * `url` fields from origin, and one git process costs more than the rest of
 * `list | head -1`. The answer is kept in `.forge/.cache/origin` with the
 * stamps of every file git read it from (the repository's config, the
 * global and system ones, the legacy `remotes/` and `branches/` files, and
 * any other file `git config --show-origin` names), and is reused only while
 * git would find the same repository from the same folder and every one of
 * those files is unchanged and past the racy-clean window. Anything the
 * stamps cannot vouch for asks git: a `GIT_*` variable that moves where git
 * looks (`GIT_DIR`, `GIT_CONFIG_*`, …; any other is part of the key), a
 * `.git` that is a file (a linked worktree), a bare repository on the way
 * up, a folder on another filesystem, or a config with `include`s (an
 * `includeIf` can turn on the branch checked out).
 */
import { statSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { checkedCache, readCacheFile, writeCacheFile, writeCacheLater } from "./store/cache_file.js";
import { fileStamp } from "./store/stamp.js";
import { git, type GitResult } from "./git.js";
import { findGitDir } from "./git_dir.js";

const MAGIC = "forge-origin 1";

/** What the cache file holds. */
interface Kept {
  cwd: string;
  uid: number;
  /** The `GIT_*` variables (sorted), HOME and XDG_CONFIG_HOME, `name=value` each. */
  env: string;
  gitDir: string;
  /** Each file git's answer came from, with its stamp (`-` for a missing file). */
  files: Array<[string, string]>;
  code: number;
  stdout: string;
}

/**
 * `git remote get-url origin` run in `cwd`, from the cache in `cacheDir` when it can vouch for the answer.
 * @returns git's result (stdout and exit code), as a run of git gives it
 * @throws when git cannot run (as `git()`)
 */
export async function originUrl(cwd: string, cacheDir: string | undefined): Promise<GitResult> {
  const run = (): Promise<GitResult> => git(["remote", "get-url", "origin"], { cwd });
  const where = cacheDir === undefined ? undefined : located(cwd);
  if (where === undefined) return run();
  const path = join(cacheDir!, "origin");
  const now = Date.now();
  const kept = read(path);
  if (
    kept &&
    kept.cwd === where.cwd &&
    kept.uid === uid() &&
    kept.env === where.env &&
    kept.gitDir === where.gitDir &&
    kept.files.every(([f, s]) => stampOf(f, now) === s)
  )
    return { stdout: kept.stdout, stderr: "", code: kept.code };
  const [r, listed] = await Promise.all([run(), git(["config", "--list", "--show-origin", "-z"], { cwd })]);
  const files = readFrom(where.gitDir, listed);
  if (files === undefined) return r;
  const stamped: Array<[string, string]> = [];
  for (const f of files) {
    const s = stampOf(f, now);
    // A file changed within the racy window cannot vouch yet: asked again next time.
    if (s === null) return r;
    stamped.push([f, s]);
  }
  const value: Kept = {
    cwd: where.cwd,
    uid: uid(),
    env: where.env,
    gitDir: where.gitDir,
    files: stamped,
    code: r.code,
    stdout: r.stdout,
  };
  writeCacheLater(() => writeCacheFile(path, checkedCache(MAGIC, JSON.stringify(value))));
  return r;
}

// --- internal ---

const uid = (): number => process.getuid?.() ?? -1;

/**
 * The repository git finds from `cwd` (`findGitDir`), with the `GIT_*`
 * variables that do not move it and the two that name the global config,
 * which key the answer; undefined where the stamps cannot follow git.
 */
function located(cwd: string): { cwd: string; gitDir: string; env: string } | undefined {
  const found = findGitDir(cwd);
  if (found === undefined) return undefined;
  const vars = Object.keys(process.env)
    .filter((k) => k.startsWith("GIT_"))
    .sort();
  // HOME and XDG_CONFIG_HOME name the global config files.
  const env = [...vars, "HOME", "XDG_CONFIG_HOME"].map((k) => `${k}=${process.env[k] ?? ""}`).join("\0");
  return { cwd: found.cwd, gitDir: found.gitDir, env };
}

/**
 * The files git's answer depends on: the usual places (present or not) and
 * every file the config listing names; undefined when the listing has an
 * include or a source that is not a file.
 */
function readFrom(gitDir: string, listed: GitResult): string[] | undefined {
  if (listed.code !== 0) return undefined;
  const home = process.env.HOME;
  const xdg = process.env.XDG_CONFIG_HOME || (home ? join(home, ".config") : undefined);
  const files = new Set<string>([
    join(gitDir, "config"),
    join(gitDir, "config.worktree"),
    join(gitDir, "remotes", "origin"),
    join(gitDir, "branches", "origin"),
    "/etc/gitconfig",
  ]);
  if (home) files.add(join(home, ".gitconfig"));
  if (xdg) files.add(join(xdg, "git", "config"));
  const parts = listed.stdout.split("\0");
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const origin = parts[i]!;
    const key = parts[i + 1]!.split("\n", 1)[0]!.toLowerCase();
    if (key.startsWith("include.") || key.startsWith("includeif.")) return undefined;
    if (origin === "command line:") continue;
    if (!origin.startsWith("file:")) return undefined;
    const f = origin.slice(5);
    // Relative: the repository's own config, named from its top folder.
    files.add(isAbsolute(f) ? f : join(dirname(gitDir), f));
  }
  return [...files];
}

/** A config file's stamp (a symlink followed, as git reads it): `-` when missing, `fileStamp` when still, else null. */
function stampOf(file: string, now: number): string | null {
  let st: Stats | undefined;
  try {
    st = statSync(file, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  return st === undefined ? "-" : fileStamp(st, now);
}

function read(path: string): Kept | undefined {
  const text = readCacheFile(path, MAGIC, 1024 * 1024);
  if (text === undefined) return undefined;
  try {
    const k = JSON.parse(text) as Kept;
    return typeof k.cwd === "string" && Array.isArray(k.files) && typeof k.stdout === "string" ? k : undefined;
  } catch {
    return undefined;
  }
}
