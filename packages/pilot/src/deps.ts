/**
 * The loop's real deps: the stages as tools (stages.ts), the lane, the
 * pick-up, the history file, stderr, the system clock, and zx's `sleep` for
 * the cooldown. zx is what the design names for the orchestrating script,
 * and `sleep` (a Duration, and nothing to write) is what it gives here; it
 * is loaded the first time a cooldown waits, so a run without one never
 * compiles zx. Its `$` is not used: it always goes through a shell
 * (tools.ts starts every tool as an argv array).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ObservationLine } from "./_lines.js";
import type { LoopConfig } from "./flags.js";
import { appendHistory, historyFile, pilotDir } from "./history.js";
import { openLane } from "./lane.js";
import type { LoopDeps } from "./loop.js";
import { recover } from "./recover.js";
import { refine } from "./refine.js";
import { act, exportAct, issueNumbers, observe, observeAndPlan } from "./stages.js";
import { lastLine, type Tools } from "./tools.js";

/** A signal the pilot received (the run halts at the top of its next iteration). */
export interface Signals {
  stop: NodeJS.Signals | null;
}

/**
 * The real deps of a run in `c.workspace`.
 * @param stderr where the progress lines go
 */
export function realDeps(tools: Tools, c: LoopConfig, signals: Signals, stderr: NodeJS.WritableStream): LoopDeps {
  const haltFile = join(pilotDir(c.workspace), "halt");
  const history = historyFile(c.workspace, c.history);
  // The completed CI runs this run has sent through the lane (each is sent once).
  const sent = new Set<string>();
  return {
    now: () => Date.now(),
    sleep: async (ms) => {
      const { sleep } = await import("zx");
      await sleep(ms);
    },
    haltAsked: () => {
      if (signals.stop) return `signal ${signals.stop}`;
      return existsSync(haltFile) ? ".forge/pilot/halt exists" : null;
    },
    openLane: () => openLane(tools, c.scope),
    recover: (lane) => recover(tools, c.scope, lane, sent),
    observeAndPlan: () => observeAndPlan(tools, c),
    refine: (plan) => refine(tools, c.refineWith ?? "", plan),
    act: (plan, deadline) => act(tools, c, plan, deadline),
    exportAct: (result, started, lane) => exportAct(tools, c, result, started, lane, sent),
    record: (attempt) => appendHistory(history, [attempt]),
    progress: (line) => void stderr.write(line + "\n"),
    final: async () => {
      // The run's end packs the loose evidence imports into one file (spec/evidence.md, "Packs and retention"): no
      // answer changes, so the last observation is the same after it.
      const packed = await tools.run("forge-export", ["pack", "--json"]).catch(() => null);
      if (packed && packed.code !== 0) stderr.write(`forge-pilot: evidence pack: ${lastLine(packed.stderr)}\n`);
      const obs = await observe(tools, c).catch((): ObservationLine[] => []);
      const numbers = await issueNumbers(tools).catch(() => new Map<string, number>());
      return { obs, issueNumbers: numbers };
    },
  };
}
