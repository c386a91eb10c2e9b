/**
 * forge-loop's files as a library (`@forge/contract/loop`): the state in
 * `loop.md`, the hash-chained `events.jsonl`, and `loadLoop`, which reads
 * and checks both as forge-loop does, so `forge fsck` checks a loop the
 * same way without importing the forge-loop executable.
 */
export { sha256, StorageCorruptionError } from "./_util.js";
export { chainEvents, eventHash, type LoopEvent, type ParsedEvents, parseEvents } from "./events.js";
export { type LoadedLoop, loadLoop, loopIds, loopPaths, loopsDir, MAX_EVENTS_BYTES } from "./files.js";
export {
  type LoopStatus,
  type Decision,
  type ClaimStatus,
  type Level,
  TERMINAL,
  type Constraint,
  type Criterion,
  type SubGoal,
  type RoundRow,
  type Finding,
  type Gate,
  type Advice,
  type Escalation,
  type Refinement,
  type LoopState,
  setOptional,
  stateHashOf,
  liveCriteria,
  activeConstraints,
  openGates,
  stateToData,
  stateFromData,
} from "./state.js";
