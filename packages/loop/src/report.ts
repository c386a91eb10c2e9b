/**
 * The round report (`format: "loopforge.round-report"`), validated before
 * anything else happens: an invalid report is `invalid_round_report`
 * naming the field, and nothing changes. The report is untrusted input: it
 * can name checks, but only the loop's declared checks are ever run.
 */
import { InvalidReportError } from "./_util.js";

export const REPORT_FORMAT = "loopforge.round-report";
export const OUTCOMES = ["success", "partial", "failed", "blocked"] as const;
export const CONTINUATIONS = ["continue", "stop"] as const;
export const DISPOSITIONS = ["continue", "wait", "wait_for_user", "goal_complete"] as const;
export const SUBGOAL_EVENTS = ["added", "completed", "blocked", "canceled"] as const;
export const CHECK_STATUSES = ["passed", "failed", "skipped", "error"] as const;

export type Disposition = (typeof DISPOSITIONS)[number];

export interface ReportCheck {
  name: string;
  status: (typeof CHECK_STATUSES)[number];
  counts: Record<string, number> | null;
}
export interface ReportClaim {
  id: string;
  targetId: string;
  evidenceRefs: string[];
}
export interface ReportFile {
  path: string;
  sha256: string | null;
}
export interface RoundReport {
  roundId: string | null;
  outcome: (typeof OUTCOMES)[number];
  blocker: { reason: string; kind: string | null } | null;
  continuation: (typeof CONTINUATIONS)[number];
  disposition: Disposition | null;
  summary: string;
  violations: string[];
  evidence: { files: ReportFile[]; checks: ReportCheck[]; claims: ReportClaim[] };
  discoveries: { wrongAssumptions: string[]; emergedWork: string[]; facts: string[]; constraints: string[] };
  subGoalEvents: Array<{ id: string | null; text: string | null; event: (typeof SUBGOAL_EVENTS)[number] }>;
  constraintEvents: Array<{ id: string; event: "retire"; reason: string; evidenceRefs: string[] }>;
  criterionRevisions: Array<{ from: string; to: string; reason: string }>;
  objectiveRefinement: string | null;
  phaseBoundaryProposal: { label: string; reason: string | null } | null;
  contextRequest: { kind: (typeof CONTEXT_KINDS)[number]; text: string } | null;
  agentIntent: string | null;
  /** The answer to detected drift: why this work serves the goal, anchored to an id or an observed file. */
  driftClarification: { explanation: string; anchor: string } | null;
}

export const CONTEXT_KINDS = ["emphasis", "expansion", "confusion"] as const;

/** The most a report may hold. */
export const MAX_REPORT_BYTES = 256 * 1024;
const MAX_TEXT = 4096;
const MAX_ITEMS = 200;

const TOP = new Set([
  "format",
  "roundId",
  "outcome",
  "blocker",
  "continuation",
  "disposition",
  "summary",
  "violations",
  "evidence",
  "discoveries",
  "subGoalEvents",
  "constraintEvents",
  "criterionRevisions",
  "objectiveRefinement",
  "phaseBoundaryProposal",
  "contextRequest",
  "agentIntent",
  "driftClarification",
]);
/** Derived views an agent must not submit as facts (loopforge's list). */
const DERIVED = new Set([
  "currentFocus",
  "todoProjection",
  "handoff",
  "progress",
  "failedPatterns",
  "nextAction",
  "verifiedFacts",
]);

type Rec = Record<string, unknown>;

function obj(v: unknown, f: string): Rec {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new InvalidReportError(f, "expected an object");
  return v as Rec;
}
function text(v: unknown, f: string, opt = false): string | null {
  if (opt && (v === undefined || v === null)) return null;
  if (typeof v !== "string" || v.trim() === "") throw new InvalidReportError(f, "expected a non-empty string");
  if (v.length > MAX_TEXT) throw new InvalidReportError(f, `longer than ${MAX_TEXT} characters`);
  return v;
}
function oneOf<T extends string>(v: unknown, f: string, all: readonly T[]): T {
  if (typeof v !== "string" || !all.includes(v as T))
    throw new InvalidReportError(f, `expected one of ${all.join("|")}`);
  return v as T;
}
function arr(v: unknown, f: string, opt = true): unknown[] {
  if (v === undefined && opt) return [];
  if (!Array.isArray(v)) throw new InvalidReportError(f, "expected a list");
  if (v.length > MAX_ITEMS) throw new InvalidReportError(f, `more than ${MAX_ITEMS} items`);
  return v;
}
function texts(v: unknown, f: string, opt = true): string[] {
  return arr(v, f, opt).map((x, i) => text(x, `${f}[${i}]`)!);
}
function known(o: Rec, f: string, keys: string[]): void {
  for (const k of Object.keys(o))
    if (!keys.includes(k)) throw new InvalidReportError(f ? `${f}.${k}` : k, "unknown field");
}

/**
 * Parse a report's text.
 * @throws InvalidReportError naming the field
 */
export function parseReport(raw: string): RoundReport {
  if (Buffer.byteLength(raw) > MAX_REPORT_BYTES)
    throw new InvalidReportError("(report)", `larger than ${MAX_REPORT_BYTES / 1024} KiB`);
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new InvalidReportError("(report)", "not JSON");
  }
  const r = obj(v, "(report)");
  for (const k of Object.keys(r)) {
    if (DERIVED.has(k)) throw new InvalidReportError(k, "a derived view, not a fact: leave it out");
    if (!TOP.has(k)) throw new InvalidReportError(k, "unknown field");
  }
  if (r.format !== REPORT_FORMAT) throw new InvalidReportError("format", `expected "${REPORT_FORMAT}"`);
  const outcome = oneOf(r.outcome, "outcome", OUTCOMES);
  let blocker: RoundReport["blocker"] = null;
  if (outcome === "blocked" || r.blocker !== undefined) {
    if (r.blocker === undefined) throw new InvalidReportError("blocker", "required when outcome is blocked");
    const b = obj(r.blocker, "blocker");
    known(b, "blocker", ["reason", "kind", "evidence", "resolution"]);
    blocker = { reason: text(b.reason, "blocker.reason")!, kind: text(b.kind, "blocker.kind", true) };
  }
  const ev = r.evidence === undefined ? {} : obj(r.evidence, "evidence");
  known(ev, "evidence", ["files", "checks", "claims", "provenance"]);
  const files = arr(ev.files, "evidence.files").map((x, i): ReportFile => {
    const f = `evidence.files[${i}]`;
    if (typeof x === "string") return { path: text(x, f)!, sha256: null };
    const o = obj(x, f);
    known(o, f, ["path", "sha256"]);
    const sha = o.sha256 === undefined || o.sha256 === null ? null : String(o.sha256);
    if (sha !== null && !/^[0-9a-f]{64}$/.test(sha))
      throw new InvalidReportError(`${f}.sha256`, "expected 64 hex digits");
    return { path: text(o.path, `${f}.path`)!, sha256: sha };
  });
  const checks = arr(ev.checks, "evidence.checks").map((x, i): ReportCheck => {
    const f = `evidence.checks[${i}]`;
    const o = obj(x, f);
    known(o, f, ["name", "status", "counts"]);
    let counts: Record<string, number> | null = null;
    if (o.counts !== undefined && o.counts !== null) {
      counts = {};
      for (const [k, n] of Object.entries(obj(o.counts, `${f}.counts`))) {
        if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0)
          throw new InvalidReportError(`${f}.counts.${k}`, "expected an integer ≥ 0");
        counts[k] = n;
      }
    }
    return { name: text(o.name, `${f}.name`)!, status: oneOf(o.status, `${f}.status`, CHECK_STATUSES), counts };
  });
  const claims = arr(ev.claims, "evidence.claims").map((x, i): ReportClaim => {
    const f = `evidence.claims[${i}]`;
    const o = obj(x, f);
    known(o, f, ["id", "targetId", "evidenceRefs", "statement"]);
    const refs = texts(o.evidenceRefs, `${f}.evidenceRefs`, false);
    if (refs.length === 0)
      throw new InvalidReportError(`${f}.evidenceRefs`, "a claim names its evidence (command:, ci:, file:)");
    return { id: text(o.id, `${f}.id`)!, targetId: text(o.targetId, `${f}.targetId`)!, evidenceRefs: refs };
  });
  const d = r.discoveries === undefined ? {} : obj(r.discoveries, "discoveries");
  known(d, "discoveries", ["wrongAssumptions", "emergedWork", "facts", "constraints"]);
  const subGoalEvents = arr(r.subGoalEvents, "subGoalEvents").map((x, i) => {
    const f = `subGoalEvents[${i}]`;
    const o = obj(x, f);
    known(o, f, ["id", "text", "event", "reason"]);
    const event = oneOf(o.event, `${f}.event`, SUBGOAL_EVENTS);
    const id = text(o.id, `${f}.id`, true);
    const t = text(o.text, `${f}.text`, true);
    if (event === "added" ? t === null : id === null)
      throw new InvalidReportError(event === "added" ? `${f}.text` : `${f}.id`, `required for '${event}'`);
    return { id, text: t, event };
  });
  const constraintEvents = arr(r.constraintEvents, "constraintEvents").map((x, i) => {
    const f = `constraintEvents[${i}]`;
    const o = obj(x, f);
    known(o, f, ["id", "event", "reason", "evidenceRefs"]);
    const refs = texts(o.evidenceRefs, `${f}.evidenceRefs`, false);
    if (refs.length === 0)
      throw new InvalidReportError(`${f}.evidenceRefs`, "a constraint is retired only with evidence");
    return {
      id: text(o.id, `${f}.id`)!,
      event: oneOf(o.event, `${f}.event`, ["retire"] as const),
      reason: text(o.reason, `${f}.reason`)!,
      evidenceRefs: refs,
    };
  });
  const criterionRevisions = arr(r.criterionRevisions, "criterionRevisions").map((x, i) => {
    const f = `criterionRevisions[${i}]`;
    const o = obj(x, f);
    known(o, f, ["from", "to", "reason"]);
    return { from: text(o.from, `${f}.from`)!, to: text(o.to, `${f}.to`)!, reason: text(o.reason, `${f}.reason`)! };
  });
  let phase: RoundReport["phaseBoundaryProposal"] = null;
  if (typeof r.phaseBoundaryProposal === "string")
    phase = { label: text(r.phaseBoundaryProposal, "phaseBoundaryProposal")!, reason: null };
  else if (r.phaseBoundaryProposal !== undefined && r.phaseBoundaryProposal !== null) {
    const o = obj(r.phaseBoundaryProposal, "phaseBoundaryProposal");
    known(o, "phaseBoundaryProposal", ["label", "reason"]);
    phase = {
      label: text(o.label, "phaseBoundaryProposal.label")!,
      reason: text(o.reason, "phaseBoundaryProposal.reason", true),
    };
  }
  if (phase && phase.label.length > 80)
    throw new InvalidReportError("phaseBoundaryProposal.label", "longer than 80 characters");
  let contextRequest: RoundReport["contextRequest"] = null;
  if (typeof r.contextRequest === "string")
    contextRequest = { kind: "emphasis", text: text(r.contextRequest, "contextRequest")! };
  else if (r.contextRequest !== undefined && r.contextRequest !== null) {
    const o = obj(r.contextRequest, "contextRequest");
    known(o, "contextRequest", ["kind", "text"]);
    contextRequest = {
      kind: o.kind === undefined ? "emphasis" : oneOf(o.kind, "contextRequest.kind", CONTEXT_KINDS),
      text: text(o.text, "contextRequest.text")!,
    };
  }
  let driftClarification: RoundReport["driftClarification"] = null;
  if (r.driftClarification !== undefined && r.driftClarification !== null) {
    const o = obj(r.driftClarification, "driftClarification");
    known(o, "driftClarification", ["explanation", "anchor"]);
    driftClarification = {
      explanation: text(o.explanation, "driftClarification.explanation")!,
      anchor: text(o.anchor, "driftClarification.anchor")!,
    };
    if (driftClarification.explanation.trim().length < 20)
      throw new InvalidReportError("driftClarification.explanation", "a concrete explanation (20 characters or more)");
  }
  return {
    roundId: text(r.roundId, "roundId", true),
    outcome,
    blocker,
    continuation: oneOf(r.continuation, "continuation", CONTINUATIONS),
    disposition:
      r.disposition === undefined || r.disposition === null ? null : oneOf(r.disposition, "disposition", DISPOSITIONS),
    summary: text(r.summary, "summary")!,
    violations: texts(r.violations, "violations", false),
    evidence: { files, checks, claims },
    discoveries: {
      wrongAssumptions: texts(d.wrongAssumptions, "discoveries.wrongAssumptions"),
      emergedWork: texts(d.emergedWork, "discoveries.emergedWork"),
      facts: texts(d.facts, "discoveries.facts"),
      constraints: texts(d.constraints, "discoveries.constraints"),
    },
    subGoalEvents,
    constraintEvents,
    criterionRevisions,
    objectiveRefinement: text(r.objectiveRefinement, "objectiveRefinement", true),
    phaseBoundaryProposal: phase,
    contextRequest,
    agentIntent: text(r.agentIntent, "agentIntent", true),
    driftClarification,
  };
}
