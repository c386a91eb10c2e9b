/**
 * The loop (seed §14, spec/loop.md §8) as a step function over injected
 * stage runners: `runLoop` opens the lane, picks up after a kill, then runs
 * `step` until a halt, and returns the report, whatever made it stop. The
 * stages, the clock, the history and stderr are `LoopDeps`: the real ones
 * start the tools (deps.ts), a test's are plain functions.
 */
import { ForgeError } from "@forge/core";
import { type HaltReason, isHaltReason } from "@forge/contract";
import type { ActResult, ObservationHead, ObservationLine, Plan, Target } from "./_lines.js";
import { bounded } from "./bounds.js";
import { type LoopConfig, reportedConfig } from "./flags.js";
import { findings } from "./findings.js";
import { keyWithLabel } from "./labels.js";
import type { Attempt } from "./history.js";
import type { Exported, Lane } from "./lane.js";
import type { Recovered } from "./recover.js";
import type { Refined } from "./refine.js";
import { newReport, PROG, type Report } from "./report.js";
import type { Acted, Picked } from "./stages.js";
import { lastLine } from "./tools.js";

/** What the loop stands on. */
export interface LoopDeps {
  /** The clock, in ms. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Why an external halt is asked now (a signal, `.forge/pilot/halt`), or null. */
  haltAsked(): string | null;
  /** Open an export lane (the run's, or a new one after it died). */
  openLane(): Lane;
  /** The pick-up after a kill, exported through the lane. */
  recover(lane: Lane): Promise<Recovered>;
  /** observe | plan. */
  observeAndPlan(): Promise<Picked>;
  /** `--refine-with` (called only when it is set). */
  refine(plan: Plan): Promise<Refined>;
  /** Act on a plan with a deadline (ms since the epoch). */
  act(plan: Plan, deadlineMs: number): Promise<Acted>;
  /** Export the CI runs made since `startedMs`, then the result. */
  exportAct(result: ActResult | null, startedMs: number, lane: Lane): Promise<Exported>;
  /** Append one attempt to the history. */
  record(attempt: Attempt): void;
  /** One progress line (stderr). */
  progress(line: string): void;
  /** The last observation and the issue numbers, for the findings (empty when they cannot be had). */
  final(): Promise<{ obs: ObservationLine[]; issueNumbers: Map<string, number> }>;
}

/** The loop's state between steps. */
export interface LoopState {
  rep: Report;
  /** ms since the epoch. */
  deadline: number;
  results: ActResult[];
  lastTargets: Target[];
  firstTargets: Target[] | null;
  /** The first observation of the run: `--brief` says what changed from it. */
  firstObs: ObservationLine[] | null;
}

/** Run the loop to a halt; the report. */
export async function runLoop(deps: LoopDeps, c: LoopConfig): Promise<Report> {
  const t0 = deps.now();
  const s: LoopState = {
    rep: newReport(reportedConfig(c)),
    deadline: t0 + c.timeBudget * 1000,
    results: [],
    lastTargets: [],
    firstTargets: null,
    firstObs: null,
  };
  const { rep } = s;
  // The run's lane opens first: its start-up and its read of the import log run while the pick-up looks for
  // what a kill left, and it exports what the pick-up finds (answering once its read is done), so the first
  // iteration finds it ready, as every later one does.
  let lane = deps.openLane();
  try {
    rep.recovered = await deps.recover(lane);
    rep.exports += rep.recovered.exports;
    rep.imports += rep.recovered.imports;
    // The budget is the loop's: it starts once the pick-up after a kill is done (elapsed_seconds counts both).
    s.deadline = deps.now() + c.timeBudget * 1000;
    for (;;) {
      const asked = deps.haltAsked();
      if (asked !== null) {
        halt(rep, "external_halt", asked);
        break;
      }
      if (rep.iterations >= c.maxIterations) {
        halt(rep, "max_iterations_reached", `${rep.iterations} iterations`);
        break;
      }
      if (deps.now() >= s.deadline) {
        halt(rep, "time_budget_exhausted", `${c.timeBudget} s spent`);
        break;
      }
      if (lane.dead) lane = deps.openLane();
      if (await step(deps, c, s, lane)) break;
      if (c.cooldown > 0 && deps.haltAsked() === null) await deps.sleep(c.cooldown * 1000);
    }
  } finally {
    await lane.close();
  }
  const last = await deps.final();
  rep.findings = findings(last.obs, s.results, s.lastTargets, last.issueNumbers, s.firstTargets ?? [], c.brief, {
    before: s.firstObs,
    halt: rep.halt_reason,
    thresholdMicros: Math.round(c.haltThreshold * 1_000_000),
  });
  rep.elapsed_seconds = Math.round((deps.now() - t0) / 100) / 10;
  if (deps.now() > s.deadline) {
    rep.deadline_overruns.push({ iteration: rep.iterations, target_key: null, overrun_ms: deps.now() - s.deadline });
  }
  return rep;
}

/**
 * One iteration: observe | plan, refine, act, export, history, progress.
 * @returns true when the loop halts
 */
export async function step(deps: LoopDeps, c: LoopConfig, s: LoopState, lane: Lane): Promise<boolean> {
  const { rep } = s;
  const { obs, targets, decision } = await deps.observeAndPlan();
  const head = obs.find((o): o is ObservationHead => o.kind === "observation");
  if (head && (head.markers ?? []).length > 0) rep.degraded_iterations++;
  s.lastTargets = targets;
  s.firstTargets ??= targets;
  s.firstObs ??= obs;
  if (decision.kind === "halt") {
    halt(rep, isHaltReason(decision.reason) ? decision.reason : "nothing_worth_investigating", decision.detail ?? "");
    return true;
  }
  rep.iterations++;
  let p = decision;
  if (c.refineWith) {
    const r = await deps.refine(p);
    p = r.plan;
    if (r.discarded) rep.refinements_discarded.push({ iteration: rep.iterations, why: r.discarded });
  }
  p = bounded(c, p);
  // The target as a person knows it: its key, and the step, PR or issue it is about.
  const what = keyWithLabel(targets.find((t) => t.key === p.target_key) ?? { key: p.target_key }, obs);
  const started = deps.now();
  const a = await deps.act(p, s.deadline);
  const res = a.result;
  if (!res && a.code === 2) {
    throw new ForgeError(`forge-act refused the plan line: ${lastLine(a.stderr).slice(0, 300)}`);
  }
  if (!res) {
    // The runs it finished are trials all the same: exported, never lost.
    count(rep, await deps.exportAct(null, started, lane));
    rep.act_errors.push({ iteration: rep.iterations, target_key: p.target_key, why: lastLine(a.stderr).slice(0, 300) });
    const at = new Date(deps.now()).toISOString().slice(0, 19) + "Z";
    deps.record({
      target_key: p.target_key,
      plan_kind: p.plan_kind,
      plan_id: p.plan_id,
      act_id: null,
      outcome_signature: `error:exit${a.code}`,
      recorded_at: at,
    });
    const why = lastLine(a.stderr).slice(0, 120);
    deps.progress(`${PROG}: ${rep.iterations}: ${what} ${p.plan_kind} → error (${why})`);
    return false;
  }
  rep.actions_executed++;
  if (res.advisory) rep.advisory_steps++;
  if (!rep.targets_investigated.includes(p.target_key)) rep.targets_investigated.push(p.target_key);
  const overrun = res.deadline_overrun_ms ?? 0;
  if (overrun > 0) {
    rep.deadline_overruns.push({ iteration: rep.iterations, target_key: p.target_key, overrun_ms: overrun });
  }
  s.results.push(res);
  count(rep, await deps.exportAct(res, started, lane));
  deps.record({
    target_key: p.target_key,
    plan_kind: p.plan_kind,
    plan_id: p.plan_id,
    act_id: res.id,
    outcome_signature: res.outcome_signature,
    recorded_at: res.completed_at,
  });
  const stop = res.stop && res.stop !== "done" && res.stop !== "decided" ? ` (${res.stop})` : "";
  const secs = ((deps.now() - started) / 1000).toFixed(1);
  const outcome = `${res.outcome_signature}${stop}`;
  deps.progress(`${PROG}: ${rep.iterations}: ${what} ${p.plan_kind} → ${outcome} ${secs} s`);
  if (res.parity_violation) {
    halt(rep, "parity_violation", `delta parity failed (act ${res.id}): the evidence store disagrees with itself`);
    return true;
  }
  return false;
}

function halt(rep: Report, reason: HaltReason, detail: string): void {
  rep.halt_reason = reason;
  rep.halt_detail = detail;
}

function count(rep: Report, ex: Exported): void {
  rep.exports += ex.exports;
  rep.imports += ex.imports;
}
