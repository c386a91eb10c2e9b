/**
 * What every bench case shares: the command and result shapes, one timed
 * run of a whole process, medians.
 */
import { spawnSync } from "node:child_process";

/** One command to time. */
export interface Cmd {
  label: string;
  argv: string[];
  cwd: string;
  /** Checked once on the first run; returns a problem or undefined. */
  check?: (stdout: string) => string | undefined;
  /** Progress on stderr is expected (forge-ci run); otherwise any stderr aborts the case. */
  stderrOk?: boolean;
}

/** A subject against its baseline. */
export interface Case {
  name: string;
  subject: Cmd;
  baseline: Cmd;
  /** `ms`: the subject's median must be ≤ max; `ratio`: subject/baseline ≤ max. */
  target: { kind: "ms" | "ratio"; max: number };
  note?: string;
}

/** A measured case, as written to results.json. */
export interface Result {
  case: string;
  subject: string;
  baseline: string;
  medianMs: number;
  baselineMedianMs: number;
  ratio: number;
  target: string;
  pass: boolean;
  note?: string;
  samplesMs: number[];
  baselineSamplesMs: number[];
}

/** Run once; returns milliseconds. Throws on a non-zero exit or any stderr. */
export function time(cmd: Cmd, check: boolean, env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(cmd.argv[0]!, cmd.argv.slice(1), {
    cwd: cmd.cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  if (r.status !== 0 || (r.stderr !== "" && !cmd.stderrOk)) throw new Error(`${cmd.label}: exit ${r.status}, stderr: ${r.stderr.split("\n")[0]}`);
  const problem = check && cmd.check ? cmd.check(r.stdout) : undefined;
  if (problem) throw new Error(`${cmd.label}: ${problem}`);
  return ms;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

