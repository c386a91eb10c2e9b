/**
 * The loop runtime's two main transactions, start and report (next/retry):
 * each under the loop's lock, it reads the loop, decides, and commits
 * events then state. Returns records; never prints. The other
 * transactions are in control.ts (pause, resume, stop, backtrack) and
 * gate_ops.ts; this module re-exports them.
 */
import { randomUUID } from "node:crypto";
import { ForgeError, headCommit, mkdirInside, workspaceCodeTree } from "@forge/core";
import { clip, derivedId, InvalidReportError, normText, roundIdOf, stamp } from "./_util.js";
import { adviceFor, guardOpen, type LoopContext, openRound, promptOf } from "./_round.js";
import { CHECKPOINT } from "./prompt.js";
import { parseReport, type RoundReport } from "./report.js";
import { commitLoop, loopPaths, withLoop } from "./store.js";
import {
  type Criterion,
  type Decision,
  type Finding,
  liveCriteria,
  type LoopState,
  openGates,
  setOptional,
} from "./state.js";
import { checkAgainstLoop, verifyReport, Verifier } from "./verify.js";
import {
  acceptedInEffect,
  applyV3,
  closeGates,
  driftUnanswered,
  escalate,
  GUIDED_AT,
  type Rule,
  TERMINAL_REASON,
  TERMINATE_AT,
} from "./_rules.js";

export { type LoopContext, type OpenRound, statusRecord } from "./_round.js";
export { backtrackLoop, pauseLoop, resumeLoop, stopLoop } from "./control.js";
export { checkGate, resolveGate } from "./gate_ops.js";

/** Firings of one rejection rule in one round after which the loop is terminated (its guided retry was used). */
export const MAX_REJECTIONS = TERMINATE_AT;

/** Rounds kept in loop.md; constraints and sub-goals a loop may hold; characters of a text a report adds. */
export const MAX_ROWS = 50;
const MAX_CONSTRAINTS = 100;
const MAX_SUBGOALS = 200;
const MAX_ADDED_TEXT = 500;

/** Options of `startLoop`. */
export interface StartOptions {
  task: string;
  constraints: string[];
  criteria: Array<{ text: string; argv: string[] | null }>;
  maxRounds: number;
  domain: string | null;
  promptBudget: number;
  checkTimeoutMs: number;
}

/**
 * Start a loop: the goal, its hard constraints and criteria (with their
 * declared checks), round 1 open at L2.
 */
export async function startLoop(ctx: LoopContext, o: StartOptions): Promise<Record<string, unknown>> {
  const id = randomUUID();
  const at = stamp(ctx.now);
  const uniq = <T extends { id: string }>(xs: T[]): T[] =>
    xs.filter((x, i) => xs.findIndex((y) => y.id === x.id) === i);
  const s: LoopState = {
    id,
    createdAt: at,
    updatedAt: at,
    goal: o.task.trim(),
    domain: o.domain,
    maxRounds: o.maxRounds,
    promptBudget: o.promptBudget,
    checkTimeoutMs: o.checkTimeoutMs,
    status: "active",
    pausedFrom: null,
    round: 1,
    roundId: roundIdOf(id, 1),
    attempt: 1,
    awaiting: "report",
    lastDecision: null,
    reason: null,
    stopReason: null,
    rejections: 0,
    level: "L2",
    promptHash: "",
    stateHash: "",
    completion: null,
    eventSequence: 0,
    eventHash: "",
    constraints: uniq(
      o.constraints.map((t) => ({
        id: derivedId("c", id, t),
        text: normText(t),
        origin: "user" as const,
        status: "active" as const,
      }))
    ),
    criteria: uniq(
      o.criteria.map((c) => ({
        id: derivedId("cr", id, c.text),
        text: normText(c.text),
        argv: c.argv,
        status: "open" as const,
        verifiedRound: null,
        revisedFrom: null,
        revisedTo: null,
      }))
    ),
    subGoals: [],
    facts: [],
    rounds: [],
    findings: [],
    gates: [],
    advice: [],
  };
  s.advice = adviceFor(ctx, s);
  const p = promptOf(s);
  mkdirInside(ctx.store, loopPaths(ctx.store, id).dir);
  const { state } = commitLoop(ctx.store, null, s, p.text, [
    {
      type: "loop_started",
      at,
      goal: s.goal,
      domain: s.domain,
      maxRounds: s.maxRounds,
      constraints: s.constraints,
      criteria: s.criteria,
    },
    { type: "round_opened", at, round: 1, roundId: s.roundId, attempt: 1, level: s.level },
  ]);
  return {
    kind: "loop_round",
    loop_id: id,
    status: state.status,
    constraints: state.constraints.map((c) => ({ id: c.id, text: c.text })),
    criteria: state.criteria.map((c) => ({ id: c.id, text: c.text, check: c.argv })),
    ...openRound(state, p.text, p.omitted),
  };
}

/**
 * Take a round report: validate (nothing changes if invalid), re-verify
 * every claim, decide, and open the next round or attempt.
 * @param mode `next` after an accepted round, `retry` after a rejection
 */
export function submitReport(
  ctx: LoopContext,
  id: string,
  raw: string,
  mode: "next" | "retry",
  source?: string
): Promise<Record<string, unknown>> {
  return withLoop(ctx.store, id, ctx.note, async (l) => {
    const s0 = l.state;
    guardOpen(s0, mode);
    if (mode === "next" && s0.awaiting === "retry")
      throw new ForgeError(
        `round ${s0.round} (${s0.roundId}) was rejected: use 'forge-loop retry' (next cannot bypass a rejection)`,
        "E_ROUND_REJECTED",
        1
      );
    if (mode === "retry" && s0.awaiting !== "retry")
      throw new ForgeError(
        `round ${s0.round} (${s0.roundId}) was not rejected: use 'forge-loop next'`,
        "E_NOT_REJECTED",
        1
      );
    let report: RoundReport;
    try {
      report = parseReport(raw);
      checkAgainstLoop(s0, report, ctx.store.root);
    } catch (err) {
      // Name the file as well as the field.
      if (source && (err as { code?: string }).code === "E_INVALID_ROUND_REPORT") {
        const e = err as InvalidReportError;
        throw new InvalidReportError(e.field, e.why, source);
      }
      throw err;
    }
    const at = stamp(ctx.now);
    const head = await headCommit(ctx.store.root, ctx.env as NodeJS.ProcessEnv);
    const tree = await workspaceCodeTree(ctx.store.root, ctx.env as NodeJS.ProcessEnv);
    const v = new Verifier(s0, { store: ctx.store, env: ctx.env, tree });
    const findings = await verifyReport(v, report);
    const disposition = effectiveDisposition(report);
    if (disposition === "goal_complete") {
      // Completion is decided on the tree as it is now: every criterion's check runs (regressions included).
      for (const c of liveCriteria(s0)) {
        if (v.criteria.has(c.id) || !c.argv) continue;
        const r = await v.criterion(c.id);
        findings.push({
          ref: `completion:${c.id}`,
          target: c.id,
          kind: "check",
          claimed: c.status === "verified" ? "still met" : "met",
          observed: r.status === "unavailable" ? "unavailable" : r.status === "verified" ? "passed" : "failed",
          status: r.status,
          exitCode: r.run?.exitCode ?? null,
          durationMs: r.run?.durationMs ?? null,
          detail: clip(`exit ${r.run?.exitCode ?? "none"}`, 200),
        });
      }
    }
    // A completion check failing on a criterion that was never verified refuses completion; it is not a rejection
    // (the work of the round still stands). A verified criterion failing now is a regression: that rejects.
    const contradicted = findings.filter(
      (f) => f.status === "contradicted" && !(f.ref.startsWith("completion:") && f.claimed === "met")
    );
    const s: LoopState = structuredClone(s0);
    s.updatedAt = at;
    s.findings = findings;
    s.completion = null;
    // A context request is shown once: the prompt after the round that asked.
    setOptional(s, "contextRequest", undefined);
    let decision: Decision;
    let reason: string | null = null;
    const changes: string[] = [];
    const rule: Rule | null = report.violations.length
      ? "constraint_violation"
      : contradicted.length
        ? "contradicted_evidence"
        : driftUnanswered(s0, report)
          ? "intent_drift"
          : null;
    if (rule !== null) {
      reason =
        rule === "constraint_violation"
          ? `constraint_violation: ${clip(report.violations.join("; "), 200)}`
          : rule === "contradicted_evidence"
            ? `contradicted_evidence: ${contradicted.map((f) => f.ref).join(", ")}`
            : `intent_drift: ${clip(s0.drift!, 200)}; this report neither anchors its work nor gives ` +
              "driftClarification";
      s.rejections++;
      const esc = escalate(s0.escalation, rule);
      s.escalation = esc.list;
      if (esc.count >= TERMINATE_AT) {
        decision = "terminated";
        s.status = "terminated";
        s.stopReason = TERMINAL_REASON[rule];
        s.awaiting = "none";
        for (const h of closeGates(s, at)) changes.push(`gate_closed ${h.slice(0, 12)}`);
      } else {
        decision = "rejected";
        s.awaiting = "retry";
        s.attempt++;
        s.level = "L0";
        if (esc.count === GUIDED_AT) changes.push(`guided_retry ${rule}`);
      }
    } else {
      decision = "accepted";
      s.rejections = 0;
      setOptional(s, "escalation", undefined);
      s.acceptedRounds = (s0.acceptedRounds ?? acceptedInEffect(l.events)) + 1;
      const structural = applyReport(s, report, v, findings, changes);
      const rehydrate = applyV3(s, report, s0.round, changes);
      const open = liveCriteria(s).filter((c) => c.status !== "verified");
      const gates = openGates(s);
      if (disposition === "goal_complete" && open.length === 0 && gates.length === 0) {
        s.status = "complete";
        s.stopReason = "goal_complete";
        s.awaiting = "none";
      } else if (s.acceptedRounds >= s.maxRounds) {
        s.status = "terminated";
        s.stopReason = "max_rounds";
        s.awaiting = "none";
        for (const h of closeGates(s, at)) changes.push(`gate_closed ${h.slice(0, 12)}`);
      } else {
        if (disposition === "goal_complete") {
          const unmet = open.length ? ` criteria not verified: ${open.map((c) => c.id).join(", ")}` : "";
          const gated = gates.length
            ? ` open user gates: ${gates.map((g) => g.actionHash.slice(0, 12)).join(", ")}`
            : "";
          s.completion = `goal_complete refused:${unmet}${gated}`;
        }
        s.status = disposition === "wait" ? "waiting" : disposition === "wait_for_user" ? "waiting_for_user" : "active";
        s.round++;
        s.roundId = roundIdOf(s.id, s.round);
        s.attempt = 1;
        s.awaiting = "report";
        s.level = s.round % CHECKPOINT === 1 || structural || rehydrate ? "L2" : "L1";
      }
    }
    s.lastDecision = decision;
    s.reason = reason;
    s.rounds.push({
      round: s0.round,
      attempt: s0.attempt,
      decision,
      outcome: report.outcome,
      summary: clip(report.summary, 200),
      headSha: head,
      codeTree: tree,
      at,
    });
    // loop.md keeps the last rounds (prompts show at most 5); the timeline keeps them all.
    if (s.rounds.length > MAX_ROWS) s.rounds = s.rounds.slice(-MAX_ROWS);
    if (s.awaiting !== "none" && decision === "accepted") s.advice = adviceFor(ctx, s);
    const p = promptOf(s);
    const events: Array<Record<string, unknown>> = [
      {
        type: "round_decided",
        at,
        round: s0.round,
        roundId: s0.roundId,
        attempt: s0.attempt,
        mode,
        decision,
        reason,
        disposition,
        status: s.status,
        stopReason: s.stopReason,
        head_sha: head,
        code_tree: tree,
        changes,
        findings,
        report,
      },
    ];
    if (p.text !== "")
      events.push({ type: "round_opened", at, round: s.round, roundId: s.roundId, attempt: s.attempt, level: s.level });
    const { state } = commitLoop(ctx.store, l, s, p.text, events);
    return {
      kind: "loop_result",
      schema_version: "forge-loop-result/v1",
      loop_id: s.id,
      round: s0.round,
      attempt: s0.attempt,
      recorded_at: at,
      head_sha: head,
      code_tree: tree,
      criteria: liveCriteria(s0).map((c) => criterionRow(c, v, findings)),
      decision,
      reason,
      disposition,
      status: state.status,
      stopReason: state.stopReason,
      completion: state.completion,
      findings,
      changes,
      stateHash: state.stateHash,
      next: openRound(state, p.text, p.omitted),
    };
  });
}

/** A criterion without a declared check, verified or contradicted by a CI step claim. */
function ciVerdict(findings: Finding[], id: string): { status: Finding["status"] } | undefined {
  const f = findings.find((x) => x.target === id && x.kind === "ci" && x.status !== "unavailable");
  return f ? { status: f.status } : undefined;
}

function criterionRow(c: Criterion, v: Verifier, findings: Finding[]): Record<string, unknown> {
  const ran = v.criteria.get(c.id);
  const ci = ciVerdict(findings, c.id);
  const r = ran && ran.status !== "unavailable" ? ran : ci ? { status: ci.status, run: ran?.run ?? null } : ran;
  return {
    criterion_id: c.id,
    text: c.text,
    status: r?.status ?? "unavailable",
    check: r?.run
      ? { argv: r.run.argv, exit_code: r.run.exitCode, duration_ms: r.run.durationMs, log_digest: r.run.logDigest }
      : null,
  };
}

/** An explicit stop always wins; the runtime never infers goal_complete. */
function effectiveDisposition(r: RoundReport): "continue" | "wait" | "wait_for_user" | "goal_complete" {
  if (r.disposition && r.disposition !== "continue") return r.disposition;
  if (r.continuation === "stop") return r.outcome === "blocked" ? "wait_for_user" : "wait";
  return "continue";
}

/**
 * Apply an accepted report's facts to the state.
 * @returns whether the goal's structure changed (the next prompt is a full rehydration)
 */
function applyReport(s: LoopState, r: RoundReport, v: Verifier, findings: Finding[], changes: string[]): boolean {
  let structural = false;
  for (const c of liveCriteria(s)) {
    const ran = v.criteria.get(c.id);
    const res = ran && ran.status !== "unavailable" ? ran : (ciVerdict(findings, c.id) ?? ran);
    if (res?.status === "verified" && c.status !== "verified") {
      c.status = "verified";
      c.verifiedRound = s.round;
      changes.push(`criterion_verified ${c.id}`);
    } else if (res?.status === "contradicted" && c.status === "verified") {
      c.status = "open";
      c.verifiedRound = null;
      changes.push(`criterion_reopened ${c.id}`);
    }
  }
  const verifiedRefs = new Set(findings.filter((f) => f.status === "verified").map((f) => f.ref));
  for (const e of r.subGoalEvents) {
    if (e.event === "added") {
      const id = derivedId("sg", s.id, e.text!);
      if (!s.subGoals.some((x) => x.id === id) && s.subGoals.length < MAX_SUBGOALS) {
        s.subGoals.push({ id, text: clip(normText(e.text!), MAX_ADDED_TEXT), status: "open" });
        changes.push(`subgoal_added ${id}`);
      }
      continue;
    }
    const g = s.subGoals.find((x) => x.id === e.id)!;
    g.status = e.event;
    changes.push(`subgoal_${e.event} ${g.id}`);
  }
  for (const t of r.discoveries.constraints) {
    const id = derivedId("c", s.id, t);
    if (s.constraints.some((c) => c.id === id) || s.constraints.length >= MAX_CONSTRAINTS) continue;
    s.constraints.push({ id, text: clip(normText(t), MAX_ADDED_TEXT), origin: "discovered", status: "active" });
    changes.push(`constraint_discovered ${id}`);
    structural = true;
  }
  for (const e of r.constraintEvents) {
    const c = s.constraints.find((x) => x.id === e.id)!;
    if (!e.evidenceRefs.some((ref) => verifiedRefs.has(ref))) {
      changes.push(`constraint_retire_refused ${c.id} (no verified evidence)`);
      continue;
    }
    c.status = "retired";
    changes.push(`constraint_retired ${c.id}`);
    structural = true;
  }
  for (const e of r.criterionRevisions) {
    const old = s.criteria.find((c) => c.id === e.from)!;
    const id = derivedId("cr", s.id, e.to);
    if (id === old.id || s.criteria.some((c) => c.id === id)) continue;
    old.status = "revised";
    old.revisedTo = id;
    // The declared check stays: a revision rewords a criterion, it cannot drop its check.
    s.criteria.push({
      id,
      text: clip(normText(e.to), MAX_ADDED_TEXT),
      argv: old.argv,
      status: "open",
      verifiedRound: null,
      revisedFrom: old.id,
      revisedTo: null,
    });
    changes.push(`criterion_revised ${old.id} -> ${id}`);
    structural = true;
  }
  for (const f of [...r.discoveries.facts, ...r.discoveries.wrongAssumptions.map((w) => `wrong assumption: ${w}`)]) {
    const t = clip(normText(f), 200);
    if (!s.facts.includes(t)) s.facts.push(t);
  }
  if (s.facts.length > 50) s.facts = s.facts.slice(-50);
  return structural;
}
