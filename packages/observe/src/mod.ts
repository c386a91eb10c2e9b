/**
 * @module
 * forge-observe: an honest observation of a scope — the fold of its
 * evidence imports re-compiled by the kernel, CI runs, PRs, issues and
 * merge records — as JSON lines with a `kind` (spec/loop.md §1).
 */
export { default as observeCommand, FLAGS, fractionFlag, type ObserveCliOptions, observeStore, parseObserveOptions, VERSION } from "./main.js";
export { canonicalLine } from "./canonical_line.js";
export { gather, type GatherOptions } from "./gather.js";
export { humanSummary } from "./human.js";
export {
  DEFAULT_OBSERVE_CONFIG, type IssueInput, type MergeInput, type ObserveConfig, type ObserveInputs, type PrInput, type RunInput,
} from "./inputs.js";
export { OBSERVATION_SCHEMA, type Observation, type ObservationLine, observationLines, observationText, observe } from "./observe.js";
