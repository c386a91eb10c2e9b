/**
 * @module
 * forge-pilot: the one orchestrating script (DESIGN §2, spec/loop.md §8).
 * It loops `forge-observe --json | forge-plan --json | forge-act --json |
 * forge-export` until a halt, and writes only what the seed lets it write:
 * the loop-local history, its report, and evidence through forge-export
 * (the canonical lane, kept open for the whole run).
 */
export { main } from "./main.js";
export { defaults, type LoopConfig, parseArgv, reportedConfig, type Verb, VERBS } from "./flags.js";
export { LONG, SHORT, VERSION } from "./help.js";
export { type LoopDeps, type LoopState, runLoop, step } from "./loop.js";
export { findings } from "./findings.js";
export { bounded } from "./bounds.js";
export { refine, type Refined } from "./refine.js";
export { type Answers, type Exported, exportText, type Lane, openLane } from "./lane.js";
export { recover, type Recovered } from "./recover.js";
export { appendHistory, type Attempt, HISTORY_MAX, historyArg, historyFile, pilotDir } from "./history.js";
export { takePilotLock } from "./lock.js";
export { failure, lastLine, parseLines, type Ran, type Started, Tools } from "./tools.js";
export { formatExplain, formatObservation, formatPlan, formatReport, newReport, PROG, type Report } from "./report.js";
export { type Acted, act, exportAct, issueNumbers, observe, observeAndPlan, type Picked } from "./stages.js";
export { realDeps, type Signals } from "./deps.js";
