/**
 * What every loop transaction shares: the runtime context, the open round
 * as verbs return it, the prompt of a state, the recall into it, the
 * guard against a closed or paused loop, and the status record.
 */
import { ForgeError, type Store } from "@forge/core";
import { recallExperience } from "./experience.js";
import { compilePrompt } from "./prompt.js";
import { type Advice, type Level, liveCriteria, type LoopState, openGates, TERMINAL } from "./state.js";
import { acceptedInEffect } from "./_rules.js";
import type { LoopEvent } from "./events.js";

/** The world a runtime call needs. */
export interface LoopContext {
  store: Store;
  env: Record<string, string | undefined>;
  now: () => Date;
  /** Receives notes for stderr (a broken stale lock). */
  note: (s: string) => void;
}

/** The open round, as every verb that opens or shows one returns it. */
export interface OpenRound {
  round: number;
  roundId: string;
  attempt: number;
  level: Level;
  prompt: string;
  promptBytes: number;
  omitted: string[];
  stateHash: string;
  promptHash: string;
}

export function openRound(s: LoopState, prompt: string, omitted: string[] = []): OpenRound | null {
  if (prompt === "") return null;
  return {
    round: s.round,
    roundId: s.roundId,
    attempt: s.attempt,
    level: s.level,
    prompt,
    promptBytes: Buffer.byteLength(prompt),
    omitted,
    stateHash: s.stateHash,
    promptHash: s.promptHash,
  };
}

/** Recall advisory experience for the loop's domain (none without a domain). */
export function adviceFor(ctx: LoopContext, s: LoopState): Advice[] {
  if (!s.domain) return [];
  return recallExperience(ctx.store, { scope: s.domain, query: s.goal, limit: 5, maxBytes: 1500, now: ctx.now() }).map(
    (r) => ({ id: r.id, kind: r.kind, text: r.text })
  );
}

/** Compile the open round's prompt ("" when no round is open). */
export function promptOf(s: LoopState): { text: string; omitted: string[] } {
  if (TERMINAL.includes(s.status) || s.awaiting === "none") return { text: "", omitted: [] };
  const p = compilePrompt(s);
  return { text: p.text, omitted: p.omitted };
}

export function guardOpen(s: LoopState, verb: string): void {
  if (TERMINAL.includes(s.status))
    throw new ForgeError(
      `loop ${s.id.slice(0, 8)} is ${s.status} (${s.stopReason ?? "no reason"}): no more rounds`,
      "E_LOOP_CLOSED",
      1
    );
  if (s.status !== "active")
    throw new ForgeError(
      `loop ${s.id.slice(0, 8)} is ${s.status}: run 'forge-loop resume ${s.id.slice(0, 8)}' before ${verb}`,
      "E_LOOP_NOT_ACTIVE",
      1
    );
}

/**
 * The status record of a loop. The loopforge 3.0 fields read as their defaults in an older loop; its accepted
 * rounds are counted from `events` (a loop written before `acceptedRounds` existed).
 */
export function statusRecord(
  s: LoopState,
  prompt: string,
  withPrompt: boolean,
  events: readonly LoopEvent[]
): Record<string, unknown> {
  const live = liveCriteria(s);
  return {
    kind: "loop_status",
    loop_id: s.id,
    status: s.status,
    goal: s.goal,
    domain: s.domain,
    round: s.round,
    roundId: s.roundId,
    attempt: s.attempt,
    awaiting: s.awaiting,
    lastDecision: s.lastDecision,
    reason: s.reason,
    stopReason: s.stopReason,
    level: s.level,
    criteria: { total: live.length, verified: live.filter((c) => c.status === "verified").length },
    openGates: openGates(s).length,
    acceptedRounds: s.acceptedRounds ?? acceptedInEffect(events),
    maxRounds: s.maxRounds,
    phase: s.phase ?? null,
    drift: s.drift ?? null,
    refinements: s.refinements ?? [],
    escalation: s.escalation ?? [],
    stateHash: s.stateHash,
    promptHash: s.promptHash,
    updatedAt: s.updatedAt,
    eventSequence: s.eventSequence,
    ...(withPrompt ? { prompt: prompt === "" ? null : prompt } : {}),
  };
}
