/**
 * More than one machine (spec/hosts.md): the runs of one or more arms (a
 * commit, with a patch or none), k replicates each, fanned out over ssh
 * hosts by GNU parallel, never by a scheduler of ours. The job unit is
 * (arm, chunk of replicates); each tree travels once per host as a
 * `git archive` tar (`--basefile`), each job as a small file with the steps
 * and the patch (`--transferfile`), the records come back with `--return`,
 * `--cleanup` leaves the hosts clean, and the joblog is kept beside the
 * batch. The worker (hosts_worker.ts) records every trial itself and exits
 * non-zero only on infrastructure trouble, so `--retries` retries
 * infrastructure only. Counts come from the returned records, never from
 * the joblog (which keeps only a job's last attempt).
 *
 * Each trial becomes a CI run record like a local one (runner `hosts`), with
 * `host.json` beside it (host, attempt, batch, arm, chunk, replicate, the
 * host's fingerprint). Every attempt, counted or lost, is one line of the
 * batch's `attempts.jsonl`.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import {
  atomicWrite,
  CI_RUN,
  CI_RUNS,
  codeTree,
  entityOrder,
  ForgeError,
  formatTimestamp,
  git,
  gitMessage,
  kindDir,
  laterId,
  loadEntity,
  recordCreated,
  withKindLock,
  type Store,
} from "@forge/core";
import { ADAPTER_STEP, type AdapterResult } from "./adapter.js";
import type { Posture } from "./posture.js";
import { runToJson, storedSteps, summaryBody, verdictOf, type CiRunJson } from "./record.js";
import { createRunDir, runPaths, setPrVerdict } from "./run_steps.js";
import { failureSignature } from "./signature.js";
import type { StepResult } from "./step.js";
import { INFRA_EXIT, machineFingerprint, MODS, workerScript, type JobFile, type RecordLine } from "./hosts_worker.js";

/** The default replicates per job: chunks of 10 beat single-replicate jobs (issue 27: 28 s vs 35 s for 40). */
export const DEFAULT_CHUNK = 10;

/** One arm: a commit, with a patch or none. */
export interface HostArm {
  headSha: string;
  patch: Uint8Array | null;
  patchSha256: string | null;
  title?: string;
  pr?: { id: string } | null;
}

/** What to run over the hosts. */
export interface HostsRequest {
  store: Store;
  top: string;
  /** GNU parallel's `--slf` file: one sshlogin a line, `N/host` for N jobs at once. */
  hostsFile: string;
  arms: HostArm[];
  replicates: number;
  /** Replicates per job (default DEFAULT_CHUNK). */
  chunk?: number;
  posture: Posture;
  continueOnError: boolean;
  until?: string;
  env: NodeJS.ProcessEnv;
  /** One line per recorded trial or lost attempt (for stderr). */
  progress?: (line: string) => void;
}

/** One attempt at a job, as `attempts.jsonl` keeps it. */
export interface AttemptLine {
  batch: string;
  arm: number;
  chunk: number;
  host: string;
  attempt: string;
  /** `counted`: its trials are the job's; `lost`: infrastructure (a host lost, an attempt cut short), no trial. */
  status: "counted" | "lost";
  trials: number;
}

/** What came back. */
export interface HostsResult {
  batch: string;
  /** `.forge/ci/runs/.hosts/<batch>/`: joblog, attempts.jsonl, the hosts file, parallel's stderr. */
  dir: string;
  /** Per arm: its runs (one per trial, in replicate order), and why it could not run (a patch that does not apply). */
  arms: Array<{ runs: CiRunJson[]; error: string | null }>;
  attempts: AttemptLine[];
  /** Replicates no attempt brought back (every retry lost to infrastructure): not trials. */
  lost: number;
}

/** The sshlogins of a hosts file (`--slf` format), checked. */
export interface Hosts {
  logins: string[];
  /** Job slots: the sum of each line's N (1 where none is given). */
  slots: number;
}

const LOGIN = /^(?:[1-9][0-9]{0,3}\/)?(?::|(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9._-]+(?::[0-9]{1,5})?)$/;

/**
 * Read a hosts file: `#` comments and blank lines, else one sshlogin a line (`[N/][user@]host[:port]`, or `:` for
 * this machine).
 * @param shown the file's name for messages
 * @throws ForgeError naming the file and line of a bad entry, or a file with no host
 */
export function readHosts(file: string, shown: string): Hosts {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ForgeError(`hosts file ${shown}: cannot read it (${(e as NodeJS.ErrnoException).code})`, "E_HOSTS", 1);
  }
  const logins: string[] = [];
  let slots = 0;
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (!LOGIN.test(line)) {
      const want = "expected [N/][user@]host[:port], e.g. 4/build1.example.org";
      throw new ForgeError(`hosts file ${shown}: line ${i + 1}: '${line.slice(0, 60)}': ${want}`, "E_HOSTS", 1);
    }
    logins.push(line);
    slots += line.includes("/") ? Number(line.split("/")[0]) : 1;
  }
  if (logins.length === 0) throw new ForgeError(`hosts file ${shown}: no host in it`, "E_HOSTS", 1);
  return { logins, slots };
}

/**
 * Check that GNU parallel is installed, before anything is written.
 * @throws ForgeError (exit 1) when it is not
 */
export async function checkParallel(env: NodeJS.ProcessEnv): Promise<void> {
  const ok = await new Promise<boolean>((res) => {
    const c = spawn("parallel", ["--version"], { env, stdio: "ignore" });
    c.on("error", () => res(false));
    c.on("exit", (code) => res(code === 0));
  });
  if (!ok)
    throw new ForgeError("--hosts: GNU parallel is not installed (apt-get install parallel)", "E_NO_PARALLEL", 1);
}

/**
 * This machine's environment fingerprint, as the worker computes it on a host.
 * @example localFingerprint() // 64 hex digits
 */
export function localFingerprint(): string {
  return machineFingerprint(MODS);
}

/**
 * A remote run's `envSha256`: the posture's where the host's fingerprint is this machine's (its trials are
 * comparable with local ones), else sha256 over both.
 */
export function hostEnvSha256(postureSha: string, hostFingerprint: string): string {
  if (hostFingerprint === localFingerprint()) return postureSha;
  return createHash("sha256").update(`forge-ci-env-host v1\n${postureSha}\n${hostFingerprint}\n`).digest("hex");
}

/** The job files of a batch: per arm, per chunk, its replicates. */
export function chunksOf(replicates: number, chunk: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < replicates; i += chunk)
    out.push(Array.from({ length: Math.min(chunk, replicates - i) }, (_, j) => i + j));
  return out;
}

/**
 * Stage a batch: the worker, one tar per distinct commit and one job file per (arm, chunk), in `stage`.
 * @returns the base files and the job files (names relative to `stage`), and the chunks per arm
 */
export async function stageBatch(
  req: Pick<HostsRequest, "top" | "arms" | "replicates" | "chunk" | "posture" | "continueOnError" | "until" | "env">,
  batch: string,
  stage: string
): Promise<{ base: string[]; jobs: string[]; chunks: number }> {
  mkdirSync(stage, { recursive: true });
  const worker = `forge-worker-${batch}.mjs`;
  writeFileSync(join(stage, worker), workerScript());
  const trees = new Map<string, string>();
  for (const a of req.arms) {
    if (trees.has(a.headSha)) continue;
    const name = `forge-tree-${batch}-${trees.size}.tar`;
    const r = await git(["archive", "--format=tar", "-o", join(stage, name), a.headSha], {
      cwd: req.top,
      env: req.env,
    });
    if (r.code !== 0)
      throw new ForgeError(`git archive ${a.headSha.slice(0, 12)}: ${gitMessage(r.stderr)}`, "E_ARCHIVE", 1);
    trees.set(a.headSha, name);
  }
  const steps = req.posture.steps.map((s) => ({ name: s.name, mode: s.mode, b64: s.bytes.toString("base64") }));
  const chunks = chunksOf(req.replicates, req.chunk ?? DEFAULT_CHUNK);
  const jobs: string[] = [];
  for (const [arm, a] of req.arms.entries()) {
    for (const [c, replicates] of chunks.entries()) {
      const job: JobFile = {
        v: 1,
        batch,
        arm,
        chunk: c,
        replicates,
        tree: trees.get(a.headSha)!,
        patch: a.patch && a.patch.length ? Buffer.from(a.patch).toString("base64") : null,
        steps,
        env: req.posture.settings.env,
        timeout: req.posture.settings.timeout ?? null,
        continueOnError: req.continueOnError,
        until: req.until ?? null,
      };
      const name = `forge-job-${batch}-${arm}-${c}.json`;
      writeFileSync(join(stage, name), JSON.stringify(job) + "\n");
      jobs.push(name);
    }
  }
  return { base: [worker, ...trees.values()], jobs, chunks: chunks.length };
}

/** GNU parallel's argv for a staged batch (run in the stage folder). */
export function parallelArgv(
  hostsFile: string,
  base: string[],
  jobs: string[],
  joblog: string,
  retries: number
): string[] {
  return [
    "--slf",
    hostsFile,
    ...base.flatMap((b) => ["--basefile", b]),
    "--transferfile",
    "{}",
    "--return",
    "{.}.rec",
    "--cleanup",
    "--joblog",
    joblog,
    "--line-buffer",
    "--retries",
    String(retries),
    "--env",
    "PARALLEL_SSHLOGIN",
    `node ${base[0]} {}`,
    ":::",
    ...jobs,
  ];
}

/**
 * Run the arms over the hosts and record every trial as a CI run.
 * @throws ForgeError before anything runs: a bad hosts file, no GNU parallel, a commit git cannot archive
 */
export async function runOnHosts(req: HostsRequest): Promise<HostsResult> {
  const hostsShown = req.hostsFile;
  const hosts = readHosts(req.hostsFile, hostsShown);
  await checkParallel(req.env);
  const batch = randomBytes(6).toString("hex");
  const dir = join(kindDir(req.store, CI_RUNS), ".hosts", batch);
  const stage = join(dir, "stage");
  mkdirSync(stage, { recursive: true });
  copyFileSync(req.hostsFile, join(dir, "hosts"));
  const { base, jobs } = await stageBatch(req, batch, stage);
  // --retries: each job may move to every other host once; a job's own failures are verdicts (exit 0), not retried.
  const retries = hosts.logins.length + 1;
  const argv = parallelArgv(resolve(join(dir, "hosts")), base, jobs, resolve(join(dir, "joblog")), retries);
  const started = new Map<string, { host: string; job: string }>();
  const stderr = join(dir, "parallel.log");
  const code = await new Promise<number>((res, rej) => {
    const child = spawn("parallel", argv, { cwd: stage, env: req.env, stdio: ["ignore", "pipe", "pipe"] });
    const errs: Buffer[] = [];
    child.stderr.on("data", (d: Buffer) => errs.push(d));
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (!line.startsWith('{"forge":')) return;
      try {
        const v = JSON.parse(line) as { forge: string; batch: string; job: string; host: string; attempt: string };
        if (v.batch !== batch) return;
        if (v.forge === "attempt") started.set(v.attempt, { host: v.host, job: v.job });
      } catch {
        // A line cut by a lost host: its attempt is known from its first line, or not at all.
      }
    });
    child.on("error", rej);
    child.on("close", (c) => {
      writeFileSync(stderr, Buffer.concat(errs));
      res(c ?? 255);
    });
  });
  void code; // parallel's exit status counts failed jobs: the records below say which, never this number.
  const attempts: AttemptLine[] = [];
  const arms: HostsResult["arms"] = req.arms.map(() => ({ runs: [], error: null }));
  const counted = new Set<string>();
  let lost = 0;
  for (const name of jobs) {
    const [arm, chunk] = name
      .replace(/\.json$/, "")
      .split("-")
      .slice(-2)
      .map(Number) as [number, number];
    const job = JSON.parse(readFileSync(join(stage, name), "utf8")) as JobFile;
    const rec = join(stage, name.replace(/\.json$/, ".rec"));
    const lines = existsSync(rec) ? parseRec(readFileSync(rec, "utf8")) : [];
    const done = lines.find((l) => l.kind === "done");
    if (!done) {
      lost += job.replicates.length;
      req.progress?.(
        `arm ${arm} chunk ${chunk}: every attempt lost to infrastructure (${job.replicates.length} trials not run)`
      );
      continue;
    }
    counted.add(done.attempt);
    const error = lines.find((l) => l.kind === "error");
    if (error && error.kind === "error") arms[arm]!.error = error.why;
    const trials = lines.filter((l): l is Extract<RecordLine, { kind: "trial" }> => l.kind === "trial");
    const host = trials[0]?.host ?? started.get(done.attempt)?.host ?? "";
    attempts.push({ batch, arm, chunk, host, attempt: done.attempt, status: "counted", trials: trials.length });
    for (const t of trials) {
      const run = await recordTrial(req, req.arms[arm]!, t);
      arms[arm]!.runs.push(run);
      req.progress?.(`${t.host}: arm ${arm} replicate ${t.replicate + 1}: ${run.verdict}`);
    }
  }
  for (const [attempt, s] of started) {
    if (counted.has(attempt)) continue;
    const [arm, chunk] = s.job.split("-").map(Number) as [number, number];
    attempts.push({ batch, arm, chunk, host: s.host, attempt, status: "lost", trials: 0 });
    req.progress?.(`${s.host}: arm ${arm} chunk ${chunk}: attempt ${attempt} lost to infrastructure (not counted)`);
  }
  attempts.sort(
    (a, b) => a.arm - b.arm || a.chunk - b.chunk || (a.status === b.status ? 0 : a.status === "lost" ? -1 : 1)
  );
  atomicWrite(join(dir, "attempts.jsonl"), attempts.map((a) => JSON.stringify(a) + "\n").join(""));
  // The tars and job files were the transfer; the returned records stay (what the counts came from).
  for (const f of [...base, ...jobs]) rmSync(join(stage, f), { force: true });
  return { batch, dir, arms, attempts, lost };
}

function parseRec(text: string): RecordLine[] {
  const out: RecordLine[] = [];
  for (const l of text.split("\n")) {
    if (!l.trim()) continue;
    try {
      out.push(JSON.parse(l) as RecordLine);
    } catch {
      return [];
    }
  }
  return out;
}

/** The worker's exit code for infrastructure trouble (spec/hosts.md). */
export { INFRA_EXIT };

/** One trial from a host, recorded as a CI run (the trial's home, as a local run is). */
async function recordTrial(
  req: HostsRequest,
  arm: HostArm,
  t: Extract<RecordLine, { kind: "trial" }>
): Promise<CiRunJson> {
  const { store, posture: p } = req;
  const tree = await codeTree(req.top, arm.headSha, req.env);
  const results: StepResult[] = t.steps.map((s) => {
    const r: StepResult = { name: s.name, outcome: s.outcome, exitCode: s.exitCode, durationMs: s.durationMs };
    if (s.logSha256) r.logSha256 = s.logSha256;
    if (s.outcome === "fail" || s.outcome === "timeout") {
      const tail = Buffer.from(s.tail, "base64").toString("utf8");
      const sig = failureSignature(s.name, s.kind, s.kind === "exit" ? s.exitCode : null, tail, t.dir);
      r.signature = sig.signature;
      r.signatureText = sig.text;
    }
    return r;
  });
  const completedAt = formatTimestamp(new Date(Date.parse(t.startedAt) + t.durationMs));
  const run = await recordCompleted(store, p, arm, results, {
    codeTree: tree,
    envSha256: hostEnvSha256(p.envSha256, t.fingerprint),
    runner: "hosts",
    completedAt,
    patch: arm.patch,
    files: {
      "host.json":
        JSON.stringify({
          host: t.host,
          attempt: t.attempt,
          batch: t.batch,
          arm: t.arm,
          chunk: t.chunk,
          replicate: t.replicate,
          fingerprint: t.fingerprint,
        }) + "\n",
      ...Object.fromEntries(
        t.steps.filter((s) => s.logSha256).map((s) => [`steps/${s.name}.log`, Buffer.from(s.log, "base64")])
      ),
    },
  });
  await setPrVerdict(store, { pr: arm.pr ?? null, patchSha256: arm.patchSha256 }, run.verdict);
  return run;
}

/** How a completed run differs by where it ran (hosts or an adapter). */
interface Completed {
  codeTree: string;
  envSha256: string;
  runner: string;
  /** Default: when it is recorded. */
  completedAt?: string;
  patch: Uint8Array | null;
  /** Beside summary.md: host.json or adapter.json, and the steps' logs. */
  files: Record<string, string | Uint8Array>;
}

/**
 * Record a run that completed elsewhere (a trial from a host, an adapter's run) as a CI run, under the runs' lock:
 * its id after every other run's, its record, its folder; its patch and PR are the arm's.
 * @returns the run as `forge-ci list --json` shows it
 */
async function recordCompleted(
  store: Store,
  p: Posture,
  arm: Pick<HostArm, "headSha" | "patchSha256" | "pr" | "title">,
  results: StepResult[],
  c: Completed
): Promise<CiRunJson> {
  const { verdict, conclusion } = verdictOf(results, false);
  const { createdAt, before, id } = await withKindLock(store, CI_RUNS, async () => {
    const createdAt = formatTimestamp();
    const before = await entityOrder(store, CI_RUNS, CI_RUN);
    const id = laterId(before, createdAt);
    const data: Record<string, unknown> = {
      id,
      status: "completed",
      conclusion,
      verdict,
      headSha: arm.headSha,
      codeTree: c.codeTree,
      envSha256: c.envSha256,
      runner: c.runner,
      createdAt,
      completedAt: c.completedAt ?? formatTimestamp(),
      steps: storedSteps(results),
    };
    if (arm.patchSha256) data.patchSha256 = arm.patchSha256;
    if (arm.pr) data.pr = arm.pr.id;
    if (arm.title) data.title = arm.title;
    const body = summaryBody(results, verdict);
    createRunDir(store, runPaths(store, id), p, data, c.patch ? Buffer.from(c.patch) : null, body, c.files);
    recordCreated(store, CI_RUNS, before, { createdAt, ref: { id, archived: false } });
    return { createdAt, before, id };
  });
  const done = await loadEntity(store, CI_RUNS, CI_RUN, { id, archived: false });
  return runToJson(done.data, before.rankOf(createdAt, id) + 1, null);
}

/**
 * An external adapter's run (`runner=adapter:CMD`), recorded as a CI run with one step, `00-adapter`: pass on
 * `success`, fail on `failure`, its stderr the step's log; `adapter.json` beside it keeps the adapter's run id and
 * the finished line's other fields.
 */
export async function recordAdapterRun(
  store: Store,
  top: string,
  p: Posture,
  arm: HostArm,
  r: AdapterResult,
  env: NodeJS.ProcessEnv
): Promise<CiRunJson> {
  const tree = await codeTree(top, arm.headSha, env);
  const step: StepResult = {
    name: ADAPTER_STEP,
    outcome: r.result === "success" ? "pass" : "fail",
    exitCode: r.exitCode,
    durationMs: r.durationMs,
    logSha256: r.logSha256,
  };
  if (step.outcome === "fail") {
    const sig = failureSignature(ADAPTER_STEP, "exit", r.exitCode, r.log.toString("utf8"));
    step.signature = sig.signature;
    step.signatureText = sig.text;
  }
  // The adapter ran the commit as it is: no patch, no PR (PR runs need runner local or docker).
  return recordCompleted(store, p, { headSha: arm.headSha, patchSha256: null, title: arm.title }, [step], {
    codeTree: tree,
    envSha256: p.envSha256,
    runner: `adapter:${(p.settings.adapter ?? []).join(" ")}`.slice(0, 200),
    patch: null,
    files: {
      "adapter.json": JSON.stringify({ run_id: r.runId, ...r.extra }) + "\n",
      [`steps/${ADAPTER_STEP}.log`]: r.log,
    },
  });
}
