/**
 * Runtime re-verification of a report's claims: never the agent's word.
 * A check is known only if the loop declared it (`--criterion … --check …`,
 * kept as argv in loop.md) or it is a CI step of the store (`ci:<step>`);
 * a command that appears only in the report is never run and its claim is
 * `unavailable`. A criterion claim is verified only by its declared check
 * (or a CI step) passing now; a file claim by sha256. Each finding is
 * `verified | contradicted | unavailable`.
 */
import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { isAbsolute, join, sep } from "node:path";
import type { Store } from "@forge/core";
import { clip, InvalidReportError, sha256 } from "./_util.js";
import { checkName } from "./argv.js";
import { ciStepAt } from "./ci_step.js";
import type { RoundReport } from "./report.js";
import { type CheckRun, runCheck } from "./run_check.js";
import { type ClaimStatus, type Finding, liveCriteria, type LoopState } from "./state.js";

/** The world a verification runs in. */
export interface VerifyContext {
  store: Store;
  env: Record<string, string | undefined>;
  /** The workspace's code tree now (for CI step claims). */
  tree: string | null;
}

/** What one criterion's check gave this attempt. */
export interface CriterionResult {
  status: ClaimStatus;
  run: CheckRun | null;
}

/**
 * Checks, memoised: each declared check runs at most once per attempt.
 */
export class Verifier {
  readonly runs = new Map<string, CheckRun>();
  readonly criteria = new Map<string, CriterionResult>();
  readonly #trees = new Map<string, string | null>();
  constructor(
    readonly state: LoopState,
    readonly ctx: VerifyContext
  ) {}

  /** The declared check a name refers to (its display text or its criterion's id), or null. */
  declared(name: string): { argv: string[]; criterion: string } | null {
    const n = name.replace(/^(?:command|check):/, "");
    for (const c of liveCriteria(this.state))
      if (c.argv && (checkName(c.argv) === n || c.id === n)) return { argv: c.argv, criterion: c.id };
    return null;
  }

  async run(argv: string[]): Promise<CheckRun> {
    const key = JSON.stringify(argv);
    let r = this.runs.get(key);
    if (!r) {
      r = await runCheck(argv, { cwd: this.ctx.store.root, env: this.ctx.env, timeoutMs: this.state.checkTimeoutMs });
      this.runs.set(key, r);
    }
    return r;
  }

  /** Run a criterion's declared check now and remember the result. */
  async criterion(id: string): Promise<CriterionResult> {
    const known = this.criteria.get(id);
    if (known) return known;
    const c = liveCriteria(this.state).find((x) => x.id === id);
    let res: CriterionResult = { status: "unavailable", run: null };
    if (c?.argv) {
      const run = await this.run(c.argv);
      res = { status: run.spawnError ? "unavailable" : run.exitCode === 0 ? "verified" : "contradicted", run };
    }
    this.criteria.set(id, res);
    return res;
  }

  async ci(step: string): Promise<{
    observed: string;
    status: ClaimStatus;
    detail: string;
    exitCode: number | null;
    durationMs: number | null;
    unreadable: string[];
  }> {
    const r = await ciStepAt(this.ctx.store, step, this.ctx.tree, this.ctx.env, this.#trees);
    const status: ClaimStatus =
      r.observed === "passed" ? "verified" : r.observed === "failed" ? "contradicted" : "unavailable";
    return {
      observed: r.observed,
      status,
      detail: r.unreadable.length
        ? // A damaged run record is named, never read around (ci_step.ts).
          clip(
            r.unreadable[0]! + (r.unreadable.length > 1 ? ` (and ${r.unreadable.length - 1} more damaged runs)` : ""),
            200
          )
        : r.runId
          ? `forge-ci run ${r.runId.slice(0, 8)}`
          : "no forge-ci run at this code tree",
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      unreadable: r.unreadable,
    };
  }
}

/**
 * The checks a report needs that depend on the loop: claim targets exist,
 * file paths stay inside the workspace, ids in events exist.
 * @throws InvalidReportError naming the field
 */
export function checkAgainstLoop(state: LoopState, r: RoundReport, root?: string): void {
  const crit = new Set(liveCriteria(state).map((c) => c.id));
  const sg = new Set(state.subGoals.map((s) => s.id));
  const cons = new Map(state.constraints.map((c) => [c.id, c]));
  if (r.roundId !== null && r.roundId !== state.roundId)
    throw new InvalidReportError("roundId", `the open round is ${state.roundId}`);
  r.evidence.claims.forEach((c, i) => {
    if (!crit.has(c.targetId) && !sg.has(c.targetId))
      throw new InvalidReportError(`evidence.claims[${i}].targetId`, "not an open criterion or sub-goal of this loop");
    c.evidenceRefs.forEach((ref, k) => {
      if (ref.startsWith("file:")) safePath(ref.slice(5), `evidence.claims[${i}].evidenceRefs[${k}]`);
    });
  });
  r.evidence.files.forEach((f, i) => safePath(f.path, `evidence.files[${i}]`));
  r.subGoalEvents.forEach((e, i) => {
    if (e.event !== "added" && !sg.has(e.id!))
      throw new InvalidReportError(`subGoalEvents[${i}].id`, "not a sub-goal of this loop");
  });
  r.constraintEvents.forEach((e, i) => {
    const c = cons.get(e.id);
    if (!c || c.status !== "active")
      throw new InvalidReportError(`constraintEvents[${i}].id`, "not an active constraint of this loop");
    if (c.origin === "user")
      throw new InvalidReportError(
        `constraintEvents[${i}].id`,
        "a hard constraint given at start cannot be retired by a report"
      );
  });
  r.criterionRevisions.forEach((e, i) => {
    if (!crit.has(e.from))
      throw new InvalidReportError(`criterionRevisions[${i}].from`, "not a criterion of this loop");
  });
  const live = liveIds(state);
  if (r.objectiveRefinement !== null) {
    for (const id of idsIn(r.objectiveRefinement))
      if (!live.has(id))
        throw new InvalidReportError(
          "objectiveRefinement",
          `names ${id}: not a live criterion, constraint or sub-goal`
        );
  }
  if (r.driftClarification !== null) {
    if (state.drift === undefined)
      throw new InvalidReportError("driftClarification", "no drift was detected in this loop: nothing to clarify");
    const a = r.driftClarification.anchor;
    if (/^(c|cr|sg)-[0-9a-f]{8}$/.test(a)) {
      if (!live.has(a))
        throw new InvalidReportError(
          "driftClarification.anchor",
          `${a} is not a live criterion, constraint or sub-goal`
        );
    } else {
      safePath(a, "driftClarification.anchor");
      if (root === undefined || !existsSync(join(root, a)))
        throw new InvalidReportError(
          "driftClarification.anchor",
          "neither a live criterion, constraint or sub-goal id nor a file in the workspace"
        );
    }
  }
}

/** The ids a report may anchor to: live criteria, active constraints, open or blocked sub-goals. */
export function liveIds(state: LoopState): Set<string> {
  return new Set([
    ...liveCriteria(state).map((c) => c.id),
    ...state.constraints.filter((c) => c.status === "active").map((c) => c.id),
    ...state.subGoals.filter((g) => g.status === "open" || g.status === "blocked").map((g) => g.id),
  ]);
}

/** The loop ids (`c-`, `cr-`, `sg-` + 8 hex) a text names. */
export function idsIn(text: string): string[] {
  return [...text.matchAll(/\b(?:c|cr|sg)-[0-9a-f]{8}\b/g)].map((m) => m[0]);
}

function safePath(p: string, field: string): void {
  if (isAbsolute(p) || p.split(/[\\/]/).includes("..") || p.includes("\0"))
    throw new InvalidReportError(field, "a path inside the workspace (relative, no '..')");
}

/**
 * Verify every check and claim of the report.
 * @returns the findings, in report order
 */
export async function verifyReport(v: Verifier, r: RoundReport): Promise<Finding[]> {
  const out: Finding[] = [];
  const fileSha = new Map(r.evidence.files.map((f) => [f.path, f.sha256]));
  for (const c of r.evidence.checks) {
    const base = { ref: c.name, target: null, claimed: c.status };
    if (c.name.startsWith("ci:")) {
      const ci = await v.ci(c.name.slice(3));
      const status =
        ci.status === "unavailable" || !["passed", "failed"].includes(c.status)
          ? "unavailable"
          : ci.observed === c.status
            ? "verified"
            : "contradicted";
      out.push({
        ...base,
        kind: "ci",
        observed: ci.observed,
        status,
        exitCode: ci.exitCode,
        durationMs: ci.durationMs,
        detail: ci.detail,
      });
      continue;
    }
    const d = v.declared(c.name);
    if (!d) {
      out.push({
        ...base,
        kind: "check",
        observed: "unavailable",
        status: "unavailable",
        exitCode: null,
        durationMs: null,
        detail: "not a declared check: never run",
      });
      continue;
    }
    const cr = await v.criterion(d.criterion);
    const run = cr.run!;
    const observed = run.spawnError ? "unavailable" : run.exitCode === 0 ? "passed" : "failed";
    const status: ClaimStatus =
      observed === "unavailable" || !["passed", "failed"].includes(c.status)
        ? "unavailable"
        : observed === c.status
          ? "verified"
          : "contradicted";
    out.push({
      ...base,
      target: d.criterion,
      kind: "check",
      observed,
      status,
      exitCode: run.exitCode,
      durationMs: run.durationMs,
      detail: runDetail(run),
    });
  }
  for (const c of r.evidence.claims) {
    const statuses: ClaimStatus[] = [];
    const details: string[] = [];
    let kind: Finding["kind"] = "check";
    let exitCode: number | null = null;
    let durationMs: number | null = null;
    const isCriterion = liveCriteria(v.state).some((x) => x.id === c.targetId);
    if (isCriterion) {
      const cr = await v.criterion(c.targetId);
      statuses.push(cr.status);
      if (cr.run) {
        exitCode = cr.run.exitCode;
        durationMs = cr.run.durationMs;
        details.push(runDetail(cr.run));
      } else details.push("the criterion has no declared check");
    }
    for (const ref of c.evidenceRefs) {
      if (ref.startsWith("ci:")) {
        const ci = await v.ci(ref.slice(3));
        statuses.push(ci.status);
        details.push(`${ref}: ${ci.unreadable.length ? ci.detail : ci.observed}`);
        kind = "ci";
      } else if (ref.startsWith("file:")) {
        const f = fileStatus(v.ctx.store.root, ref.slice(5), fileSha.get(ref.slice(5)) ?? null);
        // A file proves a file, not a criterion: it can contradict a criterion claim, never verify one.
        statuses.push(isCriterion && f.status === "verified" ? "unavailable" : f.status);
        details.push(`${ref}: ${f.detail}`);
        if (!isCriterion) kind = "file";
      } else if (!v.declared(ref)) details.push(`${clip(ref, 60)}: not a declared check: never run`);
    }
    const status: ClaimStatus = statuses.includes("contradicted")
      ? "contradicted"
      : statuses.includes("verified")
        ? "verified"
        : "unavailable";
    // A criterion claim needs its own check (or a CI step) to pass: an unrelated verified ref is not enough.
    const final: ClaimStatus =
      isCriterion && status === "verified" && !(statuses[0] === "verified" || kind === "ci") ? "unavailable" : status;
    out.push({
      ref: c.id,
      target: c.targetId,
      kind,
      claimed: "met",
      observed: final,
      status: final,
      exitCode,
      durationMs,
      detail: clip(details.join("; "), 200),
    });
  }
  return out;
}

function runDetail(run: CheckRun): string {
  if (run.spawnError) return `could not start (${run.spawnError})`;
  if (run.timedOut) return `timed out after ${run.durationMs} ms`;
  return clip(`exit ${run.exitCode}${run.tail ? `: ${run.tail}` : ""}`, 200);
}

/** A file claim: the file at `path` inside `root` has the claimed sha256. */
export function fileStatus(
  root: string,
  path: string,
  claimed: string | null
): { status: ClaimStatus; detail: string } {
  const abs = join(root, path);
  try {
    const real = realpathSync(abs);
    if (real !== realpathSync(root) && !real.startsWith(realpathSync(root) + sep))
      return { status: "contradicted", detail: "outside the workspace" };
    if (!lstatSync(real).isFile()) return { status: "contradicted", detail: "not a file" };
    if (claimed === null) return { status: "unavailable", detail: "no sha256 claimed" };
    return sha256(readFileSync(real)) === claimed
      ? { status: "verified", detail: "sha256 matches" }
      : { status: "contradicted", detail: "sha256 differs" };
  } catch {
    return { status: "contradicted", detail: "missing" };
  }
}
