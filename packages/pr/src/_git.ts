/**
 * The git a pull request needs: branch names checked by git itself, the
 * patch made with `format-patch`, and a disposable worktree (under the OS
 * temp dir, hooks off, removed after) where a stored patch is applied with
 * `git am` (SEC-05). Every call is an argv array through core's `git()`;
 * names come after validation, commits as hex only.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ForgeError, git, gitBytes, gitMessage, NotFoundError, UsageError, withWorktree } from "@forge/core";
import { shown } from "./_shared.js";

/** A full commit id (sha-1 or sha-256). */
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Whether `s` is a full commit id, safe to pass to git as an argument. */
export function isSha(s: unknown): s is string {
  return typeof s === "string" && SHA.test(s);
}

/**
 * A branch name git accepts (`git check-ref-format --branch`), never one
 * that could read as a flag.
 * @returns the name (git's expansion of `@{-1}` and the like)
 * @throws UsageError naming the refused name
 */
export async function checkBranch(cwd: string, name: string): Promise<string> {
  // eslint-disable-next-line no-control-regex
  if (name === "" || name.startsWith("-") || /[\x00-\x1f\x7f]/.test(name))
    throw new UsageError(`invalid branch name '${shown(name)}'`);
  const r = await git(["check-ref-format", "--branch", name], { cwd });
  if (r.code !== 0) throw new UsageError(`invalid branch name '${shown(name)}'`);
  return r.stdout.trim();
}

/**
 * The branch checked out in `cwd` (gh's default head).
 * @throws UsageError on a detached HEAD; ForgeError outside a repository
 */
export async function currentBranch(cwd: string): Promise<string> {
  const r = await git(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd });
  if (r.code === 0) return r.stdout.trim();
  if (r.code === 1) throw new UsageError("HEAD is detached: name the head branch with --head");
  throw gitError("git symbolic-ref", r.stderr);
}

/**
 * The commit a branch points at.
 * @throws NotFoundError when there is no such branch
 */
export async function branchCommit(cwd: string, name: string): Promise<string> {
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${name}^{commit}`], { cwd });
  const sha = r.stdout.trim();
  if (r.code !== 0 || !isSha(sha)) throw new NotFoundError(`no branch '${shown(name)}'`);
  return sha;
}

/** Whether a commit is in the local repository. */
export async function hasCommit(cwd: string, sha: unknown): Promise<boolean> {
  if (!isSha(sha)) return false;
  return (await git(["cat-file", "-e", `${sha}^{commit}`], { cwd })).code === 0;
}

/** A patch as made by `makePatch`. */
export interface MadePatch {
  bytes: Buffer;
  /** The merge base of base and head: the commit the patch applies to. */
  baseSha: string;
  headSha: string;
  /** Paths under the store that base..head changes and the patch leaves out (repository-relative). */
  left: string[];
}

/**
 * `git format-patch --stdout --no-signature <merge-base>..<head>` for two
 * checked branch names, refusing an empty range. With `store` (the store's
 * real path), the store's folder is left out of the patch (forge's own
 * writes never ride into a PR) and the paths left out are returned.
 * @throws NotFoundError for a missing branch; ForgeError for an empty range, no common commit, or a git failure
 */
export async function makePatch(cwd: string, base: string, head: string, store?: string): Promise<MadePatch> {
  const baseTip = await branchCommit(cwd, base);
  const headSha = await branchCommit(cwd, head);
  const count = await git(["rev-list", "--count", `${baseTip}..${headSha}`], { cwd });
  if (count.code !== 0) throw gitError("git rev-list", count.stderr);
  if (Number(count.stdout.trim()) === 0)
    throw new ForgeError(`No commits between ${shown(base)} and ${shown(head)}`, "E_EMPTY_RANGE", 1);
  const mb = await git(["merge-base", baseTip, headSha], { cwd });
  const baseSha = mb.stdout.trim();
  if (mb.code !== 0 || !isSha(baseSha))
    throw new ForgeError(`${shown(base)} and ${shown(head)} have no common commit`, "E_NO_MERGE_BASE", 1);
  const rel = store === undefined ? undefined : await storePath(cwd, store);
  // Fixed prefixes and no signature: the bytes (and their digest) do not depend on the user's diff config or git's
  // version.
  const args = [
    "format-patch",
    "--stdout",
    "--no-signature",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    `${baseSha}..${headSha}`,
    ...withoutStore(rel),
  ];
  const p = await gitBytes(args, { cwd }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER")
      throw new ForgeError("the patch is larger than 64 MiB", "E_PATCH_TOO_BIG", 1);
    throw err;
  });
  if (p.code !== 0) throw gitError("git format-patch", p.stderr);
  const left = rel === undefined ? [] : await changedUnder(cwd, baseSha, headSha, rel);
  if (p.stdout.length === 0 && left.length > 0)
    throw new ForgeError(
      `no patch between ${shown(base)} and ${shown(head)}: its commits change only ${rel}/ (forge's store)`,
      "E_EMPTY_RANGE",
      1
    );
  if (p.stdout.length === 0)
    throw new ForgeError(`no patch between ${shown(base)} and ${shown(head)} (merge commits only)`, "E_EMPTY_RANGE", 1);
  return { bytes: p.stdout, baseSha, headSha, left };
}

/** One stderr line naming what `makePatch` left out, or `undefined` when nothing was. */
export function leftOutLine(left: readonly string[]): string | undefined {
  if (left.length === 0) return undefined;
  const shownPaths = left.slice(0, 3).map(shown).join(", ");
  const more = left.length > 3 ? ` and ${left.length - 3} more` : "";
  return `left out of the patch (forge's store; run \`forge sync\` on the base): ${shownPaths}${more}`;
}

/** The store's folder relative to the repository's top (`/`-separated), or `undefined` when outside it. */
export async function storePath(cwd: string, store: string): Promise<string | undefined> {
  const top = await git(["rev-parse", "--show-toplevel"], { cwd });
  if (top.code !== 0) throw gitError("git rev-parse", top.stderr);
  const rel = relative(realpathSync(top.stdout.trim()), store);
  if (rel === "" || rel.startsWith("..")) return undefined;
  return rel.split(sep).join("/");
}

/** The pathspec of the whole tree but the store at `rel` (as `makePatch` leaves it out). */
export function withoutStore(rel: string | undefined): string[] {
  return rel === undefined ? [] : ["--", ":/", `:(exclude,top)${rel}`];
}

/** The paths under `rel` that `from..to` changes. */
async function changedUnder(cwd: string, from: string, to: string, rel: string): Promise<string[]> {
  const r = await git(["diff", "--no-renames", "--name-only", "-z", from, to, "--", `:(top)${rel}`], { cwd });
  if (r.code !== 0) throw gitError("git diff", r.stderr);
  return r.stdout.split("\0").filter((x) => x !== "");
}

/**
 * Apply a patch with `git am` on `baseSha` in a disposable worktree under
 * the OS temp dir, run `fn` there with the resulting commit, and remove
 * the worktree whatever happens. Nothing in the caller's checkout changes.
 * With `keep` false the new objects go to a temp object store beside the
 * worktree (the repository's own objects are read through
 * GIT_ALTERNATE_OBJECT_DIRECTORIES), so a reader such as `diff` leaves the
 * repository as it found it; `fn` gets the environment to run git with.
 * @param env the environment for git (`git am`'s committer identity)
 * @throws ForgeError when the worktree cannot be made or the patch does not apply
 */
export async function withPatchApplied<T>(
  cwd: string,
  env: NodeJS.ProcessEnv,
  baseSha: string,
  patch: Uint8Array,
  keep: boolean,
  fn: (dir: string, head: string, env: NodeJS.ProcessEnv) => Promise<T>
): Promise<T> {
  if (!isSha(baseSha)) throw new ForgeError("the PR records no valid baseSha", "E_NO_BASE", 1);
  return withWorktree(cwd, baseSha, undefined, async (dir, tmp) => {
    const file = join(tmp, "patch.diff");
    writeFileSync(file, patch);
    let runEnv = env;
    if (!keep) {
      const common = await git(["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd });
      if (common.code !== 0) throw gitError("git rev-parse", common.stderr);
      mkdirSync(join(tmp, "objects"));
      runEnv = {
        ...env,
        GIT_OBJECT_DIRECTORY: join(tmp, "objects"),
        GIT_ALTERNATE_OBJECT_DIRECTORIES: join(common.stdout.trim(), "objects"),
      };
    }
    const am = await git(["am", "--quiet", "--no-gpg-sign", file], { cwd: dir, env: runEnv });
    if (am.code !== 0)
      throw new ForgeError(
        `the patch does not apply on ${baseSha.slice(0, 12)}: ${gitMessage(am.stderr || am.stdout)}`,
        "E_PATCH_FAILED",
        1
      );
    const head = (await git(["rev-parse", "HEAD"], { cwd: dir, env: runEnv })).stdout.trim();
    return fn(dir, head, runEnv);
  });
}

/** An error from git's first stderr line. */
export function gitError(what: string, stderr: string): ForgeError {
  return new ForgeError(`${what} failed: ${gitMessage(stderr)}`, "E_GIT", 1);
}

/**
 * The repository's default branch, as gh's `pr create` takes it: origin's
 * HEAD, else `init.defaultBranch` when that branch exists, else `main`,
 * else `master` (else `main`, for the error that names it).
 */
export async function defaultBranch(cwd: string): Promise<string> {
  const o = await git(["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"], { cwd });
  if (o.code === 0 && o.stdout.trim().startsWith("origin/")) return o.stdout.trim().slice("origin/".length);
  const exists = async (b: string): Promise<boolean> =>
    (await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `refs/heads/${b}`], { cwd })).code === 0;
  const init = await git(["config", "--get", "init.defaultBranch"], { cwd });
  const name = init.stdout.trim();
  if (init.code === 0 && name && !name.startsWith("-") && (await exists(name))) return name;
  if (await exists("main")) return "main";
  if (await exists("master")) return "master";
  return "main";
}

/** A commit of base..head for `--fill`. */
export interface FillCommit {
  subject: string;
  body: string;
}

/**
 * The commits of `base...head` not in base, newest first (gh's
 * `git log --cherry BASE...HEAD`).
 */
export async function rangeCommits(cwd: string, base: string, head: string): Promise<FillCommit[]> {
  const r = await git(
    [
      "-c",
      "log.ShowSignature=false",
      "log",
      "--pretty=format:%H%x00%s%x00%b%x00",
      "--cherry",
      "--end-of-options",
      `${base}...${head}`,
    ],
    { cwd }
  );
  if (r.code !== 0) throw gitError("git log", r.stderr);
  const f = r.stdout.split("\0");
  const out: FillCommit[] = [];
  for (let i = 0; i + 2 < f.length; i += 3) out.push({ subject: f[i + 1]!, body: f[i + 2]!.trim() });
  return out;
}
