/**
 * The last run, kept for `forge-pilot report` (`.forge/pilot/report.json`,
 * loop-local and gitignored like the history): its report line and the
 * attempts it added to the history (the loop's trace). Written once, when a
 * run ends, atomically.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite, ForgeError } from "@forge/core";
import type { Attempt } from "./history.js";
import { pilotDir } from "./history.js";
import type { Report } from "./report.js";

/** What `report` reads back. */
export interface LastRun {
  kind: "pilot_run";
  report: Report;
  trace: Attempt[];
}

/** `.forge/pilot/report.json`. */
export function lastRunFile(workspace: string): string {
  return join(pilotDir(workspace), "report.json");
}

/** The history's lines (none when there is no file). */
export function historyLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

/**
 * Keep a run: its report and the history lines it added (`before`: the lines there were when it started; the
 * history keeps its last 10 000 lines, so the run's lines are those after the last line it started with).
 */
export function saveLastRun(
  workspace: string,
  report: Report,
  before: readonly string[],
  after: readonly string[]
): void {
  const from = before.length ? after.lastIndexOf(before[before.length - 1]!) + 1 : 0;
  const trace: Attempt[] = [];
  for (const l of after.slice(from)) {
    try {
      trace.push(JSON.parse(l) as Attempt);
    } catch {
      // A line the loop did not write: not part of its trace.
    }
  }
  const rec: LastRun = { kind: "pilot_run", report, trace };
  atomicWrite(lastRunFile(workspace), JSON.stringify(rec) + "\n");
}

/**
 * The last run, or null when none was kept.
 * @throws ForgeError when the file is not a kept run
 */
export function readLastRun(workspace: string): LastRun | null {
  const file = lastRunFile(workspace);
  if (!existsSync(file)) return null;
  let v: Partial<LastRun> | null;
  try {
    v = JSON.parse(readFileSync(file, "utf8")) as Partial<LastRun> | null;
  } catch {
    v = null;
  }
  if (!v || v.kind !== "pilot_run" || typeof v.report !== "object" || !Array.isArray(v.trace)) {
    throw new ForgeError(`.forge/pilot/report.json: not a kept run (run 'forge-pilot run' again)`);
  }
  return v as LastRun;
}
