/**
 * The worker forge sends to a host (spec/hosts.md): one job is one arm's
 * chunk of replicates at one code tree. It unpacks the tree (a `git archive`
 * tar sent as a base file), applies the arm's patch (sent in the job file),
 * runs the steps once per replicate in a fresh copy, and writes one record
 * per trial (host, attempt, outcome, duration, log, environment fingerprint)
 * into the job's return file, renamed into place only when the chunk is
 * done. It exits 0 whenever it recorded a verdict (a failing check
 * included) and INFRA_EXIT only on infrastructure trouble (no tree, a tree
 * that cannot be unpacked, a disk that cannot be written), so GNU
 * parallel's `--retries` retries infrastructure only.
 *
 * The script is made of the functions below, as text (`workerScript`):
 * each one uses only its arguments and JavaScript's globals, never this
 * module's imports, so node alone runs it on a host (and git for a patch).
 */
import * as cp from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The worker's exit code for infrastructure trouble (EX_TEMPFAIL); any other non-zero is the host's too. */
export const INFRA_EXIT = 75;

/** The node modules the worker's functions are handed. */
export interface WorkerMods {
  cp: typeof cp;
  crypto: typeof crypto;
  fs: typeof fs;
  os: typeof os;
  path: typeof path;
}

/** The helpers the worker calls (passed, never referenced by name: a bundle may rename them). */
export interface WorkerHelpers {
  fingerprint: (m: WorkerMods) => string;
  untar: (m: WorkerMods, tar: Buffer, dest: string) => void;
}

/** One step of a job file: its name, mode and bytes (base64). */
export interface JobStep {
  name: string;
  mode: number;
  b64: string;
}

/** A job file (`forge-job-<batch>-<arm>-<chunk>.json`), sent with `--transferfile`. */
export interface JobFile {
  v: 1;
  batch: string;
  arm: number;
  chunk: number;
  /** The replicate numbers of this chunk (0-based, within the arm). */
  replicates: number[];
  /** The tree's tar, a base file beside the job. */
  tree: string;
  /** The arm's patch (base64), or null. */
  patch: string | null;
  steps: JobStep[];
  env: Record<string, string>;
  timeout: number | null;
  continueOnError: boolean;
  until: string | null;
}

/** A step as the worker records it: outcome, exit, duration, the log (capped) and its tail for the signature. */
export interface WorkerStep {
  name: string;
  outcome: "pass" | "fail" | "timeout" | "skipped";
  exitCode: number | null;
  /** How it failed: its exit code, a signal, or the time limit. */
  kind: "exit" | "signal" | "timeout";
  durationMs: number;
  logSha256: string | null;
  /** The log's bytes (base64), at most LOG_CAP of its end. */
  log: string;
  /** The log's last bytes (base64, from a whole line), for the failure signature. */
  tail: string;
}

/** One line of a return file: a trial, or the chunk's end (`done`), or the arm's patch that did not apply. */
export type RecordLine =
  | {
      kind: "trial";
      batch: string;
      arm: number;
      chunk: number;
      replicate: number;
      host: string;
      attempt: string;
      fingerprint: string;
      /** The folder the steps ran in (masked as `<tree>` in signatures). */
      dir: string;
      startedAt: string;
      durationMs: number;
      steps: WorkerStep[];
    }
  | { kind: "done"; attempt: string; trials: number }
  | { kind: "error"; attempt: string; why: string };

/**
 * The machine's environment fingerprint: node's version, the OS, its release, the architecture and the CPU model.
 * Trials on machines that differ in any get different `envSha256`s (ComparabilityDrift keeps them apart).
 */
export function machineFingerprint(m: WorkerMods): string {
  const cpu = m.os.cpus()[0]?.model ?? "";
  const os = `${m.os.platform()} ${m.os.release()}`;
  const text = `forge-host v1\nnode ${process.version}\nos ${os}\narch ${m.os.arch()}\ncpu ${cpu}\n`;
  return m.crypto.createHash("sha256").update(text).digest("hex");
}

/**
 * Unpack a tar (ustar and pax, as `git archive` writes it) into `dest`: files, folders and symlinks; a path
 * that leaves `dest`, or an entry of another type, is an error.
 */
export function untar(m: WorkerMods, tar: Buffer, dest: string): void {
  const str = (b: Buffer): string => {
    const z = b.indexOf(0);
    return b.subarray(0, z < 0 ? b.length : z).toString("utf8");
  };
  const oct = (b: Buffer): number => parseInt(str(b).trim() || "0", 8);
  let pax: Record<string, string> = {};
  for (let off = 0; off + 512 <= tar.length;) {
    const h = tar.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    const type = String.fromCharCode(h[156]!);
    const size = pax.size !== undefined ? Number(pax.size) : oct(h.subarray(124, 136));
    const body = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === "g") continue;
    if (type === "x") {
      pax = {};
      const text = body.toString("utf8");
      for (let i = 0; i < text.length;) {
        const sp = text.indexOf(" ", i);
        const len = Number(text.slice(i, sp));
        const kv = text.slice(sp + 1, i + len - 1);
        const eq = kv.indexOf("=");
        pax[kv.slice(0, eq)] = kv.slice(eq + 1);
        i += len;
      }
      continue;
    }
    const prefix = str(h.subarray(345, 500));
    const name = pax.path ?? (prefix ? `${prefix}/${str(h.subarray(0, 100))}` : str(h.subarray(0, 100)));
    const link = pax.linkpath ?? str(h.subarray(157, 257));
    pax = {};
    const rel = name.replace(/\/+$/, "");
    if (rel === "" || rel.startsWith("/") || rel.split("/").some((x) => x === ".." || x === ".git"))
      throw new Error(`tar entry '${rel.slice(0, 80)}': not a path inside the tree`);
    const to = m.path.join(dest, rel);
    m.fs.mkdirSync(m.path.dirname(to), { recursive: true });
    if (type === "5") m.fs.mkdirSync(to, { recursive: true });
    else if (type === "2") m.fs.symlinkSync(link, to);
    else if (type === "0" || type === "\0") {
      m.fs.writeFileSync(to, body);
      m.fs.chmodSync(to, oct(h.subarray(100, 108)) & 0o777);
    } else throw new Error(`tar entry '${rel.slice(0, 80)}': type '${type}' not supported`);
  }
}

/**
 * The worker: `node forge-worker.mjs JOBFILE`, or `node forge-worker.mjs --index CHUNKS PREFIX` with
 * JOB_COMPLETION_INDEX set (a Kubernetes Indexed Job): index = arm × CHUNKS + chunk, the job file
 * `PREFIX-<arm>-<chunk>.json`. The return file is the job file's name with `.rec` for `.json`. Progress lines
 * (`{"forge":"attempt"|"trial"|"done",…}`) go to `out` as they happen, so the caller learns of an attempt a
 * lost host never finished.
 * @returns 0 when a verdict was recorded, INFRA_EXIT (75) on infrastructure trouble, 2 for bad arguments
 */
export async function hostWorker(
  m: WorkerMods,
  h: WorkerHelpers,
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
  err: (line: string) => void
): Promise<number> {
  const INFRA = 75;
  let jobPath: string;
  if (argv[0] === "--index") {
    const chunks = Number(argv[1]);
    const index = Number(env.JOB_COMPLETION_INDEX);
    if (!Number.isInteger(chunks) || chunks < 1 || !argv[2] || !/^[0-9]+$/.test(env.JOB_COMPLETION_INDEX ?? "")) {
      err("forge-worker: --index CHUNKS PREFIX needs JOB_COMPLETION_INDEX (a whole number)");
      return 2;
    }
    jobPath = `${argv[2]}-${Math.floor(index / chunks)}-${index % chunks}.json`;
  } else if (argv.length === 1 && argv[0]!.endsWith(".json")) jobPath = argv[0]!;
  else {
    err("forge-worker: usage: forge-worker JOB.json | forge-worker --index CHUNKS PREFIX");
    return 2;
  }
  const attempt = m.crypto.randomBytes(8).toString("hex");
  const host = env.PARALLEL_SSHLOGIN || env.FORGE_HOST || m.os.hostname();
  let job: JobFile;
  let tar: Buffer;
  try {
    job = JSON.parse(m.fs.readFileSync(jobPath, "utf8")) as JobFile;
    tar = m.fs.readFileSync(m.path.join(m.path.dirname(jobPath), job.tree));
  } catch (e) {
    err(`forge-worker: infrastructure: ${(e as Error).message}`);
    return INFRA;
  }
  const fingerprint = h.fingerprint(m);
  const jobId = `${job.arm}-${job.chunk}`;
  out(JSON.stringify({ forge: "attempt", batch: job.batch, job: jobId, host, attempt, fingerprint }));
  const recPath = jobPath.replace(/\.json$/, ".rec");
  const lines: string[] = [];
  const work = m.path.join(m.path.dirname(m.path.resolve(jobPath)), `forge-w-${job.batch}-${attempt}`);
  const sha = (b: Buffer): string => m.crypto.createHash("sha256").update(b).digest("hex");
  const runStep = (argv0: string, cwd: string, stepEnv: NodeJS.ProcessEnv, log: string) =>
    new Promise<{ code: number | null; signal: string | null; timedOut: boolean }>((resolve) => {
      const fd = m.fs.openSync(log, "w");
      let timedOut = false;
      let timer: NodeJS.Timeout | undefined;
      const child = m.cp.spawn(argv0, [], { cwd, env: stepEnv, detached: true, stdio: ["ignore", fd, fd] });
      const kill = (sig: NodeJS.Signals): void => {
        try {
          process.kill(-child.pid!, sig);
        } catch {
          // gone
        }
      };
      child.on("error", (e: NodeJS.ErrnoException) => {
        m.fs.writeSync(fd, `forge-worker: cannot run ${m.path.basename(argv0)}: ${e.message}\n`);
        m.fs.closeSync(fd);
        clearTimeout(timer);
        resolve({ code: e.code === "ENOENT" ? 127 : 126, signal: null, timedOut });
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        kill("SIGKILL");
        m.fs.closeSync(fd);
        resolve({ code, signal, timedOut });
      });
      if (job.timeout)
        timer = setTimeout(() => {
          timedOut = true;
          kill("SIGTERM");
          setTimeout(() => kill("SIGKILL"), 2000).unref();
        }, job.timeout * 1000);
    });
  try {
    m.fs.mkdirSync(work, { recursive: true });
    const bin = m.path.join(work, "bin");
    m.fs.mkdirSync(bin);
    for (const s of job.steps) {
      m.fs.writeFileSync(m.path.join(bin, s.name), Buffer.from(s.b64, "base64"));
      m.fs.chmodSync(m.path.join(bin, s.name), s.mode);
    }
    let trials = 0;
    for (const rep of job.replicates) {
      const dir = m.path.join(work, `t${rep}`);
      m.fs.mkdirSync(dir);
      h.untar(m, tar, dir);
      if (job.patch) {
        // A patch that does not apply is the arm's verdict (an error), the same on every host: never retried.
        const patch = m.path.join(work, "patch.diff");
        m.fs.writeFileSync(patch, Buffer.from(job.patch, "base64"));
        const text = m.fs.readFileSync(patch, "utf8");
        const parts = text.split(/(?=^From [0-9a-f]{40} )/m).filter((x) => x.trim() !== "");
        const q = { cwd: dir, encoding: "utf8" as const };
        const init = m.cp.spawnSync("git", ["init", "-q"], q);
        if (init.error || init.status !== 0) {
          err(`forge-worker: infrastructure: git: ${init.error?.message ?? init.stderr}`);
          return INFRA;
        }
        for (const [i, part] of parts.entries()) {
          const f = m.path.join(work, `part-${i}.diff`);
          m.fs.writeFileSync(f, part);
          const r = m.cp.spawnSync("git", ["apply", f], q);
          if (r.status !== 0) {
            const why = `the patch does not apply: ${String(r.stderr).trim().split("\n")[0]}`;
            lines.push(JSON.stringify({ kind: "error", attempt, why }));
            lines.push(JSON.stringify({ kind: "done", attempt, trials }));
            m.fs.writeFileSync(`${recPath}.tmp`, lines.join("\n") + "\n");
            m.fs.renameSync(`${recPath}.tmp`, recPath);
            out(JSON.stringify({ forge: "done", batch: job.batch, job: jobId, attempt }));
            return 0;
          }
        }
        m.fs.rmSync(m.path.join(dir, ".git"), { recursive: true, force: true });
      }
      const t0 = Date.now();
      const steps: WorkerStep[] = [];
      let stop = false;
      for (const s of job.steps) {
        if (stop) {
          steps.push({
            name: s.name,
            outcome: "skipped",
            exitCode: null,
            kind: "exit",
            durationMs: 0,
            logSha256: null,
            log: "",
            tail: "",
          });
          continue;
        }
        const log = m.path.join(work, `t${rep}-${s.name}.log`);
        const reports = m.path.join(work, `t${rep}-${s.name}.reports`);
        m.fs.mkdirSync(reports);
        const stepEnv: NodeJS.ProcessEnv = {
          ...env,
          ...job.env,
          FORGE_CI_RUN: `${job.batch}-${job.arm}-${rep}`,
          FORGE_CI_STEP: s.name,
          FORGE_REPORTS_DIR: reports,
        };
        delete stepEnv.FORGE_TESTS;
        delete stepEnv.FORGE_TESTS_PATTERN;
        const s0 = performance.now();
        const r = await runStep(m.path.join(bin, s.name), dir, stepEnv, log);
        const durationMs = Math.round(performance.now() - s0);
        const bytes = m.fs.readFileSync(log);
        let tail = bytes.subarray(Math.max(0, bytes.length - 64 * 1024)).toString("utf8");
        if (bytes.length > 64 * 1024) tail = tail.slice(tail.indexOf("\n") + 1);
        const outcome = r.timedOut ? "timeout" : r.code === 0 ? "pass" : "fail";
        steps.push({
          name: s.name,
          outcome,
          exitCode: r.timedOut || r.signal ? null : r.code,
          kind: r.timedOut ? "timeout" : r.signal ? "signal" : "exit",
          durationMs,
          logSha256: sha(bytes),
          log: bytes.subarray(Math.max(0, bytes.length - 1024 * 1024)).toString("base64"),
          tail: outcome === "pass" ? "" : Buffer.from(tail).toString("base64"),
        });
        if ((outcome !== "pass" && !job.continueOnError) || s.name === job.until) stop = true;
      }
      const startedAt = new Date(t0).toISOString();
      const durationMs = Date.now() - t0;
      const rec = { kind: "trial", batch: job.batch, arm: job.arm, chunk: job.chunk, replicate: rep, host, attempt };
      lines.push(JSON.stringify({ ...rec, fingerprint, dir, startedAt, durationMs, steps }));
      trials++;
      const failed = steps.find((s) => s.outcome === "fail" || s.outcome === "timeout");
      out(JSON.stringify({ forge: "trial", batch: job.batch, job: jobId, replicate: rep, host, attempt, ok: !failed }));
      m.fs.rmSync(dir, { recursive: true, force: true });
    }
    lines.push(JSON.stringify({ kind: "done", attempt, trials }));
    m.fs.writeFileSync(`${recPath}.tmp`, lines.join("\n") + "\n");
    m.fs.renameSync(`${recPath}.tmp`, recPath);
  } catch (e) {
    err(`forge-worker: infrastructure: ${(e as Error).message}`);
    return INFRA;
  } finally {
    m.fs.rmSync(work, { recursive: true, force: true });
  }
  out(JSON.stringify({ forge: "done", batch: job.batch, job: jobId, attempt }));
  return 0;
}

/** The modules of this process, for running the worker's functions here. */
export const MODS: WorkerMods = { cp, crypto, fs, os, path };

/**
 * The worker as one ES module's text (`forge-worker-<batch>.mjs`): the functions above and a main that calls
 * `hostWorker` with node's modules. An exception it did not catch is infrastructure (exit 75).
 */
export function workerScript(): string {
  return [
    "// forge's host worker (spec/hosts.md); node alone runs it. Made by forge-ci; do not edit.",
    'import * as cp from "node:child_process";',
    'import * as crypto from "node:crypto";',
    'import * as fs from "node:fs";',
    'import * as os from "node:os";',
    'import * as path from "node:path";',
    `const fingerprint = (${machineFingerprint.toString()});`,
    `const untar = (${untar.toString()});`,
    `const hostWorker = (${hostWorker.toString()});`,
    "const m = { cp, crypto, fs, os, path };",
    "const say = (s) => process.stdout.write(s + '\\n');",
    "const err = (s) => process.stderr.write(s + '\\n');",
    "hostWorker(m, { fingerprint, untar }, process.argv.slice(2), process.env, say, err).then(",
    "  (code) => { process.exitCode = code; },",
    `  (e) => { err("forge-worker: infrastructure: " + (e && e.message)); process.exitCode = ${INFRA_EXIT}; }`,
    ");",
    "",
  ].join("\n");
}
