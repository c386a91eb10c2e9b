/**
 * End-to-end helpers: temp git repos and the built executables (bin/),
 * run with argv arrays.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (test/dist/lib/ → ../../..). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
/** The bundled executables. */
export const BIN = join(ROOT, "bin");
/** Golden files live in test/golden/ (sources, not dist). */
export const GOLDEN = join(ROOT, "test", "golden");

/** A finished process. */
export interface Ran {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Options for `run`. */
export interface RunOptions {
  cwd: string;
  input?: string;
  env?: Record<string, string | undefined>;
}

/** A fixed, clean environment: no colour, a known author, bin/ on PATH. */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: `${BIN}:${process.env.PATH ?? ""}`,
    HOME: process.env.HOME,
    FORGE_AUTHOR: "alice",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    GIT_CONFIG_NOSYSTEM: "1",
    ...extra,
  };
}

/**
 * Run an executable from bin/ (or any command on PATH) with an argv array.
 * @example await run("forge-issue", ["list", "--json"], { cwd })
 */
export function run(cmd: string, args: string[], opts: RunOptions): Promise<Ran> {
  return new Promise((res, rej) => {
    const child = spawn(cmd.startsWith("forge") ? join(BIN, cmd) : cmd, args, {
      cwd: opts.cwd,
      env: baseEnv(opts.env) as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", rej);
    child.on("close", (code, signal) => res({ stdout, stderr, code, signal }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
  });
}

/** Run a shell pipeline (bash -c) in `cwd`, bin/ on PATH. Only for fixed test text, never user input. */
export function sh(script: string, opts: RunOptions): Promise<Ran> {
  // --norc: Node's stdio pipes are sockets, and Debian's bash then reads ~/.bashrc as if started by sshd.
  return run("bash", ["--norc", "--noprofile", "-o", "pipefail", "-c", script], opts);
}

/** A new temp git repository with an initialised store; returns its path. */
export function tempRepo(prefix = "forge-e2e-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  git(dir, ["init", "-q", "-b", "main"]);
  git(dir, ["config", "user.name", "alice"]);
  git(dir, ["config", "user.email", "alice@example.com"]);
  execFileSync(join(BIN, "forge"), ["init"], { cwd: dir, stdio: "ignore" });
  return dir;
}

/**
 * Define labels in `dir`'s store (`labels.md`, GitHub's defaults replaced):
 * gh refuses a label the repository does not define, and so does forge.
 * @param names plain names (no YAML syntax)
 */
export function defineLabels(dir: string, names: readonly string[]): void {
  writeFileSync(
    join(dir, ".forge", "labels.md"),
    `---\nlabels:\n${names.map((n) => `  - name: ${n}\n`).join("")}---\n`
  );
}

/** Run git synchronously in `dir`; returns stdout. */
export function git(dir: string, args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
}

/** Parse JSON lines. */
export function jsonl(s: string): Array<Record<string, unknown>> {
  return s
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
