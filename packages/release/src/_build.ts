/**
 * The release build: every executable in the tagged commit's
 * `.forge/releases/build/`, run in filename order in a disposable detached
 * worktree of that commit, with `OUT` pointing at `releases/out/<tag>/`.
 *
 * Posture (SEC-07): build steps are trusted code, like CI steps: they run
 * as the caller, with the caller's environment plus `OUT`,
 * `FORGE_RELEASE_TAG` and `FORGE_RELEASE_COMMIT`, and nothing confines
 * them. What is checked after every step, honestly, is only what git can
 * see: the worktree must still match the tagged commit (no tracked file
 * changed, no untracked file that is not ignored), and the live repository
 * must look the same as before the build (HEAD, the index, tracked files and
 * untracked files' contents; `releases/out/` excepted). Writes to ignored
 * paths, to the rest of the file system or to the network are not detected.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { ForgeError, git, gitMessage, printable, withWorktree } from "@forge/core";
import type { Ctx } from "@forge/cli";

/** What a build needs to know. */
export interface BuildPlan {
  tag: string;
  /** The full commit sha being released. */
  sha: string;
  /** The repository's top level (a realpath). */
  top: string;
  /** `.forge/releases/build` relative to the top level. */
  buildRel: string;
  /** `.forge/releases/out` relative to the top level (left out of the live-repo check). */
  outRootRel: string;
  /** The absolute `OUT` folder (exists, empty). */
  out: string;
  /** Files given on the command line (gh's `release create TAG FILE…`): with them, no steps is no warning. */
  uploads?: number;
}

/** One build step found in the tagged tree. */
export interface BuildStep {
  name: string;
  path: string;
}

/**
 * Run the build; returns when every step passed.
 * @throws ForgeError naming the step that failed or wrote where it must not
 */
export async function runBuild(ctx: Ctx, plan: BuildPlan): Promise<void> {
  const env = ctx.io.env as NodeJS.ProcessEnv;
  const before = await liveState(plan, env);
  // Ctrl-C or a kill: pass it to the running step and stop after it, so the worktree is still removed.
  const stop: Interrupt = { signal: undefined, child: undefined };
  const onSignal = (sig: NodeJS.Signals): void => {
    stop.signal = sig;
    stop.child?.kill(sig);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    await withWorktree(plan.top, plan.sha, env, (wt) => buildIn(ctx, plan, wt, stop, before));
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** The steps, one after another, in the tagged commit's worktree; each checked for writes outside `OUT`. */
async function buildIn(ctx: Ctx, plan: BuildPlan, wt: string, stop: Interrupt, before: string): Promise<void> {
  const env = ctx.io.env as NodeJS.ProcessEnv;
  const checkStop = (): void => {
    if (stop.signal)
      throw new ForgeError(
        `interrupted by ${stop.signal}; no release written`,
        "E_INTERRUPTED",
        stop.signal === "SIGINT" ? 130 : 143
      );
  };
  const steps = buildSteps(ctx, wt, plan.buildRel);
  if (steps.length === 0 && !plan.uploads)
    ctx.log.warn(
      `no build steps in ${plan.buildRel}/ at ${plan.sha.slice(0, 7)} (uncommitted steps are not used): no assets`
    );
  const stepEnv = { ...env, OUT: plan.out, FORGE_RELEASE_TAG: plan.tag, FORGE_RELEASE_COMMIT: plan.sha };
  for (const s of steps) {
    checkStop();
    ctx.io.stderr.write(`${ctx.prog}: build step ${printable(s.name, 80)}\n`);
    const outcome = await runStep(ctx, s, wt, stepEnv, stop);
    checkStop();
    if (outcome)
      throw new ForgeError(`build step '${printable(s.name, 80)}' ${outcome}; no release written`, "E_BUILD_FAILED", 1);
    const changed = await treeChange(wt, env);
    if (changed)
      throw new ForgeError(
        `build step '${printable(s.name, 80)}' changed the tagged tree (${printable(changed, 80)}); no release written`,
        "E_BUILD_ESCAPED",
        1
      );
    if ((await liveState(plan, env)) !== before) {
      throw new ForgeError(
        `build step '${printable(s.name, 80)}' changed the repository outside OUT; no release written`,
        "E_BUILD_ESCAPED",
        1
      );
    }
  }
  checkStop();
}

/**
 * The executables in the worktree's build folder, in filename order (code
 * units). Dot files, folders and non-executable files (a README) are not
 * steps; a symlink (the folder or a step) must stay inside the worktree.
 * @throws ForgeError for a symlink that leaves the tagged tree
 */
export function buildSteps(ctx: Ctx, wt: string, buildRel: string): BuildStep[] {
  const dir = join(wt, buildRel);
  const wtReal = realpathSync(wt);
  const inside = (p: string): boolean => p === wtReal || p.startsWith(wtReal + sep);
  let names: string[];
  try {
    if (!inside(realpathSync(dir)))
      throw new ForgeError(`${buildRel} leaves the tagged tree (a symlink; refused)`, "E_BUILD_ESCAPED", 1);
    names = readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw err;
  }
  const steps: BuildStep[] = [];
  for (const name of names.sort()) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    if (lstatSync(path).isSymbolicLink()) {
      let real: string | undefined;
      try {
        real = realpathSync(path);
      } catch {
        real = undefined;
      }
      if (real === undefined || !inside(real))
        throw new ForgeError(
          `build step '${printable(name, 80)}' is a symlink out of the tagged tree (refused)`,
          "E_BUILD_ESCAPED",
          1
        );
    }
    const st = statSync(path);
    if (!st.isFile()) continue;
    if ((st.mode & 0o111) === 0) {
      // A README is expected; any other file that is not executable is probably a step missing its chmod +x.
      if (!/^readme/i.test(name)) ctx.log.warn(`${buildRel}/${printable(name, 80)} is not executable (skipped)`);
      continue;
    }
    steps.push({ name, path });
  }
  return steps;
}

// --- internal ---

/** A signal received during the build, and the step to pass it to. */
interface Interrupt {
  signal: NodeJS.Signals | undefined;
  child: ChildProcess | undefined;
}

/** Run one step (argv array, no shell); its stdout and stderr go to our stderr. Returns why it failed, or undefined. */
function runStep(
  ctx: Ctx,
  s: BuildStep,
  cwd: string,
  env: NodeJS.ProcessEnv,
  stop: Interrupt
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(s.path, [], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    stop.child = child;
    child.on("exit", () => (stop.child = undefined));
    child.stdout.on("data", (d: Buffer) => ctx.io.stderr.write(d));
    child.stderr.on("data", (d: Buffer) => ctx.io.stderr.write(d));
    child.on("error", (err: NodeJS.ErrnoException) => resolve(`could not start (${err.code ?? "error"})`));
    child.on("close", (code, signal) => {
      if (signal) resolve(`was killed by ${signal}`);
      else if (code !== 0) resolve(`failed (exit ${code})`);
      else resolve(undefined);
    });
  });
}

/** The first path `git status` reports in the worktree (a change or an untracked, unignored file), or undefined. */
async function treeChange(wt: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none"], {
    cwd: wt,
    env,
  });
  if (r.code !== 0) return "git status failed";
  const first = r.stdout.split("\0").find((e) => e !== "");
  return first?.slice(3);
}

/**
 * A fingerprint of what git sees in the live repository: HEAD, the status
 * (index and work tree), the diff of tracked files against HEAD, and each
 * untracked file's contents; `releases/out/` left out.
 */
async function liveState(plan: BuildPlan, env: NodeJS.ProcessEnv): Promise<string> {
  const spec = ["--", ".", `:(exclude,literal)${plan.outRootRel}`];
  const opts = { cwd: plan.top, env };
  const [head, status, diff] = await Promise.all([
    git(["rev-parse", "-q", "--verify", "HEAD"], opts),
    git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none", ...spec], opts),
    git(["diff", "HEAD", "--binary", "--no-ext-diff", "--no-textconv", "--no-color", ...spec], opts),
  ]);
  if (status.code !== 0) throw new ForgeError(`git status failed: ${gitMessage(status.stderr)}`, "E_GIT", 1);
  const h = createHash("sha256")
    .update(head.stdout)
    .update("\0")
    .update(status.stdout)
    .update("\0")
    .update(diff.stdout);
  for (const e of status.stdout.split("\0")) {
    if (!e.startsWith("?? ")) continue;
    const p = join(plan.top, e.slice(3));
    try {
      const st = lstatSync(p);
      h.update(st.isSymbolicLink() ? `link ${readlinkSync(p)}` : st.isFile() ? readFileSync(p) : "other");
    } catch {
      h.update("gone");
    }
  }
  return h.digest("hex");
}
