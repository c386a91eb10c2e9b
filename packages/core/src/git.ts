import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ForgeError } from "./errors.js";
import { printable } from "./sanitize.js";

/** The result of a git run. */
export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Run git with an argv array (never a shell, SEC-04). Hooks are off for
 * every call (`core.hooksPath=/dev/null`, SEC-06).
 * @param args git's arguments, e.g. `["config", "user.name"]`
 * @param opts `cwd` and `env`
 * @returns stdout, stderr and the exit code (never throws on a non-zero exit)
 * @example await git(["rev-parse", "HEAD"], { cwd })
 */
export function git(args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "core.hooksPath=/dev/null", ...args],
      { cwd: opts.cwd, env: opts.env, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (err, stdout, stderr) => {
        if (err && typeof (err as NodeJS.ErrnoException).code === "string") return reject(err);
        resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 });
      }
    );
  });
}

/** The result of a git run whose output is kept as bytes. */
export interface GitBytesResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/**
 * `git()` with stdout as bytes, for output that must stay byte-exact (a
 * patch from `format-patch`, a `diff` of files in any encoding).
 * @param args git's arguments
 * @param opts `cwd`, `env`
 * @returns stdout (bytes), stderr and the exit code (never throws on a non-zero exit)
 * @throws when git cannot run or stdout passes 64 MiB
 * @example await gitBytes(["format-patch", "--stdout", "main..topic"], { cwd })
 */
export function gitBytes(
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}
): Promise<GitBytesResult> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["-c", "core.hooksPath=/dev/null", ...args],
      { cwd: opts.cwd, env: opts.env, maxBuffer: 64 * 1024 * 1024, encoding: "buffer" },
      (err, stdout, stderr) => {
        if (err && typeof (err as NodeJS.ErrnoException).code === "string") return reject(err);
        resolve({ stdout, stderr: stderr.toString("utf8"), code: err ? ((err as { code?: number }).code ?? 1) : 0 });
      }
    );
  });
}

/**
 * Split a `format-patch` series into one file per commit (`git mailsplit`,
 * as `git am` does; a plain diff is one part). One `git apply` of a whole
 * series gets a file added then deleted, or added then renamed, wrong:
 * apply the parts in order instead.
 * @param file the patch
 * @param out a folder to create for the parts
 * @returns the parts' paths, in order
 * @throws ForgeError when git cannot split it or it holds no commit
 */
export async function splitPatchSeries(
  file: string,
  out: string,
  cwd: string,
  env?: NodeJS.ProcessEnv
): Promise<string[]> {
  mkdirSync(out);
  const r = await git(["mailsplit", "-b", `-o${out}`, file], { cwd, env });
  if (r.code !== 0) throw new ForgeError(`git mailsplit failed: ${gitMessage(r.stderr)}`, "E_GIT", 1);
  const names = readdirSync(out)
    .filter((n) => /^\d+$/.test(n))
    .sort();
  if (names.length === 0) throw new ForgeError("the patch holds no commit; nothing was applied", "E_PATCH_REFUSED", 1);
  return names.map((n) => join(out, n));
}

/**
 * git's first meaningful stderr line for a one-line error: `hint:` lines
 * skipped, `fatal: ` / `error: ` dropped, control characters shown as `?`,
 * at most 200 characters.
 * @example gitMessage("hint: x\nfatal: not a git repository\n") // "not a git repository"
 */
export function gitMessage(stderr: string): string {
  const line =
    stderr
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "" && !l.startsWith("hint:")) ?? "no message";
  return printable(line.replace(/^(?:fatal|error): /, ""), 200);
}

/**
 * The top folder of the repository around `cwd`, every symlink resolved.
 * @param why what needs a repository, for the error (`a merge needs one`)
 * @throws ForgeError (exit 1) outside a repository
 */
export async function gitTopLevel(cwd: string, env: NodeJS.ProcessEnv | undefined, why: string): Promise<string> {
  const r = await git(["rev-parse", "--show-toplevel"], { cwd, env });
  if (r.code !== 0) throw new ForgeError(`not in a git repository (${why})`, "E_NO_GIT", 1);
  return realpathSync(r.stdout.trim());
}

/** Options of `withWorktree`. */
export interface WorktreeOptions {
  /**
   * Called with the scratch folder before the worktree is added (e.g. to leave an owner file a later clean-up can
   * read).
   */
  mark?: (tmp: string) => void;
}

/**
 * A disposable worktree (SEC-05): `fn` runs in a fresh worktree of `top`'s
 * repository checked out detached at `commit`, under the OS temp dir, with
 * `tmp` a scratch folder beside it; both are removed whatever happens, so
 * the live checkout never sees what runs there. Worktrees added and removed
 * at the same moment race on git's own files (an add reads every other
 * worktree's `commondir`, which another add creates empty and then fills, and
 * dies on the empty one: "failed to read …: Success"): a failed add is tried
 * again after a growing, jittered pause, up to ~1.3 s, unless `commit` is no
 * commit here.
 * @throws ForgeError (E_WORKTREE) when the worktree cannot be made
 */
export async function withWorktree<T>(
  top: string,
  commit: string,
  env: NodeJS.ProcessEnv | undefined,
  fn: (dir: string, tmp: string) => Promise<T>,
  opts: WorktreeOptions = {}
): Promise<T> {
  const tmp = mkdtempSync(join(tmpdir(), "forge-"));
  opts.mark?.(tmp);
  // Named after its unique temp folder: git names the worktree's admin folder (.git/worktrees/<name>)
  // after the basename, and parallel adds of one name race for it (one fails under load).
  const dir = join(tmp, basename(tmp));
  let added = false;
  try {
    const add = ["worktree", "add", "--detach", "--quiet", dir, commit];
    let r = await git(add, { cwd: top, env });
    // Tried again only for a commit that is there: no pause makes one that is not.
    const verify = ["rev-parse", "--verify", "-q", `${commit}^{commit}`];
    const retry = r.code !== 0 && (await git(verify, { cwd: top, env })).code === 0;
    for (let pause = 20; retry && r.code !== 0 && pause <= 640; pause *= 2) {
      await new Promise((ok) => setTimeout(ok, pause * (1 + Math.random())));
      r = await git(add, { cwd: top, env });
    }
    if (r.code !== 0)
      throw new ForgeError(
        `cannot check out ${commit.slice(0, 12)} in a worktree: ${gitMessage(r.stderr)}`,
        "E_WORKTREE",
        1
      );
    added = true;
    return await fn(dir, tmp);
  } finally {
    // `--force` twice: also a worktree something locked meanwhile.
    if (added) await git(["worktree", "remove", "--force", "--force", dir], { cwd: top, env }).catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
    if (added) await git(["worktree", "prune"], { cwd: top, env }).catch(() => undefined);
  }
}

/**
 * The code tree of a commit (spec/loop.md §4): the git tree id of its root
 * listing without the top-level `.forge` entry, what `git mktree` would give
 * for it, computed by hashing the listing in git's tree-object format so
 * nothing is written to the object store. Committing forge's own state
 * never changes it.
 * @param commit a commit id (or any revision naming a commit)
 * @returns 40 hex (64 in a sha256 repository)
 * @throws ForgeError (E_GIT) when git cannot list the commit
 * @example await codeTree(top, "HEAD")
 */
export async function codeTree(cwd: string, commit: string, env?: NodeJS.ProcessEnv): Promise<string> {
  return listedCodeTree(cwd, `${commit}^{commit}`, commit, env);
}

/**
 * The code tree of the workspace as it is now (spec/loop.md §4): tracked
 * and untracked files, not ignored ones, `.forge` left out as `codeTree`
 * leaves it, so a clean workspace's is its HEAD's. Made through a temporary
 * index, a copy of the real one (its stat cache spares hashing unchanged
 * files): the real index and the files are never touched; the workspace's
 * blobs and trees are written to the object store, as `git stash` would.
 * @returns the tree id, or null outside git (or when git fails)
 * @example await workspaceCodeTree(top) // the same as codeTree(top, "HEAD") when nothing changed
 */
export async function workspaceCodeTree(cwd: string, env?: NodeJS.ProcessEnv): Promise<string | null> {
  const tmp = mkdtempSync(join(tmpdir(), "forge-loop-tree-"));
  try {
    const index = join(tmp, "index");
    const e = { ...(env ?? process.env), GIT_INDEX_FILE: index };
    const ok = async (args: string[], withEnv: NodeJS.ProcessEnv | undefined = e): Promise<string | null> => {
      const r = await git(args, { cwd, env: withEnv }).catch(() => undefined);
      return r?.code === 0 ? r.stdout.trim() : null;
    };
    const real = await ok(["rev-parse", "--path-format=absolute", "--git-path", "index"], env);
    if (real && existsSync(real)) copyFileSync(real, index);
    else if ((await ok(["read-tree", (await headCommit(cwd, env)) ?? "--empty"])) === null) return null;
    if ((await ok(["add", "-A", "--", ".", ":(exclude).forge"])) === null) return null;
    const tree = await ok(["write-tree"]);
    if (!tree || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(tree)) return null;
    return await listedCodeTree(cwd, tree, tree, env);
  } catch {
    return null; // git cannot list it: as outside git
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * HEAD's commit id, or null outside git or before the first commit.
 * @example await headCommit(top) // "3f…" (40 hex)
 */
export async function headCommit(cwd: string, env?: NodeJS.ProcessEnv): Promise<string | null> {
  const r = await git(["rev-parse", "--verify", "-q", "HEAD"], { cwd, env }).catch(() => undefined);
  const out = r?.code === 0 ? r.stdout.trim() : "";
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(out) ? out : null;
}

/** The code tree of the root tree `rev` names (`<commit>^{commit}` or a tree id). */
async function listedCodeTree(cwd: string, rev: string, shown: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const r = await gitBytes(["ls-tree", "-z", "--full-tree", "--end-of-options", rev], { cwd, env });
  if (r.code !== 0) {
    throw new ForgeError(`cannot list the tree of ${shown.slice(0, 40)}: ${gitMessage(r.stderr)}`, "E_GIT", 1);
  }
  return codeTreeOfListing(r.stdout);
}

/**
 * The code tree of a `git ls-tree -z` listing of a root tree (see `codeTree`).
 * @example codeTreeOfListing(Buffer.from("")) // the empty tree: 4b825dc642cb6eb9a060e54bf8d69288fbee4904
 */
export function codeTreeOfListing(listing: Buffer): string {
  const parts: Buffer[] = [];
  let algo: "sha1" | "sha256" = "sha1";
  let start = 0;
  while (start < listing.length) {
    let end = listing.indexOf(0, start);
    if (end < 0) end = listing.length;
    const rec = listing.subarray(start, end);
    start = end + 1;
    const tab = rec.indexOf(9);
    if (tab < 0) throw new ForgeError("git ls-tree printed a line without a name", "E_GIT", 1);
    const [mode, , oid] = rec.subarray(0, tab).toString("latin1").split(" ");
    const name = rec.subarray(tab + 1);
    if (!mode || !oid || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid))
      throw new ForgeError("git ls-tree printed an unexpected line", "E_GIT", 1);
    if (name.equals(FORGE_NAME)) continue;
    if (oid.length === 64) algo = "sha256";
    parts.push(Buffer.from(`${mode.replace(/^0+/, "")} `, "latin1"), name, Buffer.from([0]), Buffer.from(oid, "hex"));
  }
  const body = Buffer.concat(parts);
  return createHash(algo).update(`tree ${body.length}\0`).update(body).digest("hex");
}

const FORGE_NAME = Buffer.from(".forge");
