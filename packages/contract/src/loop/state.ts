/**
 * A loop's state, as held in `loop.md`'s frontmatter (canonical form: flat
 * lists of flat maps; a check's argv is kept as a JSON array text), and its
 * `stateHash`: sha256 of the canonical JSON of everything that defines the
 * loop's position, without the status and bookkeeping (so pause → resume
 * gives the same hash).
 */
import { canonicalJson } from "@forge/kernel";
import { sha256 } from "./_util.js";

export type LoopStatus = "active" | "paused" | "waiting" | "waiting_for_user" | "complete" | "stopped" | "terminated";
export type Decision = "accepted" | "rejected" | "backtracked" | "stopped" | "terminated";
export type ClaimStatus = "verified" | "contradicted" | "unavailable";
export type Level = "L0" | "L1" | "L2";

/** Statuses after which no report is taken. */
export const TERMINAL: readonly LoopStatus[] = ["complete", "stopped", "terminated"];

export interface Constraint {
  id: string;
  text: string;
  origin: "user" | "discovered";
  status: "active" | "retired";
}
export interface Criterion {
  id: string;
  text: string;
  argv: string[] | null;
  status: "open" | "verified" | "revised";
  verifiedRound: number | null;
  revisedFrom: string | null;
  revisedTo: string | null;
}
export interface SubGoal {
  id: string;
  text: string;
  status: "open" | "completed" | "blocked" | "canceled";
}
/** One decided attempt, kept short (the full report is in events.jsonl). */
export interface RoundRow {
  round: number;
  attempt: number;
  decision: Decision;
  outcome: string;
  summary: string;
  headSha: string | null;
  codeTree: string | null;
  at: string;
}
/** What the runtime found for one claim or check of the last attempt. */
export interface Finding {
  ref: string;
  target: string | null;
  kind: "check" | "file" | "ci";
  claimed: string;
  observed: string;
  status: ClaimStatus;
  exitCode: number | null;
  durationMs: number | null;
  detail: string;
}
export interface Gate {
  actionHash: string;
  gate: "user" | "agent";
  /** `closed`: a user gate still open when its loop ended (gates close with their loop). */
  status: "open" | "approved" | "denied" | "allowed" | "closed";
  description: string;
  risks: string;
  at: string;
  by: string | null;
}
/** An experience record recalled into the open round's prompt (a snapshot: advisory data). */
export interface Advice {
  id: string;
  kind: string;
  text: string;
}

/** How often a rejection rule fired in the open round (its guided retry is the one after the second). */
export interface Escalation {
  rule: string;
  count: number;
}
/** An objective refinement the runtime took: a clarification of the goal, anchored to an id or file. */
export interface Refinement {
  round: number;
  text: string;
  anchor: string;
}

/**
 * The loop's state. The fields marked "(loopforge 3.0)" came after v1's
 * files: absent in an older loop.md, they read as their default and are
 * written only once they hold something, so an older loop's stateHash
 * does not change.
 */
export interface LoopState {
  id: string;
  createdAt: string;
  updatedAt: string;
  goal: string;
  domain: string | null;
  maxRounds: number;
  promptBudget: number;
  checkTimeoutMs: number;
  status: LoopStatus;
  pausedFrom: LoopStatus | null;
  round: number;
  roundId: string;
  attempt: number;
  awaiting: "report" | "retry" | "none";
  lastDecision: Decision | null;
  reason: string | null;
  stopReason: string | null;
  rejections: number;
  level: Level;
  promptHash: string;
  stateHash: string;
  completion: string | null;
  eventSequence: number;
  eventHash: string;
  constraints: Constraint[];
  criteria: Criterion[];
  subGoals: SubGoal[];
  facts: string[];
  rounds: RoundRow[];
  findings: Finding[];
  gates: Gate[];
  advice: Advice[];
  /** (loopforge 3.0) Accepted rounds still in effect (a backtrack drops those after its restore point). */
  acceptedRounds?: number;
  /** (loopforge 3.0) The open round's rejections, by rule. */
  escalation?: Escalation[];
  /** (loopforge 3.0) Objective refinements taken, oldest first. */
  refinements?: Refinement[];
  /** (loopforge 3.0) The phase the runtime accepted a boundary for, and the round it began. */
  phase?: string;
  phaseRound?: number;
  /** (loopforge 3.0) Drift the runtime detected and is waiting to see clarified (the round and why). */
  drift?: string;
  /** (loopforge 3.0) A report's context request, shown once in the next prompt, then dropped. */
  contextRequest?: string;
}

/** Fields that are not part of the loop's position (status and bookkeeping). */
const NOT_HASHED = new Set([
  "status",
  "pausedFrom",
  "updatedAt",
  "stateHash",
  "promptHash",
  "eventSequence",
  "eventHash",
]);

/** The state hash (see the module doc). */
export function stateHashOf(s: LoopState): string {
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) if (!NOT_HASHED.has(k)) o[k] = v;
  return sha256(canonicalJson(o));
}

/** The criteria that count for completion (a revised criterion is replaced by its revision). */
export function liveCriteria(s: LoopState): Criterion[] {
  return s.criteria.filter((c) => c.status !== "revised");
}

/** The active hard constraints. */
export function activeConstraints(s: LoopState): Constraint[] {
  return s.constraints.filter((c) => c.status === "active");
}

/** The user gates still open. */
export function openGates(s: LoopState): Gate[] {
  return s.gates.filter((g) => g.status === "open");
}

/** Frontmatter of the state, in write order. */
export function stateToData(s: LoopState): Record<string, unknown> {
  return {
    ...s,
    criteria: s.criteria.map((c) => ({ ...c, argv: c.argv ? JSON.stringify(c.argv) : null })),
  };
}

type Rec = Record<string, unknown>;

/**
 * The state from frontmatter data.
 * @throws Error naming the field (the caller turns it into storage_corruption)
 */
export function stateFromData(d: Rec): LoopState {
  const need = (k: string, t: string): void => {
    if (t === "list" ? d[k] !== null && !Array.isArray(d[k]) : t === "nullable" ? false : typeof d[k] !== t)
      throw new Error(`field '${k}' is missing or not a ${t}`);
  };
  for (const k of [
    "id",
    "createdAt",
    "updatedAt",
    "goal",
    "status",
    "roundId",
    "awaiting",
    "level",
    "promptHash",
    "stateHash",
    "eventHash",
  ])
    need(k, "string");
  for (const k of ["maxRounds", "promptBudget", "checkTimeoutMs", "round", "attempt", "rejections", "eventSequence"])
    need(k, "number");
  for (const k of ["constraints", "criteria", "subGoals", "facts", "rounds", "findings", "gates", "advice"])
    need(k, "list");
  const list = <T>(k: string): T[] => (d[k] as T[] | null) ?? [];
  const criteria = list<Rec>("criteria").map((c) => {
    let argv: string[] | null = null;
    if (typeof c.argv === "string") {
      const v: unknown = JSON.parse(c.argv);
      if (!Array.isArray(v) || !v.every((x) => typeof x === "string"))
        throw new Error("field 'criteria[].argv' is not an argv array");
      argv = v as string[];
    }
    return { ...c, argv } as unknown as Criterion;
  });
  return {
    ...(d as unknown as LoopState),
    criteria,
    constraints: list("constraints"),
    subGoals: list("subGoals"),
    facts: list("facts"),
    rounds: list("rounds"),
    findings: list("findings"),
    gates: list("gates"),
    advice: list("advice"),
  };
}

/** Set an optional (loopforge 3.0) field, or remove it when it holds its default (nothing is written for it). */
export function setOptional<K extends keyof LoopState>(s: LoopState, k: K, v: LoopState[K] | undefined): void {
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) delete s[k];
  else s[k] = v;
}
