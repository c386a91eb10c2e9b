/**
 * Worktree preparation's bench cases (issue 26):
 * - setup once per worktree: a 24-step store whose first step is a 2 s
 *   setup, one CheckRerun plan per step piped into one forge-act; the step
 *   executions per targeted trial (deterministic: counted from the CI run
 *   records) against today's behaviour in the same run
 *   (`--independent-trials`: each trial a fresh worktree and its whole
 *   setup); target ≤ 1.2 executions per targeted trial;
 * - the dependency cache: a worktree ready (checked out, its 300 packages in
 *   node_modules, a first step that reads them) with the cache warm, against
 *   the same with the cache deleted first (the install step runs); target
 *   ≤ 3 s. `--until 10-test`, not `--until 05-install`: a run that targets
 *   the install step always runs it (its own rerun), so the warm side would
 *   never restore.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { round, type Case, type Result } from "./bench_lib.js";

/** A repository with one commit of `files` and `steps` (`name` → shell text), forge-initialised. */
function repo(dir: string, bin: string, steps: Record<string, string>, files: Record<string, string> = {}): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  const git = (...a: string[]) => execFileSync("git", a, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  execFileSync(join(bin, "forge"), ["init"], { cwd: dir, stdio: "ignore" });
  for (const [name, text] of Object.entries(steps)) {
    const f = join(dir, ".forge", "ci", "steps", name);
    writeFileSync(f, `#!/bin/sh\n${text}\n`);
    chmodSync(f, 0o755);
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=b@e", "-c", "commit.gpgsign=false", "commit", "-qm", "bench");
  return execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8" }).trim();
}

/** Step executions (steps that ran, not `skipped`) over every CI run record of `dir`. */
function executions(dir: string): { runs: number; executions: number } {
  const runs = join(dir, ".forge", "ci", "runs");
  let n = 0;
  let count = 0;
  for (const id of readdirSync(runs)) {
    if (id.startsWith(".")) continue;
    const text = readFileSync(join(runs, id, "summary.md"), "utf8");
    n++;
    count += [...text.matchAll(/^ {4}outcome: (\S+)$/gm)].filter((m) => m[1] !== "skipped").length;
  }
  return { runs: n, executions: count };
}

/**
 * One CheckRerun plan per step of a 24-step store (the first a 2 s setup), last step first, piped into one
 * forge-act.
 * @returns executions per targeted trial and wall ms per trial
 */
function rerunAll(
  dir: string,
  bin: string,
  env: NodeJS.ProcessEnv,
  reps: number,
  args: string[],
  perAct: { pool: string | null } | null = null
): Rec {
  const steps: Record<string, string> = { "01-setup": "sleep 2" };
  for (let i = 2; i <= 24; i++) steps[`${String(i).padStart(2, "0")}-check`] = "exit 0";
  const sha = repo(dir, bin, steps);
  // The last step first: its first trial runs the whole setup (23 steps) before the plans further up reuse it.
  const plans = Object.keys(steps)
    .reverse()
    .map((step, i) =>
      JSON.stringify({
        kind: "plan",
        plan_id: `bench-${i}`,
        plan_kind: "CheckRerun",
        target_key: `bench-${i}`,
        target_kind: "FragileNode",
        scope: "default",
        params: { step, head_sha: sha, repetitions: reps, precision_micros: 300_000 },
      })
    )
    .join("\n");
  const t0 = performance.now();
  // perAct: one forge-act per plan, as forge-pilot starts them (with a pool: FORGE_ACT_SETUPS shared by the run).
  const pool = perAct?.pool ?? null;
  const inputs = perAct === null ? [plans] : plans.split("\n");
  let stdout = "";
  for (const input of inputs) {
    const e = pool === null ? env : { ...env, FORGE_ACT_SETUPS: pool };
    const r = spawnSync(join(bin, "forge-act"), ["--json", ...args], { cwd: dir, env: e, input, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`forge-act ${args.join(" ")}: exit ${r.status}: ${r.stderr.slice(-300)}`);
    stdout += r.stdout;
  }
  const ms = performance.now() - t0;
  if (pool !== null) removePool(dir, pool);
  const trials = stdout
    .split("\n")
    .filter(Boolean)
    .reduce((n, l) => n + (JSON.parse(l) as Rec).stats.trials, 0);
  const e = executions(dir);
  return { trials, ...e, perTrial: e.executions / trials, msPerTrial: ms / trials };
}

type Rec = Record<string, any>;

/** Remove the worktrees a pool names and the pool (what forge-pilot does at a run's end). */
function removePool(dir: string, pool: string): void {
  for (const f of readdirSync(pool).filter((n) => /\.json(\.taken-\d+)?$/.test(n))) {
    const kept = JSON.parse(readFileSync(join(pool, f), "utf8")) as Rec;
    spawnSync("git", ["worktree", "remove", "--force", "--force", kept.dir], { cwd: dir, stdio: "ignore" });
    rmSync(dirname(kept.dir), { recursive: true, force: true });
  }
  rmSync(pool, { recursive: true, force: true });
  spawnSync("git", ["worktree", "prune"], { cwd: dir, stdio: "ignore" });
}

/**
 * The setup-across-acts case: one forge-act per plan sharing a pool (as forge-pilot's run starts them), against
 * one forge-act per plan without one (each act prepares its own worktree).
 */
export function setupAcrossActs(bench: string, bin: string, env: NodeJS.ProcessEnv): Result {
  mkdirSync(join(bench, "setup"), { recursive: true });
  const pool = mkdtempSync(join(tmpdir(), "forge-setups-"));
  const shared = rerunAll(join(bench, "setup", "pooled"), bin, env, 10, [], { pool });
  const alone = rerunAll(join(bench, "setup", "unpooled"), bin, env, 10, [], { pool: null });
  return perTrial(
    "setup across forge-act invocations: step executions per targeted trial @24 acts, 2 s setup",
    ["24 forge-act × 1 CheckRerun plan × 10 trials, FORGE_ACT_SETUPS shared", shared, "pooled"],
    ["the same without FORGE_ACT_SETUPS (today's behaviour: a setup per act)", alone, "a setup per act"],
    ""
  );
}

/**
 * The setup-once case: shared setups (10 trials a check, the default) against independent trials (today's
 * behaviour; one trial a check: each trial of step k runs k steps whatever the count, so fewer is the same ratio).
 */
export function setupOnce(bench: string, bin: string, env: NodeJS.ProcessEnv): Result {
  mkdirSync(join(bench, "setup"), { recursive: true });
  const shared = rerunAll(join(bench, "setup", "shared"), bin, env, 10, []);
  const alone = rerunAll(join(bench, "setup", "independent"), bin, env, 1, ["--independent-trials"]);
  return perTrial(
    "setup once per worktree: step executions per targeted trial @24 steps, 2 s setup",
    ["24 CheckRerun plans × 10 trials | forge-act (shared setups)", shared, "shared"],
    ["24 CheckRerun plans × 1 trial | forge-act --independent-trials (today's behaviour)", alone, "independent"],
    " (counted from the run records)"
  );
}

/** A step-executions-per-trial Result: `[label, measured, word]` of the subject and of the baseline. */
function perTrial(name: string, subject: [string, Rec, string], baseline: [string, Rec, string], how: string): Result {
  const [sLabel, s, sWord] = subject;
  const [bLabel, b, bWord] = baseline;
  const each = (r: Rec, word: string) => `${word} ${r.executions}/${r.trials} = ${r.perTrial.toFixed(2)}`;
  return {
    case: name,
    subject: sLabel,
    baseline: bLabel,
    medianMs: round(s.msPerTrial),
    baselineMedianMs: round(b.msPerTrial),
    ratio: Math.round(s.perTrial * 100) / 100,
    target: "≤ 1.2 exec/trial",
    pass: s.perTrial <= 1.2,
    note:
      `ms columns: wall per targeted trial; ratio column: step executions per targeted trial${how}: ` +
      `${each(s, sWord)}, ${each(b, bWord)}`,
    samplesMs: [round(s.msPerTrial)],
    baselineSamplesMs: [round(b.msPerTrial)],
  };
}

/**
 * The cache case: `forge-ci run --until 10-test` of a project whose lockfile names 300 packages (vendored
 * folders, installed by a step that copies them as a package manager lays them out), with the cache warm (subject)
 * and deleted first (baseline: the install runs).
 */
export function cacheCase(bench: string, bin: string): Case {
  const dir = join(bench, "cache", "repo");
  const lock: Rec = { name: "app", lockfileVersion: 3, packages: {} };
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) {
    files[`vendor/pkg-${i}/package.json`] = JSON.stringify({ name: `pkg-${i}`, version: "1.0.0" });
    files[`vendor/pkg-${i}/lib/index.js`] = `module.exports = ${i};\n`;
    lock.packages[`node_modules/pkg-${i}`] = { version: "1.0.0", resolved: `file:vendor/pkg-${i}` };
  }
  files["package-lock.json"] = JSON.stringify(lock, null, 2) + "\n";
  files[".gitignore"] = "node_modules/\n";
  files[".forge/ci/ci.env"] = "cache=node_modules\ncache_step=05-install\n";
  repo(
    dir,
    bin,
    {
      "05-install":
        'set -e\nmkdir node_modules\nnode -e \'const l=require("./package-lock.json");' +
        'for(const k of Object.keys(l.packages))require("fs").cpSync(l.packages[k].resolved.slice(5),k,' +
        "{recursive:true})'",
      "10-test": "test -f node_modules/pkg-299/lib/index.js",
    },
    files
  );
  const ci = join(bin, "forge-ci");
  return {
    name: "dependency cache: a worktree ready with 300 packages, cache warm",
    target: { kind: "ms", max: 3000 },
    note:
      "forge-ci run --until 10-test: the worktree checked out, node_modules restored from .forge/ci/cache/ (a " +
      "copy) and a step that reads it, vs the same with the cache deleted first (the install step copies the 300 " +
      "packages itself); --until 05-install would run the install on both sides (a step's own rerun always runs)",
    baseline: {
      label: "rm -rf .forge/ci/cache; forge-ci run --until 10-test (miss: installs)",
      argv: ["sh", "-c", `rm -rf .forge/ci/cache && exec ${ci} run --until 10-test`],
      cwd: dir,
      stderrOk: true,
    },
    subject: {
      label: "forge-ci run --until 10-test (hit)",
      argv: [ci, "run", "--until", "10-test"],
      cwd: dir,
      stderrOk: true,
    },
  };
}
