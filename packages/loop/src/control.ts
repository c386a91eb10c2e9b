/**
 * pause, resume, stop and backtrack: transactions on a loop's status that
 * take no report.
 */
import { ForgeError } from "@forge/core";
import { clip, roundIdOf, stamp, StorageCorruptionError } from "./_util.js";
import { guardOpen, type LoopContext, openRound, promptOf, statusRecord } from "./_round.js";
import { checkName } from "./argv.js";
import { commitLoop, withLoop } from "./store.js";
import { MAX_ROWS } from "./engine.js";
import { liveCriteria, type LoopState, type LoopStatus, setOptional, TERMINAL } from "./state.js";
import { acceptedInEffect, closeGates } from "./_rules.js";

/** Pause an open loop (its state and prompt hashes are kept for resume). */
export function pauseLoop(ctx: LoopContext, id: string): Promise<Record<string, unknown>> {
  return withLoop(ctx.store, id, ctx.note, async (l) => {
    const s0 = l.state;
    if (TERMINAL.includes(s0.status) || s0.status === "paused")
      throw new ForgeError(`loop ${id.slice(0, 8)} is ${s0.status}: cannot pause`, "E_LOOP_NOT_ACTIVE", 1);
    const at = stamp(ctx.now);
    const s = { ...s0, status: "paused" as LoopStatus, pausedFrom: s0.status, updatedAt: at };
    const { state } = commitLoop(ctx.store, l, s, l.prompt, [{ type: "paused", at, from: s0.status }]);
    return statusRecord(state, l.prompt, false, l.events);
  });
}

/**
 * Resume a paused or waiting loop: the prompt is rebuilt from the state and
 * must be the one that was open (same stateHash and promptHash).
 */
export function resumeLoop(ctx: LoopContext, id: string): Promise<Record<string, unknown>> {
  return withLoop(ctx.store, id, ctx.note, async (l) => {
    const s0 = l.state;
    if (!["paused", "waiting", "waiting_for_user"].includes(s0.status))
      throw new ForgeError(`loop ${id.slice(0, 8)} is ${s0.status}: nothing to resume`, "E_LOOP_NOT_PAUSED", 1);
    const rebuilt = promptOf(s0);
    if (rebuilt.text !== l.prompt)
      throw new StorageCorruptionError(`.forge/loops/${id}/loop.md`, "the open prompt does not rebuild from the state");
    const at = stamp(ctx.now);
    const s = { ...s0, status: "active" as LoopStatus, pausedFrom: null, updatedAt: at };
    const { state } = commitLoop(ctx.store, l, s, l.prompt, [{ type: "resumed", at, from: s0.status }]);
    return statusRecord(state, l.prompt, true, l.events);
  });
}

/** Stop a loop for good (decision `stopped`). */
export function stopLoop(ctx: LoopContext, id: string, reason: string | null): Promise<Record<string, unknown>> {
  return withLoop(ctx.store, id, ctx.note, async (l) => {
    const s0 = l.state;
    if (TERMINAL.includes(s0.status))
      throw new ForgeError(`loop ${id.slice(0, 8)} is already ${s0.status}`, "E_LOOP_CLOSED", 1);
    const at = stamp(ctx.now);
    const s: LoopState = {
      ...s0,
      status: "stopped",
      pausedFrom: null,
      awaiting: "none",
      lastDecision: "stopped",
      stopReason: reason ? `user_stop: ${clip(reason, 200)}` : "user_stop",
      updatedAt: at,
    };
    const closed = closeGates(s, at);
    const { state } = commitLoop(ctx.store, l, s, "", [
      { type: "stopped", at, round: s0.round, reason: s.stopReason, ...(closed.length ? { gatesClosed: closed } : {}) },
    ]);
    return { ...statusRecord(state, "", false, l.events), decision: "stopped" };
  });
}

/**
 * Backtrack (advisory): name the accepted round to restore and the checks
 * to run after restoring; criteria verified after it are open again. The
 * workspace is never touched.
 */
export function backtrackLoop(
  ctx: LoopContext,
  id: string,
  to: number,
  why: string | null
): Promise<Record<string, unknown>> {
  return withLoop(ctx.store, id, ctx.note, async (l) => {
    const s0 = l.state;
    guardOpen(s0, "backtrack");
    // The round's record is in the timeline (loop.md keeps only the last rounds).
    const ev = [...l.events]
      .reverse()
      .find((e) => e.type === "round_decided" && e.round === to && e.decision === "accepted");
    const target = ev
      ? { headSha: (ev.head_sha as string | null) ?? null, codeTree: (ev.code_tree as string | null) ?? null }
      : null;
    if (!target)
      throw new ForgeError(`round ${to} is not an accepted round of loop ${id.slice(0, 8)}`, "E_NO_ROUND", 1);
    const at = stamp(ctx.now);
    const s: LoopState = structuredClone(s0);
    const reopened: string[] = [];
    for (const c of liveCriteria(s)) {
      if (c.status === "verified" && (c.verifiedRound ?? 0) > to) {
        c.status = "open";
        c.verifiedRound = null;
        reopened.push(c.id);
      }
    }
    const checks = liveCriteria(s)
      .filter((c) => c.argv)
      .map((c) => ({ criterion_id: c.id, argv: c.argv, name: checkName(c.argv!) }));
    s.rounds.push({
      round: s0.round,
      attempt: s0.attempt,
      decision: "backtracked",
      outcome: "backtrack",
      summary: clip(`restore round ${to}${why ? `: ${why}` : ""}`, 200),
      headSha: target.headSha,
      codeTree: target.codeTree,
      at,
    });
    if (s.rounds.length > MAX_ROWS) s.rounds = s.rounds.slice(-MAX_ROWS);
    s.lastDecision = "backtracked";
    s.reason = `restore round ${to}`;
    s.round++;
    s.roundId = roundIdOf(s.id, s.round);
    s.attempt = 1;
    s.awaiting = "report";
    s.level = "L2";
    s.rejections = 0;
    setOptional(s, "escalation", undefined);
    // The accepted rounds after the restore point are abandoned: --max-rounds no longer counts them.
    s.acceptedRounds = acceptedInEffect(l.events, to);
    s.updatedAt = at;
    s.facts = [
      ...s.facts,
      clip(
        `backtracked to round ${to}${target.headSha ? ` (commit ${target.headSha.slice(0, 12)})` : ""}: ` +
          "restore it, then run every declared check",
        200
      ),
    ].slice(-50);
    const p = promptOf(s);
    const { state } = commitLoop(ctx.store, l, s, p.text, [
      {
        type: "backtracked",
        at,
        round: s0.round,
        restoreRound: to,
        restoreHeadSha: target.headSha,
        restoreCodeTree: target.codeTree,
        reopened,
        reason: why,
      },
      { type: "round_opened", at, round: s.round, roundId: s.roundId, attempt: 1, level: "L2" },
    ]);
    return {
      kind: "loop_backtrack",
      loop_id: id,
      decision: "backtracked",
      advisory: true,
      restoreRound: to,
      restoreHeadSha: target.headSha,
      restoreCodeTree: target.codeTree,
      reopened,
      checks,
      status: state.status,
      next: openRound(state, p.text, p.omitted),
    };
  });
}
