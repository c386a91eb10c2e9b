/**
 * The loop-local history (`.forge/pilot/history.jsonl`, gitignored,
 * rebuildable): one line per attempt, what forge-plan reads to decay and
 * exhaust targets (spec/loop.md §5). Bounded to the last 10 000 attempts.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { atomicWrite } from "@forge/core";
import type { PlanKind } from "@forge/contract";

/** The attempts kept. */
export const HISTORY_MAX = 10_000;

/** One attempt. */
export interface Attempt {
  target_key: string;
  plan_kind: PlanKind;
  plan_id: string;
  act_id: string | null;
  outcome_signature: string | undefined;
  recorded_at: string | undefined;
}

/** The pilot's own folder: `.forge/pilot/`. */
export function pilotDir(workspace: string): string {
  return join(workspace, ".forge", "pilot");
}

/** The history file: `--history` (relative to the workspace), else `.forge/pilot/history.jsonl`. */
export function historyFile(workspace: string, history: string | null): string {
  return history ? resolve(workspace, history) : join(pilotDir(workspace), "history.jsonl");
}

/**
 * The history file as forge-plan's `--history` takes it: relative to the
 * workspace (forge-plan joins it onto its cwd: an absolute path would be lost).
 */
export function historyArg(workspace: string, history: string | null): string {
  return relative(workspace, historyFile(workspace, history)) || ".";
}

/** Append attempts, keeping the last 10 000 lines (rewritten whole, atomically). */
export function appendHistory(file: string, attempts: readonly Attempt[]): void {
  const old = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
  const all = [...old, ...attempts.map((r) => JSON.stringify(r))].slice(-HISTORY_MAX);
  atomicWrite(file, all.join("\n") + "\n");
}
