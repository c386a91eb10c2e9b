/**
 * @module
 * forge-loop: durable agent round loops under `.forge/loops/<id>/`
 * (loop.md + an append-only, hash-chained events.jsonl) with runtime
 * re-verified claims, decisions, gates with action hashes, a prompt
 * compiler (L0/L1/L2 under a byte budget), audit, and an experience memory
 * under `.forge/experience/`. Verb bodies load lazily so `--help` stays
 * cheap. The library parts never print and never exit.
 */
import { defineNoun } from "@forge/cli";

/** The version every executable reports. */
export const VERSION = "0.1.0";

export default defineNoun({
  meta: { name: "forge-loop", version: VERSION, description: "agent round loops" },
  subCommands: {
    start: () => import("./start.js").then((m) => m.default),
    next: () => import("./next.js").then((m) => m.default),
    retry: () => import("./retry.js").then((m) => m.default),
    backtrack: () => import("./backtrack.js").then((m) => m.default),
    pause: () => import("./pause.js").then((m) => m.default),
    resume: () => import("./resume.js").then((m) => m.default),
    stop: () => import("./stop.js").then((m) => m.default),
    status: () => import("./status.js").then((m) => m.default),
    history: () => import("./history.js").then((m) => m.default),
    audit: () => import("./audit.js").then((m) => m.default),
    gate: () => import("./gate_cmd.js").then((m) => m.default),
    list: () => import("./list.js").then((m) => m.default),
    learn: () => import("./learn.js").then((m) => m.default),
    supersede: () => import("./supersede.js").then((m) => m.default),
    retract: () => import("./retract.js").then((m) => m.default),
    recall: () => import("./recall.js").then((m) => m.default),
    "report-template": () => import("./template.js").then((m) => m.default),
  },
});

export {
  startLoop,
  submitReport,
  pauseLoop,
  resumeLoop,
  stopLoop,
  backtrackLoop,
  checkGate,
  resolveGate,
  statusRecord,
  type LoopContext,
  type StartOptions,
} from "./engine.js";
export { loadLoop, loopIds, loopPaths, resolveLoop } from "./store.js";
export { parseReport, type RoundReport } from "./report.js";
export { compilePrompt, type Prompt } from "./prompt.js";
export { actionHash, classify, parseDescriptor, type Descriptor } from "./gate.js";
export { learn, recallExperience, retract, supersede, type Experience } from "./experience.js";
export { parseEvents } from "./events.js";
