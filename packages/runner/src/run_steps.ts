/**
 * `runStepsIn`: run the CI steps in a prepared folder and record the run.
 * The step files are copied into the run's folder first (`bin/`), and what
 * runs is that copy: the fingerprint covers exactly what ran, and `rerun`
 * can run the same steps again. Steps run one after another; the first
 * failure stops the run (later steps `skipped`) unless `continueOnError`.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CI_RUN,
  CI_RUNS,
  ciStepsDir,
  codeTree,
  displayPath,
  entityDir,
  entityOrder,
  ForgeError,
  formatTimestamp,
  git,
  kindDir,
  laterId,
  loadEntity,
  recordCreated,
  mkdirInside,
  NotFoundError,
  PR,
  PRS,
  rewriteFile,
  saveFile,
  updateEntity,
  withKindLock,
  type Store,
} from "@forge/core";
import { registerRun } from "./active.js";
import { cacheUse, checkCache, KEEP_CACHES, restoreCache, saveCache, type CacheUse } from "./cache.js";
import { pruneRuns } from "./retention.js";
import { notStepWarning, posture, stepEnv, type Posture } from "./posture.js";
import { runTestsOf, runToJson, storedSteps, summaryBody, verdictOf, type CiRunJson } from "./record.js";
import { readReports } from "./reports.js";
import { stepReportsDir, testsEnv, writeRunTests, type TestsRequest } from "./run_tests.js";
import { startStep, type RunningStep, type StepResult } from "./step.js";

/** What to run, and on what. */
export interface StepsRequest {
  store: Store;
  /** The top of the live checkout (where `docker` and `git` run). */
  top: string;
  /** The commit the tree starts from. */
  headSha: string;
  /** The sha256 of the patch applied on it, if any. */
  patchSha256?: string | null;
  /** The patch's bytes, kept with the run for `rerun`. */
  patch?: Uint8Array | null;
  /** The PR the run is for: its `ci` verdict follows the run. */
  pr?: { id: string } | null;
  /** The PR's title, shown as the run's title. */
  title?: string;
  /** `--docker`: run in `ci.env`'s image whatever `runner` says. */
  docker?: boolean;
  /** Run every step even after a failure. */
  continueOnError?: boolean;
  /** Run the step files of this folder (a run's `bin/`) instead of `.forge/ci/steps/`. */
  stepsFrom?: string;
  /** Run the steps up to and including this one (the ones before it are its setup); later steps are `skipped`. */
  until?: string;
  /**
   * Start at this step: the ones before it already ran in this tree (an earlier run of the same setup, `setupId`)
   * and are recorded `skipped`.
   */
  from?: string;
  /** The setup this run shares with the other runs in the same worktree (recorded as `setupId`). */
  setupId?: string;
  /** The run this one reruns. */
  rerunOf?: string;
  /** The posture already read and checked (ci.env, the steps, the Docker engine) by a caller running many. */
  posture?: Posture;
  /** The caller's environment, handed to the steps (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** One line per finished step (for stderr). */
  progress?: (runId: string, step: StepResult) => void;
  /** Run only these tests of a step, if it honours `FORGE_TESTS` (a CheckRerun of tests). */
  tests?: TestsRequest;
}

/** The variables forge-ci sets per step execution: never inherited from the caller. */
const PER_STEP = ["FORGE_REPORTS_DIR", "FORGE_TESTS", "FORGE_TESTS_PATTERN"];

/** Where the docker runner mounts a step's reports folder. */
const DOCKER_REPORTS = "/forge-ci/reports";

/** A run's folder and files. */
export function runPaths(
  store: Store,
  id: string
): { dir: string; summary: string; bin: string; logs: string; patch: string; cancel: string } {
  const dir = entityDir(store, CI_RUNS, id);
  return {
    dir,
    summary: join(dir, "summary.md"),
    bin: join(dir, "bin"),
    logs: join(dir, "steps"),
    patch: join(dir, "patch.diff"),
    cancel: join(dir, "cancel"),
  };
}

/**
 * Check that `docker` can run containers, before anything is written.
 * @throws ForgeError (exit 1) when there is no engine
 */
export async function checkDocker(top: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { execFile } = await import("node:child_process");
  const problem = await new Promise<string | undefined>((resolve) => {
    const info = ["info", "--format", "{{.ServerVersion}}"];
    execFile("docker", info, { cwd: top, env, timeout: 20_000 }, (err, _out, stderr) => {
      if (!err) return resolve(undefined);
      const e = err as NodeJS.ErrnoException;
      if (e.code === "ENOENT") return resolve("docker is not installed");
      resolve((String(stderr).trim().split("\n").pop() ?? "").slice(0, 160) || "docker info failed");
    });
  });
  if (problem) throw new ForgeError(`runner docker: no Docker engine (${problem}); nothing was run`, "E_NO_DOCKER", 1);
}

/**
 * Run the steps in `dir` and record the run under `.forge/ci/runs/<id>/`.
 * A failing, timed-out or cancelled step is an outcome, never an error.
 * @param dir the tree to run in (a disposable worktree)
 * @throws ForgeError before anything is written: bad `ci.env`, a step that is not a file, no Docker engine
 */
export async function runStepsIn(dir: string, req: StepsRequest): Promise<CiRunJson> {
  const { store } = req;
  const env = req.env ?? process.env;
  const p = req.posture ?? (await checkedPosture(store, req.top, env, req.stepsFrom, req.docker ?? false));
  checkUntil(p, req.until);
  checkUntil(p, req.from);
  // Evidence is keyed by the code, not the commit: the tree without `.forge`
  // (the patch, if any, is keyed by its sha256).
  const tree = await codeTree(req.top, req.headSha, env);
  // The kind's create lock, just long enough to fix the id and time that decide the run's number
  // (parallel runs, as an act's reruns are, each print the number they keep).
  const { createdAt, before, id, paths } = await withKindLock(store, CI_RUNS, async () => {
    const createdAt = formatTimestamp();
    const before = await entityOrder(store, CI_RUNS, CI_RUN);
    const id = laterId(before, createdAt);
    const paths = runPaths(store, id);
    const data: Record<string, unknown> = {
      id,
      status: "in_progress",
      verdict: "running",
      headSha: req.headSha,
      codeTree: tree,
      envSha256: p.envSha256,
      runner: p.runner,
      createdAt,
      pid: process.pid,
      steps: [],
    };
    if (req.patchSha256) data.patchSha256 = req.patchSha256;
    if (req.pr) data.pr = req.pr.id;
    if (req.title) data.title = req.title;
    if (req.rerunOf) data.rerunOf = req.rerunOf;
    if (req.setupId) data.setupId = req.setupId;
    createRunDir(store, paths, p, data, req.patch ?? null);
    recordCreated(store, CI_RUNS, before, { createdAt, ref: { id, archived: false } });
    return { createdAt, before, id, paths };
  });
  await setPrVerdict(store, req, "running");

  let cancelled = false;
  let current: RunningStep | undefined;
  const started: RunningStep[] = [];
  const unregister = registerRun(id, paths.cancel, () => {
    cancelled = true;
    current?.cancel();
  });
  const results: StepResult[] = [];
  try {
    let stop = false;
    let setupDone = req.from !== undefined;
    for (const s of p.steps) {
      if (s.name === req.from) setupDone = false;
      if (setupDone || stop || cancelled || existsSync(paths.cancel)) {
        cancelled ||= !stop && existsSync(paths.cancel);
        results.push({ name: s.name, outcome: "skipped", exitCode: null, durationMs: 0 });
        continue;
      }
      // The install step: restored from the cache on a hit (not run); run on a miss, and its result saved.
      // A rerun of the install step itself runs it.
      const cache = s.name === p.settings.cacheStep ? cacheUse(store, p, dir) : undefined;
      if (cache && s.name !== req.until) {
        const hit = await restoredStep(cache, dir, join(paths.logs, `${s.name}.log`));
        if (hit) {
          results.push(hit);
          req.progress?.(id, hit);
          continue;
        }
      }
      const reports = stepReportsDir(paths.dir, s.name);
      const extra = testsEnv(req.tests, s.name);
      const local = { ...stepEnv(env, p.settings, id, s.name) };
      for (const k of PER_STEP) delete local[k];
      Object.assign(local, extra, { FORGE_REPORTS_DIR: reports });
      current = startStep({
        name: s.name,
        argv: stepArgv(p, paths, dir, s.name, id, reports, extra),
        cwd: dir,
        env: local,
        log: join(paths.logs, `${s.name}.log`),
        timeout: p.settings.timeout,
        onKill: p.runner === "docker" ? () => void dockerKill(req.top, env, containerName(id, s.name)) : undefined,
        tree: dir,
      });
      started.push(current);
      const r = await current.done;
      current = undefined;
      if (r.outcome !== "cancelled") {
        // The step's test cases (none: it stays one check); hostile reports are refused with one line, never thrown.
        const rep = readReports(s.name, reports, dir);
        if (rep.tests.length) r.tests = rep.tests;
        if (rep.error) r.reportError = rep.error;
      }
      if (cache && r.outcome === "pass" && (await saveCache(store, cache, dir, p.settings.keepCaches ?? KEEP_CACHES)))
        r.cache = "saved";
      results.push(r);
      req.progress?.(id, r);
      if ((r.outcome !== "pass" && !req.continueOnError) || s.name === req.until) stop = true;
    }
  } finally {
    // Background jobs a step left behind die with the run (no orphans).
    for (const s of started) s.reap();
    unregister();
  }
  let { verdict, conclusion } = verdictOf(results, cancelled);
  const tests = runTestsOf(results);
  writeRunTests(paths.dir, tests);
  // Under the record's lock, on the record as it is now: a `cancel` that found no runner answering may have
  // finished it meanwhile; the run then stays cancelled (with the steps it did run), never quietly un-cancelled.
  const done = rewriteFile(CI_RUN, await loadEntity(store, CI_RUNS, CI_RUN, { id, archived: false }), (d) => {
    if (d.status === "completed" && d.conclusion === "cancelled") {
      ({ verdict, conclusion } = { verdict: "cancelled", conclusion: "cancelled" });
    }
    delete d.pid;
    const steps = storedSteps(results);
    Object.assign(d, { status: "completed", conclusion, verdict, completedAt: formatTimestamp(), steps });
    return { body: summaryBody(results, verdict) };
  }).data;
  await setPrVerdict(store, req, verdict);
  // Bounded machine state: runs beyond keep_runs lose their logs (never this run's verdict).
  await pruneRuns(store).catch(() => []);
  // Ranked in the order from just before its folder appeared, as every create is.
  return runToJson(done, before.rankOf(createdAt, id) + 1, req.pr ? await prNumber(store, req.pr.id) : null, tests);
}

/**
 * A run's posture from `ci.env` and the steps (`.forge/ci/steps/` or a kept
 * `bin/`), with the Docker engine checked when the runner is docker.
 * @throws ForgeError: bad `ci.env`, no steps, a step that is not a file, no image, no engine
 */
export async function checkedPosture(
  store: Store,
  top: string,
  env: NodeJS.ProcessEnv,
  stepsFrom: string | undefined,
  docker: boolean
): Promise<Posture> {
  const stepsDir = stepsFrom ?? ciStepsDir(store);
  const shown = displayPath(store, stepsDir);
  const p = posture(store, stepsDir, shown, docker);
  checkCache(store, p);
  if (p.steps.length === 0) {
    // No steps checks nothing: never a green run (a PR would merge on it).
    const misnamed = p.notSteps.length ? `; ${notStepWarning(shown, p.notSteps[0]!)}` : "";
    const want = "add an executable step, e.g. .forge/ci/steps/10-test";
    throw new ForgeError(`no CI steps in ${shown}: nothing was run (${want})${misnamed}`, "E_NO_STEPS", 1);
  }
  if (p.runner === "docker") await checkDocker(top, env);
  return p;
}

/**
 * Check that `until` names a step of the posture.
 * @throws ForgeError (exit 1) naming the missing step, before anything is written
 */
export function checkUntil(p: Posture, until: string | undefined): void {
  if (until !== undefined && !p.steps.some((s) => s.name === until)) {
    const have = p.steps.map((s) => s.name).join(" ") || "none";
    throw new ForgeError(`no step '${until.slice(0, 60)}' in .forge/ci/steps (have: ${have})`, "E_NO_STEP", 1);
  }
}

/** The install step's result on a cache hit (its log says what was restored), or undefined on a miss. */
async function restoredStep(cache: CacheUse, dir: string, log: string): Promise<StepResult | undefined> {
  const t0 = performance.now();
  if (!(await restoreCache(cache, dir))) return undefined;
  const text = `forge-ci: ${cache.paths.join(" ")} restored from the cache (key ${cache.key}); ${cache.step} not run\n`;
  writeFileSync(log, text, { flag: "wx" });
  const logSha256 = createHash("sha256").update(text).digest("hex");
  const durationMs = Math.round(performance.now() - t0);
  return { name: cache.step, outcome: "skipped", exitCode: null, durationMs, logSha256, cache: "hit" };
}

/** The derived number of a PR, or null when it is gone. */
async function prNumber(store: Store, id: string): Promise<number | null> {
  const i = (await entityOrder(store, PRS, PR)).entries.findIndex((e) => e.ref.id === id);
  return i < 0 ? null : i + 1;
}

/**
 * Make the run's folder whole in one rename: summary (in progress, or `body` for a run recorded whole), the
 * step files (`bin/`, modes kept), the patch, `steps/` for logs, and any `files` (paths inside the folder).
 */
export function createRunDir(
  store: Store,
  paths: ReturnType<typeof runPaths>,
  p: Posture,
  data: Record<string, unknown>,
  patch: Uint8Array | null,
  body = summaryBody([], "running"),
  files: Record<string, string | Uint8Array> = {}
): void {
  const runs = kindDir(store, CI_RUNS);
  mkdirInside(store, runs);
  const tmp = mkdtempSync(join(runs, ".tmp-"));
  mkdirSync(join(tmp, "bin"));
  mkdirSync(join(tmp, "steps"));
  for (const s of p.steps) {
    const f = join(tmp, "bin", s.name);
    writeFileSync(f, s.bytes, { mode: s.mode });
    chmodSync(f, s.mode);
  }
  if (patch) writeFileSync(join(tmp, "patch.diff"), patch);
  // A run recorded whole (a trial from a host): its logs and host.json are in the folder before it appears.
  for (const [f, bytes] of Object.entries(files)) writeFileSync(join(tmp, f), bytes, { flag: "wx" });
  saveFile(CI_RUN, join(tmp, "summary.md"), data, {}, body);
  renameSync(tmp, paths.dir);
}

/** The argv of a step: the copied file, or `docker run` of it in the image. */
function stepArgv(
  p: Posture,
  paths: ReturnType<typeof runPaths>,
  dir: string,
  name: string,
  id: string,
  reports: string,
  extra: Record<string, string>
): string[] {
  if (p.runner === "local") return [join(paths.bin, name)];
  const env = { ...p.settings.env, FORGE_CI_RUN: id, FORGE_CI_STEP: name, ...extra, FORGE_REPORTS_DIR: DOCKER_REPORTS };
  return [
    "docker",
    "run",
    "--rm",
    "--init",
    "--name",
    containerName(id, name),
    "-v",
    `${dir}:/work`,
    "-w",
    "/work",
    "-v",
    `${paths.bin}:/forge-ci/steps:ro`,
    "-v",
    `${reports}:${DOCKER_REPORTS}`,
    ...Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
    p.settings.image!,
    `/forge-ci/steps/${name}`,
  ];
}

/** A container's name: unique per run and step. */
function containerName(id: string, step: string): string {
  return `forge-ci-${id.slice(0, 8)}-${step}`;
}

async function dockerKill(top: string, env: NodeJS.ProcessEnv, name: string): Promise<void> {
  await new Promise<void>((resolve) => {
    import("node:child_process").then(
      ({ execFile }) => execFile("docker", ["kill", name], { cwd: top, env, timeout: 20_000 }, () => resolve()),
      () => resolve()
    );
  });
}

/**
 * The PR's `ci` follows the run, unless the PR has a new patch since (a
 * verdict belongs to one patch).
 */
export async function setPrVerdict(
  store: Store,
  req: Pick<StepsRequest, "pr" | "patchSha256">,
  verdict: string
): Promise<void> {
  if (!req.pr) return;
  // A PR archived (or gone) meanwhile keeps what it had; an unreadable pr.md is an error, not a silent skip.
  const pr = await loadEntity(store, PRS, PR, { id: req.pr.id, archived: false }).catch((err: unknown) => {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  });
  if (!pr || (req.patchSha256 && pr.data.patchSha256 !== req.patchSha256)) return;
  updateEntity(PR, pr, (d) => {
    d.ci = verdict;
  });
}

/** The commit HEAD points at in `cwd`. */
export async function headCommit(cwd: string): Promise<string> {
  const r = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd });
  const sha = r.stdout.trim();
  if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(sha)) {
    throw new ForgeError("no commit to run on (HEAD has none yet)", "E_NO_HEAD", 1);
  }
  return sha;
}
