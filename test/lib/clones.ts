/**
 * Clones for the tests where two people work on one store and meet through
 * plain git. git runs with no global or system config, so the machine's
 * settings (pull.rebase, merge.conflictstyle, hooks…) cannot change a result.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempRepo } from "./run.js";
import { scratch } from "./scratch.js";

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0" };

/** Run git in `dir` with only the repository's own config; returns stdout, throws on failure. */
export function gitIn(dir: string, args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: GIT_ENV });
}

/** Run git in `dir` and report how it went instead of throwing. */
export function gitTry(dir: string, args: string[]): { code: number | null; out: string } {
  const r = spawnSync("git", args, { cwd: dir, encoding: "utf8", env: GIT_ENV });
  return { code: r.status, out: r.stdout + r.stderr };
}

/** A temp repo with an initialised store, committed: the shared origin. */
export function originRepo(): string {
  const dir = scratch(tempRepo("forge-origin-"));
  gitIn(dir, ["add", "-A"]);
  gitIn(dir, ["commit", "-q", "-m", "forge init"]);
  return dir;
}

/**
 * `git clone` of `origin` as `user`, with `pull.rebase=false` so a plain
 * `git pull` merges (git asks otherwise when branches have diverged).
 */
export function cloneAs(origin: string, user: string): string {
  const dir = join(scratch(realpathSync(mkdtempSync(join(tmpdir(), `forge-clone-${user}-`)))), "repo");
  gitIn(origin, ["clone", "-q", origin, dir]);
  gitIn(dir, ["config", "user.name", user]);
  gitIn(dir, ["config", "user.email", `${user}@example.com`]);
  gitIn(dir, ["config", "pull.rebase", "false"]);
  return dir;
}

/** Stage everything and commit. */
export function commitAll(dir: string, message: string): void {
  gitIn(dir, ["add", "-A"]);
  gitIn(dir, ["commit", "-q", "-m", message]);
}

/** Make `peer` a remote of `dir` under the name `peer`. */
export function addPeer(dir: string, peer: string): void {
  gitIn(dir, ["remote", "add", "peer", peer]);
}
