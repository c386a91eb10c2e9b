/**
 * The lines forge-pilot reads from the stages, named as the pilot reads
 * them: the loop's lines are @forge/contract's types (what forge-observe,
 * forge-plan and forge-act write); CI run records (forge-ci) and import-log
 * answers (forge-export) are not loop lines, so only what the pilot reads of
 * them is declared here. The pilot still reads another process's output
 * defensively (`?? …`): a type says what a stage writes, not what arrived.
 */
import type {
  ActResult,
  ActResultOf,
  DiffEntry,
  FixesVerdict,
  HaltReason,
  IssueLine,
  NodeLine,
  ObservationHeader,
  ObservationLine,
  PlanLine,
  PrLine,
  TargetLine,
  VerdictBoundLine,
} from "@forge/contract";

export type { ActResult, DiffEntry, IssueLine, NodeLine, ObservationLine, PrLine, VerdictBoundLine };
/** A paired experiment's act result. */
export type PairedResult = ActResultOf<"PairedPatch">;
/** forge-observe's header line. */
export type ObservationHead = ObservationHeader;
/** A ranked target (forge-plan). */
export type Target = TargetLine;
/** A plan line (forge-plan), handed on to forge-act whole. */
export type Plan = PlanLine;
/** A `fixes` verdict of a paired experiment. */
export type FixClaim = FixesVerdict;

/** forge-plan's halt line, or the pilot's own when forge-plan printed neither. */
export interface Halt {
  kind: "halt";
  reason: HaltReason | string;
  detail?: string;
}

/** What forge-plan decided: one plan, or a halt. */
export type Decision = Plan | Halt;

/** A CI run record as `forge-ci list --json` prints it (what the pilot reads of it). */
export interface CiRun {
  id: string;
  displayTitle?: string;
  createdAt?: string;
  status?: string;
}

/** One import-log answer of forge-export. */
export interface ExportAnswer {
  status?: string;
}
