/**
 * `pnpm build` twice with no change: the second build's wall-clock (issue 31: ~124 s on a loaded machine when
 * every bundle was run once per help form on every build). The build is run once unmeasured (the first of the
 * two), then `runs` more times with nothing changed; the baseline is `tsc -b` alone, the part of the build
 * that is not scripts/bundle.mjs.
 */
import { join } from "node:path";
import { median, round, time, type Cmd, type Result } from "./bench_lib.js";

/** The target: a no-change build in a few seconds. */
export const NO_CHANGE_BUILD_MAX_MS = 10_000;

/**
 * Measure the no-change build of the clone at `root`.
 * @param root the repository root (its package.json "build" script is what is run)
 * @param env the environment of every run (node_modules/.bin goes first on PATH, as pnpm puts it)
 * @param runs measured builds
 */
export function noChangeBuild(root: string, env: NodeJS.ProcessEnv, runs: number): Result {
  const buildEnv = { ...env, PATH: `${join(root, "node_modules", ".bin")}:${env.PATH ?? ""}` };
  const build: Cmd = {
    label: "tsc -b && node scripts/bundle.mjs",
    argv: ["sh", "-c", "tsc -b && node scripts/bundle.mjs"],
    cwd: root,
  };
  const tsc: Cmd = { label: "tsc -b", argv: ["sh", "-c", "tsc -b"], cwd: root };
  time(build, false, buildEnv);
  const samples: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < runs; i++) {
    samples.push(time(build, false, buildEnv));
    baseline.push(time(tsc, false, buildEnv));
  }
  const m = median(samples);
  const b = median(baseline);
  return {
    case: "build twice with no change: the second",
    subject: build.label,
    baseline: tsc.label,
    medianMs: round(m),
    baselineMedianMs: round(b),
    ratio: Math.round((m / Math.max(b, 0.001)) * 100) / 100,
    target: `≤ ${NO_CHANGE_BUILD_MAX_MS} ms`,
    pass: m <= NO_CHANGE_BUILD_MAX_MS,
    note: `${runs} builds after one unmeasured build with the same sources; the baseline is tsc -b alone`,
    samplesMs: samples.map(round),
    baselineSamplesMs: baseline.map(round),
  };
}
