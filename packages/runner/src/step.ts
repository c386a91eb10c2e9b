/**
 * One step as a child process: its own process group (so a timeout or a
 * cancel reaches everything it started), stdout and stderr straight into
 * its log file (no copying through this process), and an outcome. Steps are
 * started from an argv array, never through a shell (SEC-04).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { constants } from "node:os";
import type { TestCase } from "./reports.js";
import { failureSignature, type FailureKind } from "./signature.js";

/** How a step ended. */
export type Outcome = "pass" | "fail" | "timeout" | "cancelled" | "skipped";

/** A finished step, as the run records it. */
export interface StepResult {
  name: string;
  outcome: Outcome;
  /** The exit code; null when killed by a signal, timed out or cancelled. */
  exitCode: number | null;
  durationMs: number;
  /** `sig-v1:…` for a failed or timed-out step. */
  signature?: string;
  /** The masked log lines behind the signature. */
  signatureText?: string[];
  /** sha256 of the step's whole log (the receipt's log digest). */
  logSha256?: string;
  /** The test cases of its reports (reports.ts), when it wrote any. */
  tests?: TestCase[];
  /** Why its reports were refused (one line), when they were. */
  reportError?: string;
  /** The install step of the dependency cache: `hit` (restored, not run) or `saved` (ran, its result kept). */
  cache?: "hit" | "saved";
}

/** What to start. */
export interface StepSpec {
  name: string;
  /** The program and its arguments (the step file, or `docker run …`). */
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The log file to create. */
  log: string;
  /** Seconds before the step is killed (undefined: no limit). */
  timeout?: number;
  /** Extra clean-up on timeout or cancel (e.g. `docker kill`). */
  onKill?: () => void;
  /** The folder masked as `<tree>` in signatures. */
  tree: string;
}

/** A running step. */
export interface RunningStep {
  readonly done: Promise<StepResult>;
  /** Kill the step's process group and record it as cancelled. */
  cancel(): void;
  /** Kill whatever is left of its process group (background jobs). */
  reap(): void;
}

/** Grace between SIGTERM and SIGKILL on timeout or cancel. */
export const KILL_GRACE_MS = 2000;

/** How many bytes of a log's end are read for its signature. */
const TAIL_BYTES = 64 * 1024;

/**
 * Start a step.
 * @example await startStep({ name: "10-test", argv: ["/x/10-test"], cwd, env, log, tree: cwd }).done
 */
export function startStep(spec: StepSpec): RunningStep {
  const fd = openSync(spec.log, "wx+", 0o644);
  const t0 = performance.now();
  let pgid = 0;
  let why: "timeout" | "cancelled" | undefined;
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  let grace: NodeJS.Timeout | undefined;
  const killGroup = (sig: NodeJS.Signals): void => {
    if (pgid <= 0) return;
    try {
      process.kill(-pgid, sig);
    } catch {
      // ESRCH: the group is gone.
    }
  };
  const stop = (reason: "timeout" | "cancelled"): void => {
    if (finished || why) return;
    why = reason;
    killGroup("SIGTERM");
    spec.onKill?.();
    grace = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
  };
  const done = new Promise<StepResult>((resolve) => {
    const finish = (code: number | null, kind: FailureKind, spawnError?: string): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(grace);
      if (why) killGroup("SIGKILL");
      if (spawnError) writeSync(fd, `forge-ci: cannot run ${spec.name}: ${spawnError}\n`);
      const durationMs = Math.round(performance.now() - t0);
      const outcome: Outcome = why ?? (code === 0 && kind === "exit" ? "pass" : "fail");
      const r: StepResult = { name: spec.name, outcome, exitCode: why || kind !== "exit" ? null : code, durationMs };
      if (outcome === "fail" || outcome === "timeout") {
        const timeout = outcome === "timeout";
        const s = failureSignature(spec.name, timeout ? "timeout" : kind, timeout ? null : code, tailOf(fd), spec.tree);
        r.signature = s.signature;
        r.signatureText = s.text;
      }
      r.logSha256 = digestOf(fd);
      closeSync(fd);
      resolve(r);
    };
    let child;
    try {
      const stdio: ["ignore", number, number] = ["ignore", fd, fd];
      child = spawn(spec.argv[0]!, spec.argv.slice(1), { cwd: spec.cwd, env: spec.env, detached: true, stdio });
    } catch (err) {
      finish(127, "exit", (err as Error).message);
      return;
    }
    pgid = child.pid ?? 0;
    child.on("error", (err: NodeJS.ErrnoException) => {
      // ENOENT: missing file or interpreter; EACCES / ENOEXEC: not executable, as a shell reports them.
      const code = err.code === "ENOENT" ? 127 : 126;
      const hint =
        err.code === "EACCES"
          ? "permission denied (chmod +x it)"
          : err.code === "ENOEXEC"
            ? "not an executable format (a script needs a #! line)"
            : err.code === "ENOENT"
              ? "not found (or its #! interpreter is missing)"
              : err.message;
      finish(code, "exit", hint);
    });
    child.on("exit", (code, signal) => {
      if (signal) finish(constants.signals[signal] ?? null, "signal");
      else finish(code, "exit");
    });
    if (spec.timeout !== undefined) timer = setTimeout(() => stop("timeout"), spec.timeout * 1000);
  });
  return {
    done,
    cancel: () => stop("cancelled"),
    reap: () => killGroup("SIGKILL"),
  };
}

/** sha256 of an open log's bytes. */
function digestOf(fd: number): string {
  const h = createHash("sha256");
  const buf = Buffer.alloc(64 * 1024);
  for (let pos = 0, n; (n = readSync(fd, buf, 0, buf.length, pos)) > 0; pos += n) h.update(buf.subarray(0, n));
  return h.digest("hex");
}

/** The last bytes of an open log, from the start of a whole line. */
function tailOf(fd: number): string {
  const size = fstatSync(fd).size;
  const n = Math.min(size, TAIL_BYTES);
  const buf = Buffer.alloc(n);
  readSync(fd, buf, 0, n, size - n);
  let text = buf.toString("utf8");
  if (n < size) text = text.slice(text.indexOf("\n") + 1);
  return text;
}
