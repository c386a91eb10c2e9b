import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { basename, join, resolve } from "node:path";
import {
  displayPath,
  ForgeError,
  git,
  gitTopLevel,
  isForgeError,
  readJsonLines,
  readPatch,
  refOfRecord,
  UsageError,
} from "@forge/core";
import { batchMessage, defineCommand, emit, type Ctx, type Parsed } from "@forge/cli";
import pLimit from "p-limit";
import {
  checkedPosture,
  checkUntil,
  headCommit,
  notStepWarning,
  openTree,
  Runs,
  runStepsIn,
  withTree,
  DEFAULT_CHUNK,
  recordAdapterRun,
  runAdapter,
  runOnHosts,
  triggerLine,
  type CiRunJson,
  type OpenTree,
  type Posture,
  type StepsRequest,
} from "@forge/runner";
import { CI_READS, JSON_FLAGS, jsonRequest, runRender, stepLine } from "./_shared.js";

/** Options of `forge-ci run`. */
export interface RunOptions {
  /** A PR ref, `-` for PRs as JSON lines on stdin, or undefined: HEAD. */
  ref?: string;
  docker: boolean;
  continueOnError: boolean;
  /** How many runs at once (stdin batches). */
  jobs: number;
  /** `--at`: the commit to run instead of HEAD (no ref only). */
  at?: string;
  /** `--until`: run the steps up to this one (the ones before it as setup). */
  until?: string;
  /** `--repeat`: how many runs of each tree, one after another (default 1). */
  repeat: number;
  /** `--independent-trials`: with --until and --repeat, each run its own worktree and its whole setup. */
  independentTrials: boolean;
  /** `--hosts`: a GNU parallel sshlogin file; the runs fan out over those hosts (default: ci.env's `hosts=`). */
  hosts?: string;
  /** `--chunk`: replicates per host job (default DEFAULT_CHUNK). */
  chunk?: number;
  /** Run the steps even when ci.env says `runner=adapter:CMD` (`forge-ci adapter` itself). */
  noAdapter?: boolean;
}

/** One thing to run: a tree and what it is for. */
interface Target {
  label: string;
  headSha: string;
  patch: Buffer | null;
  patchSha256: string | null;
  pr: { id: string } | null;
  title?: string;
}

/**
 * Run CI: on HEAD's commit (no ref), or for each PR on the tip of its
 * base with its patch applied, each in its own disposable worktree, up to
 * `jobs` at once. Results come in input order.
 * @returns the runs, and how many refs could not be run
 */
export async function* runCi(ctx: Ctx, opts: RunOptions, batch: { failed: number }): AsyncGenerator<CiRunJson> {
  const runs = new Runs(ctx.io);
  const top = await gitTopLevel(ctx.io.cwd, ctx.io.env, "CI runs a commit");
  // The posture once, before anything runs: ci.env, the steps, the image, the engine.
  const p = await checkedPosture(runs.store, top, ctx.io.env, undefined, opts.docker);
  // A misnamed step (`10-test.sh`) is not run, and never without a word.
  for (const n of p.notSteps) ctx.log.warn(notStepWarning(".forge/ci/steps", n));
  checkUntil(p, opts.until);
  const hostsFile =
    opts.hosts !== undefined
      ? resolve(ctx.io.cwd, opts.hosts)
      : p.settings.hosts
        ? resolve(top, p.settings.hosts)
        : undefined;
  if (hostsFile !== undefined) {
    if (opts.docker || p.runner === "docker")
      throw new ForgeError(
        "--hosts: the runner is docker; hosts run the steps as they are (runner=local)",
        "E_HOSTS",
        1
      );
    yield* onHosts(ctx, runs, top, p, hostsFile, opts, batch);
    return;
  }
  if (p.settings.adapter && !opts.noAdapter) {
    if (opts.ref !== undefined)
      throw new ForgeError("runner=adapter: sends a commit; a PR's run needs runner=local or docker", "E_ADAPTER", 1);
    const headSha = opts.at === undefined ? await headCommit(top) : await commitOf(top, opts.at);
    const branch = (await git(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd: top })).stdout.trim() || "HEAD";
    for (let i = 0; i < opts.repeat; i++) {
      const line = triggerLine(headSha, basename(top), branch);
      const timeout = p.settings.timeout;
      const r = await runAdapter(p.settings.adapter, line, { cwd: top, env: ctx.io.env, timeout });
      ctx.io.stderr.write(`${ctx.prog}: adapter run ${r.runId.slice(0, 60)}: ${r.result}\n`);
      yield await recordAdapterRun(runs.store, top, p, { headSha, patch: null, patchSha256: null }, r, ctx.io.env);
    }
    return;
  }
  const request = (t: Target): StepsRequest => ({
    store: runs.store,
    top,
    headSha: t.headSha,
    patchSha256: t.patchSha256,
    patch: t.patch,
    pr: t.pr,
    title: t.title,
    posture: p,
    continueOnError: opts.continueOnError,
    env: ctx.io.env,
    until: opts.until,
    progress: (_id, s) => ctx.io.stderr.write(stepLine(ctx.io, t.label, s)),
  });
  const once = async (t: Target): Promise<CiRunJson> =>
    withTree(top, t.headSha, t.patch, (dir) => runStepsIn(dir, request(t)));
  // --repeat with --until: the runs of one tree share one worktree, the steps before --until run there once (its
  // setup) and each later run starts at it, every record with the same setupId; a setup step that could not finish
  // (timeout, cancelled, 126/127) retires the worktree. --independent-trials: each run its own worktree and setup.
  const shared = opts.until !== undefined && opts.repeat > 1 && !opts.independentTrials;
  const repeated = async function* (t: Target): AsyncGenerator<CiRunJson> {
    if (!shared) {
      for (let i = 0; i < opts.repeat; i++) yield await once(t);
      return;
    }
    let tree: OpenTree | undefined;
    let setupId = "";
    try {
      for (let i = 0; i < opts.repeat; i++) {
        const fresh = tree === undefined;
        if (fresh) setupId = randomBytes(12).toString("hex");
        tree ??= await openTree(top, t.headSha, t.patch);
        const r = await runStepsIn(tree.dir, {
          ...request(t),
          from: fresh ? undefined : opts.until,
          setupId,
        });
        // Without --continue-on-error a setup step that failed stopped the run: the next one sets up afresh.
        const broken = r.steps.some(
          (x) =>
            x.name !== opts.until &&
            (x.outcome === "timeout" ||
              x.exitCode === 126 ||
              x.exitCode === 127 ||
              (!opts.continueOnError && x.outcome === "fail"))
        );
        if (broken || r.verdict === "cancelled") {
          await tree.close();
          tree = undefined;
        }
        yield r;
      }
    } finally {
      await tree?.close();
    }
  };
  const one = async (t: Target): Promise<CiRunJson[]> => {
    const rs: CiRunJson[] = [];
    for await (const r of repeated(t)) rs.push(r);
    return rs;
  };
  if (opts.ref === undefined) {
    const headSha = opts.at === undefined ? await headCommit(top) : await commitOf(top, opts.at);
    yield* repeated({ label: "", headSha, patch: null, patchSha256: null, pr: null });
    return;
  }
  if (opts.ref !== "-") {
    yield* repeated(await prTarget(runs, top, opts.ref, ""));
    return;
  }
  const limit = pLimit(opts.jobs);
  const pending: Array<{
    run: Promise<CiRunJson[] | Error>;
    value: Record<string, unknown> | undefined;
    line: number;
  }> = [];
  for await (const line of readJsonLines(ctx.io.stdin as AsyncIterable<Buffer>)) {
    const job = async (): Promise<CiRunJson[]> => {
      if (line.error) throw line.error;
      return one(await prTarget(runs, top, refOfRecord(line.value, line.line), ""));
    };
    const run = limit(job).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    pending.push({ run, value: line.error ? undefined : line.value, line: line.line });
  }
  for (const p of pending) {
    const r = await p.run;
    if (r instanceof Error) {
      if (!isForgeError(r)) throw r;
      batch.failed++;
      // Each line names its PR: a batch's errors come in input order, but not every PR fails.
      ctx.io.stderr.write(`${ctx.prog}: ${batchMessage(ctx.prog, p.value, p.line, r.message)}\n`);
    } else yield* r;
  }
}

/**
 * `--hosts`: every target (HEAD, a PR, or each PR on stdin) an arm, `--repeat` replicates each, over the hosts
 * through GNU parallel (runOnHosts); each trial a run, in input order. Replicates every attempt lost to
 * infrastructure count as failed targets (one stderr line), never as red runs.
 */
async function* onHosts(
  ctx: Ctx,
  runs: Runs,
  top: string,
  p: Posture,
  hostsFile: string,
  opts: RunOptions,
  batch: { failed: number }
): AsyncGenerator<CiRunJson> {
  const targets: Target[] = [];
  if (opts.ref === undefined) {
    const headSha = opts.at === undefined ? await headCommit(top) : await commitOf(top, opts.at);
    targets.push({ label: "", headSha, patch: null, patchSha256: null, pr: null });
  } else if (opts.ref !== "-") targets.push(await prTarget(runs, top, opts.ref, ""));
  else {
    for await (const line of readJsonLines(ctx.io.stdin as AsyncIterable<Buffer>)) {
      try {
        if (line.error) throw line.error;
        targets.push(await prTarget(runs, top, refOfRecord(line.value, line.line), ""));
      } catch (err) {
        if (!isForgeError(err)) throw err;
        batch.failed++;
        ctx.io.stderr.write(`${ctx.prog}: ${batchMessage(ctx.prog, line.value, line.line, err.message)}\n`);
      }
    }
  }
  if (targets.length === 0) return;
  const r = await runOnHosts({
    store: runs.store,
    top,
    hostsFile,
    arms: targets.map((t) => ({ ...t, pr: t.pr })),
    replicates: opts.repeat,
    chunk: opts.chunk,
    posture: p,
    continueOnError: opts.continueOnError,
    until: opts.until,
    env: ctx.io.env,
    progress: (line) => ctx.io.stderr.write(`${ctx.prog}: hosts: ${line}\n`),
  });
  for (const [i, a] of r.arms.entries()) {
    if (a.error) {
      batch.failed++;
      ctx.io.stderr.write(`${ctx.prog}: ${targets[i]!.label}${a.error}\n`);
    }
    yield* a.runs;
  }
  if (r.lost > 0) {
    batch.failed++;
    const where = displayPath(runs.store, join(r.dir, "attempts.jsonl"));
    ctx.io.stderr.write(`${ctx.prog}: hosts: ${r.lost} trials lost to infrastructure, not run (${where})\n`);
  }
}

/**
 * The full commit id of `rev` (`--at`).
 * @throws ForgeError when it names no commit
 */
export async function commitOf(top: string, rev: string): Promise<string> {
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], { cwd: top });
  if (r.code !== 0) throw new ForgeError(`--at: no commit '${rev.slice(0, 60)}'`, "E_NO_COMMIT", 1);
  return r.stdout.trim();
}

/** A PR's target: the tip of its base branch and its patch. */
export async function prTarget(runs: Runs, top: string, ref: string, label: string): Promise<Target> {
  const { pr, number } = await runs.pr(ref);
  const base = pr.data.baseRefName as string;
  const r = await git(["rev-parse", "--verify", "--quiet", "--end-of-options", `refs/heads/${base}^{commit}`], {
    cwd: top,
  });
  if (r.code !== 0)
    throw new ForgeError(`pull request #${number}: no base branch '${base.slice(0, 60)}'`, "E_NO_BASE", 1);
  const patch = readPatch(runs.store, pr);
  return {
    label: label || `#${number} `,
    headSha: r.stdout.trim(),
    patch,
    patchSha256: pr.data.patchSha256 as string,
    pr: { id: pr.ref.id },
    title: pr.data.title as string,
  };
}

/**
 * argv → options.
 * @throws UsageError for a bad --jobs
 */
export function parseRunOptions(args: Parsed, env: NodeJS.ProcessEnv): RunOptions {
  const raw = (args.jobs as string | undefined) ?? env.FORGE_CI_JOBS ?? String(availableParallelism());
  if (!/^[1-9][0-9]{0,3}$/.test(raw)) throw new UsageError(`invalid jobs '${raw.slice(0, 20)}' (a positive integer)`);
  const repeat = (args.repeat as string | undefined) ?? "1";
  if (!/^[1-9][0-9]{0,2}$/.test(repeat)) throw new UsageError(`invalid repeat '${repeat.slice(0, 20)}' (1 to 999)`);
  const at = nonEmpty(args, "at");
  const chunk = nonEmpty(args, "chunk");
  if (chunk !== undefined && !/^[1-9][0-9]{0,2}$/.test(chunk))
    throw new UsageError(`invalid chunk '${chunk.slice(0, 20)}' (1 to 999)`);
  if (at !== undefined && args.ref !== undefined) throw new UsageError("--at runs a commit: not with a PR ref");
  return {
    ref: args.ref as string | undefined,
    docker: args.docker === true,
    continueOnError: args["continue-on-error"] === true,
    jobs: Number(raw),
    at,
    until: nonEmpty(args, "until"),
    repeat: Number(repeat),
    independentTrials: args["independent-trials"] === true,
    hosts: nonEmpty(args, "hosts"),
    chunk: chunk === undefined ? undefined : Number(chunk),
  };
}

function nonEmpty(args: Parsed, k: string): string | undefined {
  const v = args[k] as string | undefined;
  if (v === "") throw new UsageError(`--${k} needs a value`);
  return v;
}

export default defineCommand({
  meta: {
    name: "run",
    description: "Run the CI steps (on HEAD, or on a PR's patch)",
    help: {
      reads: CI_READS,
      env: [["FORGE_CI_JOBS", "the default of --jobs"]],
      examples: [
        "forge-ci run",
        "forge-pr list --state open --json | forge-ci run - -j 2 --json",
        "forge-ci run 4 --docker",
        "forge-ci run --hosts ~/.parallel/sshloginfile --repeat 40",
      ],
      notes: [
        "Exit 1 when any run is red or a PR cannot be run (one stderr line each, naming the PR).",
        "No steps is exit 1 and one line, no run recorded: a run that checked nothing is never green " +
          "(gh has no such case: a repository without workflows has no checks).",
        "A file in .forge/ci/steps not named NN-name (10-test.sh) is not run: one warning line names it.",
        "--hosts needs GNU parallel here and node + git on each host (spec/hosts.md); each trial is a run " +
          "(runner hosts); every attempt, counted or lost, is a line of .forge/ci/runs/.hosts/<batch>/attempts.jsonl.",
      ],
    },
  },
  args: {
    ref: {
      type: "positional",
      valueHint: "pr|-",
      description:
        "a PR (number, #number, id or id prefix): its patch on its base's tip; - reads PRs as JSON lines on stdin; " +
        "none: HEAD",
    },
    docker: {
      type: "boolean",
      description: "run the steps in ci.env's image, whatever runner= says (no engine: an error)",
    },
    "continue-on-error": { type: "boolean", description: "run every step, also after one fails" },
    jobs: {
      type: "string",
      alias: "j",
      valueHint: "n",
      description: "PR runs at once (default: FORGE_CI_JOBS, else the number of cores)",
    },
    at: { type: "string", valueHint: "rev", description: "the commit to run instead of HEAD (default: HEAD)" },
    until: {
      type: "string",
      valueHint: "step",
      description: "run the steps up to and including this one (default: every step)",
    },
    repeat: {
      type: "string",
      valueHint: "n",
      description:
        "runs of the same tree, one after another (default: 1); with --until they share one worktree, the steps " +
        "before it run once",
    },
    "independent-trials": {
      type: "boolean",
      description: "with --until and --repeat: each run its own worktree and its whole setup",
    },
    hosts: {
      type: "string",
      valueHint: "file",
      description:
        "run over the ssh hosts of this GNU parallel sshlogin file (N/host a line; default: ci.env hosts=); each " +
        "trial its own tree and whole setup",
    },
    chunk: {
      type: "string",
      valueHint: "n",
      description: `with --hosts: replicates per host job (default: ${DEFAULT_CHUNK})`,
    },
    ...JSON_FLAGS,
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const opts = parseRunOptions(args, ctx.io.env);
    const req = jsonRequest(args);
    const batch = { failed: 0 };
    let red = 0;
    const records = (async function* () {
      for await (const r of runCi(ctx, opts, batch)) {
        if (r.verdict !== "pass") red++;
        yield r;
      }
    })();
    await emit(ctx.io, ctx.out, records, runRender(args, req, opts.ref !== undefined && opts.ref !== "-"));
    return batch.failed || red ? 1 : 0;
  },
});
