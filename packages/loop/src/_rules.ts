/**
 * loopforge 3.0's round rules, as the engine applies them (spec/loop-rounds.md §3):
 * escalation per rule after its guided retry, accepted rounds in effect
 * (what `--max-rounds` counts), drift detected from `agentIntent` and
 * clarified by `driftClarification` anchored to an id or a file,
 * objective refinements anchored the same way, phase boundaries the
 * runtime decides, context requests consumed once, and gates closed with
 * their loop.
 */
import { clip, normText } from "./_util.js";
import type { RoundReport } from "./report.js";
import type { LoopEvent } from "./events.js";
import { type Escalation, type LoopState, setOptional } from "./state.js";
import { idsIn, liveIds } from "./verify.js";

/** The rejection rules; each escalates on its own. */
export type Rule = "constraint_violation" | "contradicted_evidence" | "intent_drift";

/** The stop reason of a rule that terminated the loop. */
export const TERMINAL_REASON: Record<Rule, string> = {
  constraint_violation: "repeated_violations",
  contradicted_evidence: "repeated_contradictions",
  intent_drift: "repeated_drift",
};

/** Firings of one rule in one round: the first is a retry, the second a guided retry, the third terminates. */
export const GUIDED_AT = 2;
export const TERMINATE_AT = 3;

/** Count one more firing of `rule` in the open round; returns its count and the new list. */
export function escalate(esc: readonly Escalation[] | undefined, rule: Rule): { count: number; list: Escalation[] } {
  const list = (esc ?? []).map((e) => ({ ...e }));
  let e = list.find((x) => x.rule === rule);
  if (!e) list.push((e = { rule, count: 0 }));
  e.count++;
  return { count: e.count, list };
}

/**
 * The accepted rounds still in effect after the timeline `events` (a
 * backtrack to N drops the accepted rounds after N), and after a backtrack
 * to `to` when given.
 */
export function acceptedInEffect(events: readonly LoopEvent[], to?: number): number {
  const stack: number[] = [];
  const cut = (n: number): void => {
    while (stack.length && stack[stack.length - 1]! > n) stack.pop();
  };
  for (const e of events) {
    if (e.type === "round_decided" && e.decision === "accepted") stack.push(e.round as number);
    else if (e.type === "backtracked") cut(e.restoreRound as number);
  }
  if (to !== undefined) cut(to);
  return stack.length;
}

/** Words of 5 letters or more, lowercased (what an intent shares with the goal). */
function words(t: string): Set<string> {
  return new Set((t.toLowerCase().match(/[a-z][a-z0-9_-]{4,}/g) ?? []).filter((w) => !STOP.has(w)));
}
const STOP = new Set(["about", "after", "again", "their", "there", "these", "those", "which", "while", "would"]);

/**
 * Whether a report's stated intent stays on the loop's objective: it names
 * a live id, or shares a word with the goal, a refinement, an open
 * criterion or an open sub-goal.
 */
export function intentAnchored(s: LoopState, intent: string): boolean {
  const live = liveIds(s);
  if (idsIn(intent).some((id) => live.has(id))) return true;
  const focus = words(
    [
      s.goal,
      ...(s.refinements ?? []).map((r) => r.text),
      ...s.criteria.filter((c) => c.status === "open").map((c) => c.text),
      ...s.subGoals.filter((g) => g.status === "open" || g.status === "blocked").map((g) => g.text),
    ].join(" ")
  );
  return [...words(intent)].some((w) => focus.has(w));
}

/** Whether a report's work is anchored to the loop: claims, sub-goal events, or an anchored intent. */
export function reportAnchored(s: LoopState, r: RoundReport): boolean {
  return (
    r.evidence.claims.length > 0 ||
    r.subGoalEvents.length > 0 ||
    (r.agentIntent !== null && intentAnchored(s, r.agentIntent))
  );
}

/** Whether the open drift is left unanswered by this report (the `intent_drift` rule). */
export function driftUnanswered(s: LoopState, r: RoundReport): boolean {
  return s.drift !== undefined && r.driftClarification === null && !reportAnchored(s, r);
}

/** Objective refinements a loop keeps. */
const MAX_REFINEMENTS = 20;

/**
 * The 3.0 parts of an accepted report, applied to `s` (after the facts of
 * applyReport: `changes` already names what was verified or completed).
 * @returns whether the next prompt is a full rehydration (L2)
 */
export function applyV3(s: LoopState, r: RoundReport, round: number, changes: string[]): boolean {
  let l2 = false;
  // Drift: answered by a clarification (taken as a fact), or by work anchored again; then a new intent is compared.
  if (s.drift !== undefined) {
    if (r.driftClarification) {
      const c = r.driftClarification;
      s.facts = [...s.facts, clip(`drift clarified (round ${round}, ${c.anchor}): ${normText(c.explanation)}`, 200)];
      s.facts = s.facts.slice(-50);
      changes.push(`drift_clarified ${c.anchor}`);
    } else changes.push("drift_resolved (the work is anchored again)");
    setOptional(s, "drift", undefined);
  }
  if (r.agentIntent !== null && !intentAnchored(s, r.agentIntent)) {
    s.drift = clip(
      `round ${round}: the stated intent '${normText(r.agentIntent)}' names no live criterion, constraint or ` +
        "sub-goal and shares no word with the goal or the open work",
      400
    );
    changes.push("drift_detected");
    l2 = true;
  }
  // An objective refinement is taken only when anchored: an id it names or an evidence file of this report.
  if (r.objectiveRefinement !== null) {
    const text = clip(normText(r.objectiveRefinement), 500);
    const anchor =
      idsIn(text)[0] ?? r.evidence.files.map((f) => f.path).find((p) => r.objectiveRefinement!.includes(p));
    const have = s.refinements ?? [];
    if (anchor === undefined)
      changes.push("objective_refinement_refused (no anchor: name the criterion, constraint or evidence file)");
    else if (have.some((x) => x.text === text)) changes.push("objective_refinement_refused (already taken)");
    else if (have.length >= MAX_REFINEMENTS)
      changes.push(`objective_refinement_refused (the loop holds ${MAX_REFINEMENTS})`);
    else {
      s.refinements = [...have, { round, text, anchor }];
      changes.push(`objective_refined ${anchor}`);
      l2 = true;
    }
  }
  // A phase boundary is real only when the round closed something the runtime observed.
  if (r.phaseBoundaryProposal !== null) {
    const label = clip(normText(r.phaseBoundaryProposal.label), 80);
    if (changes.some((c) => c.startsWith("criterion_verified ") || c.startsWith("subgoal_completed "))) {
      s.phase = label;
      s.phaseRound = round + 1;
      changes.push(`phase_boundary ${label}`);
      l2 = true;
    } else changes.push("phase_boundary_refused (nothing was verified or completed this round)");
  }
  // A context request is shown in the next prompt only; expansion and confusion ask for the full state.
  if (r.contextRequest !== null) {
    s.contextRequest = clip(`${r.contextRequest.kind}: ${normText(r.contextRequest.text)}`, 500);
    changes.push(`context_request ${r.contextRequest.kind}`);
    if (r.contextRequest.kind !== "emphasis") l2 = true;
  }
  return l2;
}

/** Close the user gates still open: a loop that ended takes no more decisions. */
export function closeGates(s: LoopState, at: string): string[] {
  const closed: string[] = [];
  s.gates = s.gates.map((g) => {
    if (g.status !== "open") return g;
    closed.push(g.actionHash);
    return { ...g, status: "closed" as const, at };
  });
  return closed;
}
