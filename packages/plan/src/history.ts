/**
 * The loop-local history (`.forge/pilot/history.jsonl`, gitignored,
 * rebuildable; spec/loop.md §5): one line per attempt, written by
 * forge-pilot. forge-plan only reads it, to count attempts per target and
 * apply the exhaustion rule. A missing file is an empty history.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { ForgeError } from "@forge/core";

/** One attempt. */
export interface HistoryEntry {
  target_key: string;
  plan_kind: string;
  plan_id: string;
  act_id: string | null;
  outcome_signature: string;
  recorded_at: string;
}

const MAX_BYTES = 64 * 1024 * 1024;

/**
 * Parse history text.
 * @param file the name errors use
 * @throws ForgeError (exit 1) naming the file, line and field
 */
export function parseHistory(text: string, file: string): HistoryEntry[] {
  const out: HistoryEntry[] = [];
  let n = 0;
  for (const raw of text.split("\n")) {
    n++;
    if (raw.trim() === "") continue;
    let v: Record<string, unknown>;
    try {
      v = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw new ForgeError(`${file}: line ${n}: not JSON`, "E_INVALID_FILE", 1);
    }
    if (v === null || typeof v !== "object" || Array.isArray(v))
      throw new ForgeError(`${file}: line ${n}: not an object`, "E_INVALID_FILE", 1);
    for (const k of ["target_key", "outcome_signature"]) {
      if (typeof v[k] !== "string" || v[k] === "")
        throw new ForgeError(`${file}: line ${n}: field '${k}': expected a non-empty string`, "E_INVALID_FILE", 1);
    }
    out.push({
      target_key: v.target_key as string,
      plan_kind: typeof v.plan_kind === "string" ? v.plan_kind : "",
      plan_id: typeof v.plan_id === "string" ? v.plan_id : "",
      act_id: typeof v.act_id === "string" ? v.act_id : null,
      outcome_signature: v.outcome_signature as string,
      recorded_at: typeof v.recorded_at === "string" ? v.recorded_at : "",
    });
  }
  return out;
}

/**
 * Read a history file (none: empty).
 * @param shown the name errors use
 */
export function readHistory(path: string, shown: string): HistoryEntry[] {
  if (!existsSync(path)) return [];
  if (statSync(path).size > MAX_BYTES) throw new ForgeError(`${shown}: over 64 MiB`, "E_INVALID_FILE", 1);
  return parseHistory(readFileSync(path, "utf8"), shown);
}
