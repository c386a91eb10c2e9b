/**
 * Run a declared check: an argv array, no shell (SEC-04), in the
 * workspace, in its own process group, with a timeout and an output cap.
 * The loop never runs a command that appears only in a report.
 */
import { spawn } from "node:child_process";
import { sha256 } from "./_util.js";

/** What a check run gave. */
export interface CheckRun {
  argv: string[];
  /** null when the command could not start, timed out or was killed. */
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  /** The command could not be started (no such program): its outcome is unavailable, not a failure. */
  spawnError: string | null;
  /** sha256 of the captured output (at most `maxOutput` bytes, the tail kept). */
  logDigest: string | null;
  /** The last line of output, clipped: for the retry prompt. */
  tail: string;
}

/** Options of `runCheck`. */
export interface RunCheckOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** Bytes of output kept (default 64 KiB). */
  maxOutput?: number;
}

/**
 * Run `argv` and wait for it.
 * @example await runCheck(["node", "check.js"], { cwd, env, timeoutMs: 60_000 })
 */
export function runCheck(argv: readonly string[], opts: RunCheckOptions): Promise<CheckRun> {
  const cap = opts.maxOutput ?? 64 * 1024;
  const t0 = performance.now();
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let settled = false;
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.cwd,
      env: opts.env as NodeJS.ProcessEnv,
      shell: false,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const keep = (d: Buffer): void => {
      chunks.push(d);
      size += d.length;
      if (size > 2 * cap) {
        const all = Buffer.concat(chunks);
        chunks = [all.subarray(all.length - cap)];
        size = cap;
      }
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const kill = (sig: NodeJS.Signals): void => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill("SIGTERM");
      setTimeout(() => kill("SIGKILL"), 2000).unref();
    }, opts.timeoutMs);
    const done = (code: number | null, spawnError: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      kill("SIGKILL");
      let out = Buffer.concat(chunks);
      if (out.length > cap) out = out.subarray(out.length - cap);
      const lines = out
        .toString("utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l !== "");
      resolve({
        argv: [...argv],
        exitCode: timedOut ? null : code,
        durationMs: Math.round(performance.now() - t0),
        timedOut,
        spawnError,
        logDigest: spawnError ? null : sha256(out),
        tail: tailLine(lines, timedOut || code !== 0).slice(0, 160),
      });
    };
    child.on("error", (err: NodeJS.ErrnoException) => done(null, err.code ?? "spawn failed"));
    child.on("close", (code) => done(code, null));
  });
}

/** A test runner's summary line (node --test, TAP, ava): `# duration_ms 1197.4`, `# fail 1`, `ℹ pass 3`. */
const FOOTER =
  /^(?:#|ℹ)\s*(?:tests|suites|pass|passed|fail|failed|cancelled|skipped|todo|duration_ms|ok)\b[\s:]*[\d.]*\s*$/i;
/** A line that says what failed. */
const FAILURE = /(?:^not ok\b|\b(?:fail(?:ed|ure|s)?|error|assert(?:ion)?|expected|panic(?:ked)?)\b|✖|✘|✗)/i;

/**
 * The line of a check's output that says most about it: for a failure, the
 * last line naming one (`not ok 3 - parses dates`, `AssertionError …`), else
 * the last line that is not a runner's summary footer (`# duration_ms 12`).
 * @example tailLine(["not ok 1 - adds", "# fail 1", "# duration_ms 40.1"], true) // "not ok 1 - adds"
 */
export function tailLine(lines: readonly string[], failed: boolean): string {
  const body = lines.filter((l) => !FOOTER.test(l));
  if (failed) {
    for (let i = body.length - 1; i >= 0; i--) if (FAILURE.test(body[i]!)) return body[i]!;
  }
  return body[body.length - 1] ?? lines[lines.length - 1] ?? "";
}
