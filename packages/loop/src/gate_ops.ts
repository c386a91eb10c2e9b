/** `gate check` and `gate resolve` as loop transactions (gate.ts has the descriptor, its hash and its class). */
import { ConflictError, ForgeError } from "@forge/core";
import { clip, stamp } from "./_util.js";
import { type LoopContext, promptOf } from "./_round.js";
import { actionHash, classify, type Descriptor } from "./gate.js";
import { commitLoop, withLoop } from "./store.js";
import { type LoopState, TERMINAL } from "./state.js";

/**
 * `gate check`: classify an action; an approval covers only its exact
 * action hash. A new user gate is recorded open (it blocks completion).
 */
export function checkGate(ctx: LoopContext, id: string, d: Descriptor): Promise<Record<string, unknown>> {
  return withLoop(ctx.store, id, ctx.note, async (l) => {
    const s0 = l.state;
    if (TERMINAL.includes(s0.status))
      throw new ForgeError(`loop ${id.slice(0, 8)} is ${s0.status}`, "E_LOOP_CLOSED", 1);
    const hash = actionHash(d);
    const { gate, risks } = classify(d);
    const known = s0.gates.find((g) => g.actionHash === hash);
    const out = (status: string) => ({
      kind: "loop_gate",
      loop_id: id,
      actionHash: hash,
      gate,
      status,
      covered: status === "approved" || status === "allowed",
      risks,
      descriptor: d,
    });
    if (known) return out(known.status);
    const at = stamp(ctx.now);
    const status = gate === "user" ? "open" : "allowed";
    const s: LoopState = {
      ...s0,
      gates: [
        ...s0.gates,
        { actionHash: hash, gate, status, description: clip(d.description, 200), risks: risks.join(","), at, by: null },
      ],
      updatedAt: at,
    };
    // The open prompt lists open gates, so it is rebuilt (a paused loop's too: resume rebuilds it the same way).
    commitLoop(ctx.store, l, s, promptOf(s).text, [
      { type: "gate_checked", at, actionHash: hash, gate, status, risks, descriptor: d },
    ]);
    return out(status);
  });
}

/** `gate resolve`: approve or deny the open user gate of exactly this descriptor. */
export function resolveGate(
  ctx: LoopContext,
  id: string,
  d: Descriptor,
  approve: boolean,
  by: string
): Promise<Record<string, unknown>> {
  return withLoop(ctx.store, id, ctx.note, async (l) => {
    const s0 = l.state;
    // Gates close with their loop: a loop that ended takes no decision, an approval included.
    if (TERMINAL.includes(s0.status))
      throw new ForgeError(
        `loop ${id.slice(0, 8)} is ${s0.status} (${s0.stopReason ?? "no reason"}): its gates closed with it`,
        "E_LOOP_CLOSED",
        1
      );
    const hash = actionHash(d);
    const g = s0.gates.find((x) => x.actionHash === hash);
    if (!g || g.status !== "open")
      throw new ConflictError(
        `no open user gate for action ${hash.slice(0, 12)} in loop ${id.slice(0, 8)} (a changed descriptor is a ` +
          `different action: run 'gate check' first)`
      );
    const at = stamp(ctx.now);
    const status = approve ? "approved" : "denied";
    const s: LoopState = {
      ...s0,
      gates: s0.gates.map((x) => (x === g ? { ...x, status, by, at } : x)) as LoopState["gates"],
      updatedAt: at,
    };
    commitLoop(ctx.store, l, s, promptOf(s).text, [{ type: "gate_resolved", at, actionHash: hash, status, by }]);
    return {
      kind: "loop_gate",
      loop_id: id,
      actionHash: hash,
      gate: g.gate,
      status,
      covered: approve,
      risks: g.risks ? g.risks.split(",") : [],
      by,
      descriptor: d,
    };
  });
}
