/**
 * `forge sync`: commit forge's own pending writes (the store's changed and
 * new files; gitignored machine state stays out) on the base branch, so a
 * branch started from it, or a `git commit -am` on one, never carries
 * them and the base's store never goes back in time after a merge. Only
 * the store's paths are committed (other staged changes stay staged);
 * hooks and signing are off, as for forge's merge commits.
 */
import { relative, sep } from "node:path";
import {
  ciEnvFile,
  ciSettings,
  ConflictError,
  displayPath,
  ForgeError,
  git,
  gitMessage,
  gitTopLevel,
  isForgeError,
  openStore,
  parseCiEnv,
  readStoreFile,
  UsageError,
  type Store,
} from "@forge/core";
import type { Io } from "@forge/cli";

export const SYNC_HELP =
  "usage: forge sync\n" +
  "Commit forge's pending .forge/ writes; run it on the base branch (ci.env base, else main)\n";

/** What `forge sync` did. */
export interface SyncResult {
  branch: string;
  /** The new commit, or null when there was nothing to commit. */
  commit: string | null;
  files: number;
}

/**
 * Commit the store's pending changes on the checked-out base branch.
 * @throws UsageError for an argument; ConflictError off the base branch; ForgeError for a git failure
 */
export async function syncStore(cwd: string, env: NodeJS.ProcessEnv): Promise<SyncResult> {
  const store = openStore({ cwd, env });
  const top = await gitTopLevel(cwd, env, "forge sync commits the store");
  const rel = relative(top, store.real);
  if (rel === "" || rel.startsWith("..")) throw new ForgeError("the store is not inside this repository", "E_GIT", 1);
  const path = rel.split(sep).join("/");
  const head = await git(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd: top, env });
  if (head.code !== 0) throw new ConflictError("HEAD is detached: check out the base branch, then forge sync");
  const branch = head.stdout.trim();
  const base = await baseBranch(top, store, env);
  if (branch !== base)
    throw new ConflictError(
      `on '${branch}', not the base '${base}': forge's writes belong on ${base} (git checkout ${base}; forge sync)`
    );
  const spec = [`:(top)${path}`, `:(exclude,top,glob)${path}/**/*.lock`];
  const run = async (args: string[]): Promise<string> => {
    const r = await git(args, { cwd: top, env });
    if (r.code !== 0) throw new ForgeError(`git ${args[0]} failed: ${gitMessage(r.stderr || r.stdout)}`, "E_GIT", 1);
    return r.stdout;
  };
  await run(["add", "-A", "--", ...spec]);
  const staged = (await run(["diff", "--cached", "--name-only", "-z", "--", ...spec])).split("\0").filter(Boolean);
  if (staged.length === 0) return { branch, commit: null, files: 0 };
  const msg = `forge: sync the store (${staged.length} file${staged.length === 1 ? "" : "s"})`;
  await run([
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "commit.gpgSign=false",
    "commit",
    "--no-verify",
    "-q",
    "-m",
    msg,
    "--",
    ...spec,
  ]);
  const commit = (await run(["rev-parse", "HEAD"])).trim();
  return { branch, commit, files: staged.length };
}

/** `forge sync [args]`: run it and say what it did on stderr. */
export async function runSync(io: Io, rest: string[]): Promise<number> {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]!.slice(0, 40)}'`);
  const r = await syncStore(io.cwd, io.env);
  io.stderr.write(
    r.commit === null
      ? `Nothing to sync: the store is committed on ${r.branch}\n`
      : `✓ Committed ${r.files} store file${r.files === 1 ? "" : "s"} on ${r.branch} at ${r.commit.slice(0, 12)}\n`
  );
  return 0;
}

/** The base branch: `base` in ci.env, else init.defaultBranch, main or master when it exists (as `pr create`). */
async function baseBranch(top: string, store: Store, env: NodeJS.ProcessEnv): Promise<string> {
  const file = ciEnvFile(store);
  try {
    const base = ciSettings(parseCiEnv(readStoreFile(store, file), displayPath(store, file))).base;
    if (base) return base;
  } catch (err) {
    if (!(isForgeError(err) && err.code === "E_NOT_FOUND")) throw err;
  }
  const o = await git(["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"], { cwd: top, env });
  if (o.code === 0 && o.stdout.trim().startsWith("origin/")) return o.stdout.trim().slice("origin/".length);
  const exists = async (b: string): Promise<boolean> =>
    (await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `refs/heads/${b}`], { cwd: top, env })).code ===
    0;
  const init = await git(["config", "--get", "init.defaultBranch"], { cwd: top, env });
  const name = init.stdout.trim();
  if (init.code === 0 && name && !name.startsWith("-") && (await exists(name))) return name;
  if (await exists("main")) return "main";
  if (await exists("master")) return "master";
  return "main";
}
