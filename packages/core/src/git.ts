import { execFile } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ForgeError } from "./errors.js";

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
    execFile("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd: opts.cwd, env: opts.env, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (err, stdout, stderr) => {
      if (err && typeof (err as NodeJS.ErrnoException).code === "string") return reject(err);
      resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 });
    });
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
export function gitBytes(args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<GitBytesResult> {
  return new Promise((resolve, reject) => {
    execFile("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd: opts.cwd, env: opts.env, maxBuffer: 64 * 1024 * 1024, encoding: "buffer" }, (err, stdout, stderr) => {
      if (err && typeof (err as NodeJS.ErrnoException).code === "string") return reject(err);
      resolve({ stdout, stderr: stderr.toString("utf8"), code: err ? ((err as { code?: number }).code ?? 1) : 0 });
    });
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
export async function splitPatchSeries(file: string, out: string, cwd: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  mkdirSync(out);
  const r = await git(["mailsplit", "-b", `-o${out}`, file], { cwd, env });
  if (r.code !== 0) throw new ForgeError(`git mailsplit failed: ${(r.stderr.trim().split("\n")[0] ?? "").slice(0, 200)}`, "E_GIT", 1);
  const names = readdirSync(out).filter((n) => /^\d+$/.test(n)).sort();
  if (names.length === 0) throw new ForgeError("the patch holds no commit; nothing was applied", "E_PATCH_REFUSED", 1);
  return names.map((n) => join(out, n));
}
