/**
 * @module
 * The observation of a scope, built from the store's public surfaces
 * (spec/loop.md §1): `gather` reads them once, `observe` turns them into
 * lines (one file per line kind under lines/), `observeStore` does both for
 * a folder. forge-observe prints it; forge-plan observes by itself with it.
 */
export { canonicalLine } from "./canonical_line.js";
export { type EvidenceDetail, evidenceDetail, evidenceDetailOf } from "./detail.js";
export { gather, type GatherOptions } from "./gather.js";
export { humanSummary } from "./human.js";
export {
  DEFAULT_OBSERVE_CONFIG,
  type IssueInput,
  type MergeInput,
  type ObserveConfig,
  type ObserveInputs,
  type PrInput,
  type RunInput,
} from "./inputs.js";
export { observationLines, observationText, observationTextLines, observe } from "./observe.js";
export { observeStore, type ObserveStoreOptions } from "./observe_store.js";
