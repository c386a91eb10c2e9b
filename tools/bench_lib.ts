/**
 * What every bench case shares: the command and result shapes, one timed
 * run of a whole process, medians.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

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
    cwd: cmd.cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 30,
  });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  if (r.status !== 0 || (r.stderr !== "" && !cmd.stderrOk))
    throw new Error(`${cmd.label}: exit ${r.status}, stderr: ${r.stderr.split("\n")[0]}`);
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

/**
 * `cmd` run from `old` instead of `bin`: every argument that is `bin` or holds a path into it,
 * pointed at `old`. Undefined if nothing pointed into bin/; a string (why) if `old` lacks an
 * executable the command names (by path, or as `$0/<name>` in a script given bin/ as `$0`).
 */
export function retarget(cmd: Cmd, bin: string, old: string): Cmd | string | undefined {
  let touched = false;
  const argv = cmd.argv.map((a) => {
    if (a === bin) {
      touched = true;
      return old;
    }
    if (!a.includes(`${bin}/`)) return a;
    touched = true;
    return a.split(`${bin}/`).join(`${old}/`);
  });
  if (!touched) return undefined;
  const names = new Set<string>();
  for (const a of argv) {
    for (const m of a.matchAll(/(?:^|[^\w/])(?:\$0|\$\{0\})\/([\w.-]+)/g)) names.add(m[1]!);
    for (let i = a.indexOf(`${old}/`); i >= 0; i = a.indexOf(`${old}/`, i + 1)) {
      names.add(/^[\w.-]+/.exec(a.slice(i + old.length + 1))?.[0] ?? "");
    }
  }
  const missing = [...names].filter((n) => n && !existsSync(join(old, n)));
  if (missing.length) return `${old} has no ${missing.join(", ")}`;
  return { ...cmd, argv, label: `old: ${cmd.label}` };
}
