/**
 * The CI runner's own cost per step: `forge-ci run` with N + 1 trivial
 * steps and with one (a run with none is refused), against a shell loop
 * that runs the same step files, all four interleaved. The overhead per
 * step is ((ci N+1 − ci 1) − (loop N+1 − loop 1)) / N: what forge-ci adds
 * to each step beyond starting the script itself (its worktree and
 * start-up are paid by both ci sides and cancel out).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, round, time, type Cmd, type Result } from "./bench_lib.js";

/** A repo with one commit and a store whose steps folder holds `n` trivial steps. */
function repo(dir: string, n: number, forge: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const git = (...a: string[]) => execFileSync("git", a, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("-c", "user.name=bench", "-c", "user.email=b@e", "commit", "-q", "--allow-empty", "-m", "empty");
  execFileSync(forge, ["init"], { cwd: dir, stdio: "ignore" });
  const steps = join(dir, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  for (let i = 0; i < n; i++) {
    const f = join(steps, `${String(i).padStart(2, "0")}-step`);
    writeFileSync(f, "#!/bin/sh\nexit 0\n");
    chmodSync(f, 0o755);
  }
  return steps;
}

/**
 * Measure the per-step overhead.
 * @param bench the bench folder (`.bench/`)
 * @param bin the built executables
 * @param env the environment of every run
 * @param runs measured runs per command
 * @param warmup unmeasured runs per command first
 * @param n steps in the big run
 */
export function stepOverhead(
  bench: string,
  bin: string,
  env: NodeJS.ProcessEnv,
  runs: number,
  warmup: number,
  n = 20
): Result {
  const forge = join(bin, "forge");
  const big = join(bench, `ci-${n}`);
  const one = join(bench, "ci-1");
  const steps = repo(big, n + 1, forge);
  const oneStep = repo(one, 1, forge);
  const ci = join(bin, "forge-ci");
  const cmds: Cmd[] = [
    { label: `forge-ci run (${n + 1} steps)`, argv: [ci, "run"], cwd: big, stderrOk: true },
    { label: "forge-ci run (1 step)", argv: [ci, "run"], cwd: one, stderrOk: true },
    {
      label: `sh loop over the ${n + 1} step files`,
      argv: ["sh", "-c", 'for f in "$0"/*; do "$f" || exit 1; done', steps],
      cwd: big,
    },
    {
      label: "sh loop over 1 step file",
      argv: ["sh", "-c", 'for f in "$0"/*; do "$f" || exit 1; done', oneStep],
      cwd: one,
    },
  ];
  const samples: number[][] = cmds.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    // Rotate the starting command so none always follows the same one.
    for (let k = 0; k < cmds.length; k++) {
      const j = (i + k) % cmds.length;
      const ms = time(cmds[j]!, i === 0, env);
      if (i >= warmup) samples[j]!.push(ms);
    }
  }
  const [ciN, ci0, loopN, loop0] = samples.map(median) as [number, number, number, number];
  const perStep = (ciN - ci0 - (loopN - loop0)) / n;
  return {
    case: `ci overhead per step (${n} steps)`,
    subject: cmds[0]!.label,
    baseline: cmds[2]!.label,
    medianMs: round(perStep),
    baselineMedianMs: round((loopN - loop0) / n),
    ratio: Math.round((perStep / Math.max((loopN - loop0) / n, 0.001)) * 100) / 100,
    target: "≤ 15 ms",
    pass: perStep <= 15,
    note:
      `forge-ci run: ${round(ciN)} ms with ${n + 1} steps, ${round(ci0)} ms with 1; the same steps from sh: ` +
      `${round(loopN)} vs ${round(loop0)} ms; overhead = ((${round(ciN)} − ${round(ci0)}) − (${round(loopN)} − ` +
      `${round(loop0)})) / ${n}; the baseline column is one step's own cost from sh`,
    samplesMs: samples[0]!.map(round),
    baselineSamplesMs: samples[2]!.map(round),
  };
}
