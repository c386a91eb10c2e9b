/**
 * What a picture of the evidence shows beside the observation's lines
 * (`forge-observe --html`, `forge-pilot report --html`): each claim's
 * trial outcomes in the order they were recorded, each failure signature's
 * first and last sighting, and the provenance (store version, import ids).
 * The observation counts trials; this keeps their order. Read from the same
 * fold the observation compiles (the scope's imports, kernel payloads
 * included), so the same store gives the same detail.
 */
import { openStore, storeVersion, type Store } from "@forge/core";
import { readImportLog, readScope, type ScopeState } from "@forge/evidence";

/** The detail of a scope's evidence. */
export interface EvidenceDetail {
  /** Per claim id: its outcomes in recorded order, one letter each (`p` pass, `f` fail, `e` error). */
  outcomes: Record<string, string>;
  /** Per failure signature: when it was first and last recorded (RFC 3339). */
  seen: Record<string, { first: string; last: string }>;
  /** The scope's import (batch) ids, in fold order. */
  imports: string[];
  /** `.forge/version`. */
  store_version: number;
}

const LETTER: Record<string, string> = { pass: "p", fail: "f", error: "e" };

/**
 * The detail of a folded scope: pure.
 * @example evidenceDetailOf(readScope(store, "default"), 2).outcomes["check:…"] // "ppfp"
 */
export function evidenceDetailOf(state: ScopeState, version: number): EvidenceDetail {
  const trials = [...state.kernel.trials].sort(
    (a, b) => cmp(a.recorded_at, b.recorded_at) || cmp(a.trial_id, b.trial_id)
  );
  const outcomes: Record<string, string[]> = {};
  const seen: EvidenceDetail["seen"] = {};
  for (const t of trials) {
    (outcomes[t.claim_id] ??= []).push(LETTER[t.outcome] ?? "e");
    if (t.signature === null) continue;
    const s = (seen[t.signature] ??= { first: t.recorded_at, last: t.recorded_at });
    s.last = t.recorded_at;
  }
  const joined: Record<string, string> = {};
  for (const id of Object.keys(outcomes).sort()) joined[id] = outcomes[id]!.join("");
  return { outcomes: joined, seen, imports: state.imports.map((i) => i.batch_id), store_version: version };
}

/**
 * The detail of a scope of the store around `cwd` (reads every import of the scope, payloads included).
 * @throws ForgeError: no store, a corrupt import log
 * @example evidenceDetail(process.cwd(), process.env, "default").imports.length
 */
export function evidenceDetail(cwd: string, env: NodeJS.ProcessEnv, scope: string): EvidenceDetail {
  const store: Store = openStore({ cwd, env });
  const state = readScope(store, scope, { records: readImportLog(store), episodes: false });
  return evidenceDetailOf(state, storeVersion(store.dir));
}

// --- internal ---

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
