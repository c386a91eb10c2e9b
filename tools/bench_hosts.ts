/**
 * More than one machine (spec/hosts.md): 40 replicates of a 1 s check over
 * the hosts of FORGE_BENCH_HOSTS (a GNU parallel sshlogin file; with
 * PARALLEL_SSH for its ssh options, e.g. the two netns hosts test/hosts_test.ts
 * makes) against the same 40 run locally one after another. On one machine
 * the hosts share its cores, so this measures overhead, not speed-up: the
 * overhead per trial is (hosts wall × slots − local wall) / 40, what a trial
 * costs a slot beyond running it here.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { round, time, type Cmd, type Result } from "./bench_lib.js";

/** Replicates per side. */
const TRIALS = 40;

/**
 * Measure it once per side (each side is ~40 s of checks).
 * @param hosts the hosts file; `slots` its job slots
 */
export function hostsOverhead(
  bench: string,
  bin: string,
  env: NodeJS.ProcessEnv,
  hosts: string,
  slots: number
): Result {
  const dir = join(bench, "hosts-1s");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const git = (...a: string[]) => execFileSync("git", a, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  execFileSync(join(bin, "forge"), ["init"], { cwd: dir, stdio: "ignore" });
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  const step = join(dir, ".forge", "ci", "steps", "10-check");
  writeFileSync(step, "#!/bin/sh\nsleep 1\n");
  chmodSync(step, 0o755);
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=b@e", "commit", "-q", "-m", "one check");
  const ci = join(bin, "forge-ci");
  const remote: Cmd = {
    label: `forge-ci run --hosts (${slots} slots) --repeat ${TRIALS}`,
    argv: [ci, "run", "--hosts", hosts, "--repeat", String(TRIALS), "--chunk", "10"],
    cwd: dir,
    stderrOk: true,
  };
  const local: Cmd = {
    label: `forge-ci run --repeat ${TRIALS}`,
    argv: [ci, "run", "--repeat", String(TRIALS)],
    cwd: dir,
    stderrOk: true,
  };
  const h = time(remote, true, env);
  const l = time(local, true, env);
  const perTrial = (h * slots - l) / TRIALS;
  return {
    case: `hosts: ${TRIALS} replicates of a 1 s check over hosts vs locally (overhead per trial)`,
    subject: remote.label,
    baseline: local.label,
    medianMs: round(perTrial),
    baselineMedianMs: round(l / TRIALS),
    ratio: round((h / l) * 100) / 100,
    target: "reported (one machine: overhead, not speed-up)",
    pass: true,
    note: `hosts wall ${round(h)} ms, local wall ${round(l)} ms`,
    samplesMs: [h],
    baselineSamplesMs: [l],
  };
}
