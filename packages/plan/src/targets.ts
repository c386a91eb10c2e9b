/**
 * Targets: what in an observation most needs verifying, each with a stable
 * key, a base urgency, its modifiers, the retry decay and exhaustion from
 * the loop-local history, and the plan that would verify it (seed §6, §8,
 * §9, §13 with the corrections of spec/evidence.md §8). Only what the
 * observation's lines show can become a target; every target names the
 * refs that justify it. Each kind is found in one file under targets/;
 * this composes them and ranks.
 */
import {
  type DegradationLine,
  type ExhaustedWhy,
  type Modifier,
  type NodeLine,
  type Observation,
  type ObservationHeader,
  type PlanKind,
  type PrLine,
  type SyndromeLine,
  TARGET_KINDS,
  type TargetKind,
  type UnverifiedLine,
} from "@forge/contract";
import { cmp, MICROS } from "@forge/kernel";
import type { PlanConfig } from "./config.js";
import type { HistoryEntry } from "./history.js";
import { type Found, type PlanDraft, type TargetContext, targetContext } from "./targets/_context.js";
import { activeSyndrome } from "./targets/active_syndrome.js";
import { calibrationCaveat } from "./targets/calibration_caveat.js";
import { comparabilityDrift } from "./targets/comparability_drift.js";
import { fragileNode } from "./targets/fragile_node.js";
import { refutationGap } from "./targets/refutation_gap.js";
import { scopeStale } from "./targets/scope_stale.js";
import { supersessionVerification } from "./targets/supersession_verification.js";
import { thinExport } from "./targets/thin_export.js";
import { unverifiedClaimVersion } from "./targets/unverified_claim_version.js";

/** One target. */
export interface Target {
  key: string;
  target_kind: TargetKind;
  base_micros: number;
  modifiers: Modifier[];
  attempts: number;
  /** Base plus modifiers, clamped, before the retry decay. */
  score_micros: number;
  urgency_micros: number;
  exhausted: boolean;
  exhausted_why: ExhaustedWhy | null;
  /** null: no executable plan (only an advisory one, behind --allow-advisory-only). */
  plan_kind: PlanKind | null;
  refs: string[];
  /** Why there is no executable plan, or why this one. */
  plan_why: string;
  /** The plan, or null. */
  draft: PlanDraft | null;
  /** The history lines of this key, oldest first (for explain). */
  history: HistoryEntry[];
}

/** The line kinds targets are found in. */
interface LineOf {
  observation: ObservationHeader;
  node: NodeLine;
  syndrome: SyndromeLine;
  pr: PrLine;
  degradation: DegradationLine;
  unverified: UnverifiedLine;
}

/** Where a kind is found: a line kind, and what it finds in one such line. */
type Extractor = {
  [L in keyof LineOf]: { from: L; find: (line: LineOf[L], c: TargetContext) => Found | null };
}[keyof LineOf];

/**
 * Each target kind's extractor: a new kind is a compile error here until it
 * has one. A line is the target of at most one kind: the first, in
 * TARGET_KINDS order, that finds one in it (a fragile check is no drift).
 */
const EXTRACTORS: Readonly<Record<TargetKind, Extractor>> = {
  ActiveSyndrome: { from: "syndrome", find: activeSyndrome },
  FragileNode: { from: "node", find: fragileNode },
  ThinExport: { from: "degradation", find: thinExport },
  UnverifiedClaimVersion: { from: "unverified", find: unverifiedClaimVersion },
  RefutationGap: { from: "node", find: refutationGap },
  SupersessionVerification: { from: "pr", find: supersessionVerification },
  ComparabilityDrift: { from: "node", find: comparabilityDrift },
  CalibrationCaveat: { from: "node", find: calibrationCaveat },
  ScopeStale: { from: "observation", find: scopeStale },
};

interface Finder<L extends keyof LineOf> {
  kind: TargetKind;
  find: (line: LineOf[L], c: TargetContext) => Found | null;
}

/** The extractors of one line kind, in TARGET_KINDS order. */
function findersOf<L extends keyof LineOf>(from: L): Array<Finder<L>> {
  const out: Array<Finder<L>> = [];
  for (const k of TARGET_KINDS) {
    const e = EXTRACTORS[k];
    if (e.from === from) out.push({ kind: k, find: e.find as Finder<L>["find"] });
  }
  return out;
}

const FINDERS = {
  observation: findersOf("observation"),
  node: findersOf("node"),
  syndrome: findersOf("syndrome"),
  pr: findersOf("pr"),
  degradation: findersOf("degradation"),
  unverified: findersOf("unverified"),
} as const;

/**
 * Every target of an observation, ranked (urgency desc, kind priority, key asc).
 * @param now epoch seconds (for ScopeStale)
 */
export function extractTargets(
  o: Observation,
  history: readonly HistoryEntry[],
  cfg: PlanConfig,
  now: number
): Target[] {
  const out: Target[] = [];
  const c = targetContext(o, cfg, now);
  const each = <L extends keyof LineOf>(lines: readonly LineOf[L][], finders: ReadonlyArray<Finder<L>>): void => {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      for (let j = 0; j < finders.length; j++) {
        const f = finders[j]!.find(line, c);
        if (f === null) continue;
        // Spelled out, not spread: a spread of the shapes the extractors return
        // is a slow, megamorphic copy (~7 µs a target).
        out.push({
          key: f.key,
          target_kind: finders[j]!.kind,
          base_micros: f.base_micros,
          modifiers: f.modifiers ?? [],
          attempts: 0,
          score_micros: 0,
          urgency_micros: 0,
          exhausted: false,
          exhausted_why: null,
          plan_kind: f.draft?.plan_kind ?? null,
          refs: f.refs,
          plan_why: f.plan_why,
          draft: f.draft,
          history: [],
        });
        break;
      }
    }
  };
  each(o.syndromes, FINDERS.syndrome);
  each(o.nodes, FINDERS.node);
  each(o.degradations, FINDERS.degradation);
  each(o.unverified, FINDERS.unverified);
  each(o.prs, FINDERS.pr);
  each([o.header], FINDERS.observation);
  decay(out, history, cfg);
  const prio = (k: TargetKind): number => TARGET_KINDS.indexOf(k);
  return out.sort(
    (a, b) => b.urgency_micros - a.urgency_micros || prio(a.target_kind) - prio(b.target_kind) || cmp(a.key, b.key)
  );
}

/** History: attempts, the retry decay, exhaustion (spec/loop.md §5). */
function decay(out: Target[], history: readonly HistoryEntry[], cfg: PlanConfig): void {
  const byKey = new Map<string, HistoryEntry[]>();
  for (const e of history) {
    const hs = byKey.get(e.target_key);
    if (hs) hs.push(e);
    else byKey.set(e.target_key, [e]);
  }
  for (const t of out) {
    const hs = byKey.get(t.key) ?? [];
    t.history = hs;
    t.attempts = hs.length;
    let u = t.base_micros;
    for (const m of t.modifiers) u += m.delta_micros ?? 0;
    u = clamp(u);
    t.score_micros = u;
    const factor = Math.floor(MICROS / 2 ** t.attempts);
    t.modifiers.push({ factor_micros: factor, name: "retry_decay" }); // keys in sorted order (see targetLine)
    t.urgency_micros = clamp(Math.floor((u * factor) / MICROS));
    if (t.attempts >= cfg.max_retries_per_target) {
      t.exhausted = true;
      t.exhausted_why = "max_retries";
    } else if (hs.length >= 2 && hs[hs.length - 1]!.outcome_signature === hs[hs.length - 2]!.outcome_signature) {
      t.exhausted = true;
      t.exhausted_why = "repeated_outcome";
    }
  }
}

function clamp(u: number): number {
  return Math.max(0, Math.min(MICROS, u));
}
