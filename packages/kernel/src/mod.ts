/**
 * @module
 * forge's evidence kernel: claims, trials and relations compiled into a
 * graph, a deterministic schedule, beliefs in integer micros, and six
 * bounded oracles. Pure functions: no I/O, no clock, no randomness; the
 * same input in any order gives the same output. Never prints, never exits.
 */
export {
  CLAIM_KINDS,
  type ClaimKind,
  type ClaimVersion,
  DEFAULT_CONFIG,
  KERNEL_SCHEMA,
  type KernelBatch,
  type KernelConfig,
  MICROS,
  OUTCOMES,
  type Outcome,
  RELATION_KINDS,
  type Relation,
  type RelationKind,
  type Trial,
} from "./model.js";
export { canonicalJson } from "./canonical_json.js";
export { type Invalid, isInvalid, validateClaim, validateRelation, validateTrial } from "./validate.js";
export { cmp } from "./cmp.js";
export {
  type BeliefMode,
  compile,
  type Compiled,
  type CompiledNode,
  extendCompiled,
  type SupportMember,
  type Term,
  trialIdsOf,
} from "./compile.js";
export { schedule, type Scheduled } from "./schedule.js";
export {
  betaMeanMicros,
  type Beliefs,
  evaluate,
  type EvaluateOptions,
  mulMicros,
  nodeBelief,
  type Removed,
  trialStats,
  type TrialStats,
} from "./beliefs.js";
export { assess, type Assessment, nodeReport, type NodeReport, type Syndrome, syndromesOf } from "./assess.js";
export { holds, type OracleBound, type OracleHead } from "./oracles/oracle.js";
export { type ExactAssessment, exactBounded } from "./oracles/exact_bounded.js";
export {
  type ConservativeAssessment,
  conservative,
  type LowerBound,
  lowerBound,
  wilsonLowerMicros,
} from "./oracles/conservative.js";
export { deltaParity, mergeBatches, type ParityAssessment } from "./oracles/delta_parity.js";
export { type ReplayAssessment, temporalReplay } from "./oracles/temporal_replay.js";
export { causalRefuter, directSupports, type RefutationAssessment } from "./oracles/causal_refuter.js";
export { minimalPerturbation, type PerturbationAssessment } from "./oracles/minimal_perturbation.js";
export {
  type BoundMethod,
  type CheckVerdict,
  checkVerdict,
  clopperPearsonZeroMicros,
  countsDecided,
  type FlakeRate,
  flakeRate,
  type SyndromeState,
  syndromeStates,
  trialsToBound,
  trialsToDecide,
  type VerdictBound,
  verdictBound,
  type VerdictReport,
  wilsonIntervalMicros,
} from "./verdict.js";
