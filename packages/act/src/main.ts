/**
 * forge-act's command: plan lines on stdin (`forge-plan --json`), one act
 * result per plan on stdout (`| forge-export`). Target and halt lines are
 * passed over (a halt has nothing to run); any other kind is refused (exit
 * 2). SIGTERM/SIGINT: no new trial starts; the running one is cancelled,
 * and the result of what ran is still printed.
 */
import { resolve } from "node:path";
import { type ActResult, parsePlan } from "@forge/contract";
import { gitTopLevel, openStore, readJsonLines, UsageError } from "@forge/core";
import { defineCommand, type Ctx, type FlagsDef, oneLine, type Parsed } from "@forge/cli";
import { canonicalJson } from "@forge/kernel";
import { actId, executePlan } from "./act.js";
import { MAX_OPEN_TREES, SharedSetups } from "./_setup.js";
import { SETUPS_ENV } from "@forge/runner";

/** The version every executable reports. */
export const VERSION = "0.1.0";

/** forge-act's flags. */
export const FLAGS: FlagsDef = {
  stdin: { type: "positional", valueHint: "-", description: "plan lines on stdin (the default)" },
  json: { type: "boolean", description: "act results as JSON lines" },
  "allow-advisory-only": { type: "boolean", description: "run advisory plans (never verification)" },
  "independent-trials": {
    type: "boolean",
    description:
      "a fresh worktree and the whole setup for every trial (default: the steps before a target once per worktree)",
  },
  hosts: {
    type: "string",
    valueHint: "file",
    description:
      "run the trials over the ssh hosts of this GNU parallel sshlogin file, all replicates at once (default: none)",
  },
  "deadline-ms": {
    type: "string",
    valueHint: "ms",
    description: "epoch ms after which no trial starts (default: none)",
  },
};

/** Options of one run. */
export interface ActCliOptions {
  json: boolean;
  allowAdvisoryOnly: boolean;
  deadlineMs: number | null;
  /** Every trial in a fresh worktree with its whole setup (no setup shared between trials). */
  independentTrials: boolean;
  /** `--hosts` (or FORGE_ACT_HOSTS): the trials fan out over these ssh hosts. */
  hosts: string | null;
}

/**
 * argv → options.
 * @throws UsageError for a bad deadline or an argument other than `-`
 */
export function parseActOptions(args: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): ActCliOptions {
  if (args.stdin !== undefined && args.stdin !== "-")
    throw new UsageError(`unexpected argument '${String(args.stdin).slice(0, 40)}' (plans come on stdin)`);
  const d = args["deadline-ms"] as string | undefined;
  if (d !== undefined && !/^[0-9]{1,16}$/.test(d))
    throw new UsageError(`invalid deadline-ms '${d.slice(0, 20)}' (epoch milliseconds)`);
  return {
    json: args.json === true,
    allowAdvisoryOnly: args["allow-advisory-only"] === true,
    deadlineMs: d === undefined ? null : Number(d),
    // The environment's default reaches forge-act under forge-pilot, which starts it with the caller's environment.
    independentTrials: args["independent-trials"] === true || env.FORGE_ACT_INDEPENDENT_TRIALS === "1",
    hosts: hostsOf(args.hosts as string | undefined, env.FORGE_ACT_HOSTS),
  };
}

function hostsOf(flag: string | undefined, env: string | undefined): string | null {
  if (flag === "") throw new UsageError("--hosts needs a value");
  return flag ?? (env || null);
}

const PASSED_OVER = new Set(["target", "halt"]);

/** An act result as one human line: what ran, on what, what was learnt. */
export function formatResult(r: ActResult): string {
  const overrun = r.deadline_overrun_ms > 0 ? `, ${r.deadline_overrun_ms} ms past the deadline` : "";
  const stop = r.stop && r.stop !== "done" && r.stop !== "decided" ? ` (${r.stop})` : "";
  return `${r.plan_kind} ${r.target_key}: ${r.outcome_signature}${stop}${r.advisory ? " [advisory]" : ""}${overrun}\n`;
}

/**
 * Execute every plan on stdin.
 * @returns the exit code: 0; 1 if a plan could not run; 2 for a line of a kind forge-act does not take
 */
export async function actRun(ctx: Ctx, opts: ActCliOptions): Promise<number> {
  const { io, out, prog } = ctx;
  const store = openStore({ cwd: io.cwd, env: io.env });
  const top = await gitTopLevel(io.cwd, io.env, "forge-act runs checks in worktrees of a commit");
  let interrupted = false;
  const stop = (): void => {
    interrupted = true;
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  let failed = 0;
  // One pool for every plan of this process: a check's trials, and the checks after it on the same tree, share a setup.
  const pool = io.env[SETUPS_ENV];
  const setups = opts.independentTrials ? undefined : new SharedSetups(MAX_OPEN_TREES, pool || undefined);
  try {
    for await (const line of readJsonLines(io.stdin as AsyncIterable<Buffer>)) {
      if (line.error) {
        failed++;
        io.stderr.write(`${prog}: ${oneLine(line.error.message)}\n`);
        continue;
      }
      const kind = line.value.kind;
      if (typeof kind === "string" && PASSED_OVER.has(kind)) continue;
      if (kind !== "plan") {
        io.stderr.write(`${prog}: stdin line ${line.line}: kind '${String(kind).slice(0, 40)}' is not a plan\n`);
        return 2;
      }
      if (interrupted) break;
      try {
        const plan = parsePlan(line.value);
        const deadline = [opts.deadlineMs, plan.budget.deadline_ms].filter((x): x is number => x !== null);
        const limits = {
          deadlineMs: deadline.length ? Math.min(...deadline) : null,
          now: Date.now,
          interrupted: () => interrupted,
        };
        const rec = await executePlan(
          {
            store,
            top,
            env: io.env,
            limits,
            actId: actId(plan.plan_id, Date.now()),
            setups,
            ...(opts.hosts ? { hosts: resolve(io.cwd, opts.hosts) } : {}),
          },
          plan,
          { allowAdvisoryOnly: opts.allowAdvisoryOnly }
        );
        await out.write(opts.json ? canonicalJson(rec) + "\n" : formatResult(rec));
      } catch (err) {
        const e = err as { code?: unknown; message?: unknown };
        if (typeof e.code !== "string" || !e.code.startsWith("E_")) throw err;
        failed++;
        io.stderr.write(`${prog}: stdin line ${line.line}: ${oneLine(String(e.message))}\n`);
      }
      // A result is out as soon as stdin has nothing more waiting (a pipeline's reader sees each act as it ends).
      if (line.idle) await out.flush();
      if (out.closed) break;
    }
  } finally {
    await setups?.close();
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  }
  if (interrupted) return 128 + 15;
  return failed > 0 ? 1 : 0;
}

export default defineCommand({
  meta: {
    name: "forge-act",
    version: VERSION,
    description: "Run plan lines (reruns, paired patches, oracles); print act results",
    help: {
      reads: [
        ["stdin", "plan lines (forge-plan --json)"],
        [".forge/ci/", "the steps and ci.env: each trial is a forge-ci run in a disposable worktree"],
        [".forge/evidence/imports/", "the scope's fold, for oracle plans"],
      ],
      notes: [
        "Writes CI run records (machine state) and one act_result line per plan; evidence only through forge-export.",
        "A CheckRerun's trials share one worktree per tree: the steps before the target run once there (the runs' " +
          "setupId says which shared it), then the target alone each trial; a PairedPatch side reuses one worktree, " +
          "reset between its runs; --independent-trials: a fresh one each.",
      ],
      env: [
        ["FORGE_ACT_INDEPENDENT_TRIALS", "1: --independent-trials (so forge-pilot run can ask for it)"],
        [SETUPS_ENV, "a folder where prepared worktrees are kept for the next forge-act (forge-pilot run sets it)"],
        ["FORGE_ACT_HOSTS", "the default of --hosts (set it for forge-pilot run: its acts inherit it)"],
      ],
      examples: [
        "forge-observe --json | forge-plan --json | forge-act --json | forge-export",
        "forge-plan --json | forge-act --json --deadline-ms 1767225600000",
      ],
    },
  },
  args: FLAGS,
  run: ({ args, data: ctx }: { args: Parsed; data: Ctx }) => actRun(ctx, parseActOptions(args, ctx.io.env)),
});
