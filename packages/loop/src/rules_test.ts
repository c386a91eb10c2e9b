import test from "ava";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { acceptedInEffect, closeGates, escalate, intentAnchored } from "./_rules.js";
import { type LoopContext, startLoop, submitReport } from "./engine.js";
import type { LoopEvent } from "./events.js";
import type { Gate, LoopState } from "./state.js";
import { loadLoop } from "./store.js";

const ev = (type: string, o: Record<string, unknown>): LoopEvent =>
  ({ event_sequence: 0, type, at: "", hash: "", ...o }) as LoopEvent;

test("acceptedInEffect() counts accepted rounds, dropping those after each backtrack's restore point", (t) => {
  const acc = (round: number) => ev("round_decided", { round, decision: "accepted" });
  const rej = (round: number) => ev("round_decided", { round, decision: "rejected" });
  const events = [acc(1), rej(2), acc(2), acc(3), ev("backtracked", { restoreRound: 1 }), acc(5)];
  t.is(acceptedInEffect(events), 2, "rounds 1 and 5");
  t.is(acceptedInEffect(events, 1), 1, "a further backtrack to 1 leaves round 1");
  t.is(acceptedInEffect([acc(1), acc(2)], 0), 0);
});

test("escalate() counts each rule on its own", (t) => {
  let e = escalate(undefined, "contradicted_evidence");
  e = escalate(e.list, "constraint_violation");
  e = escalate(e.list, "contradicted_evidence");
  t.is(e.count, 2);
  t.deepEqual(e.list, [
    { rule: "contradicted_evidence", count: 2 },
    { rule: "constraint_violation", count: 1 },
  ]);
});

function ctx(): LoopContext {
  const root = mkdtempSync(join(tmpdir(), "loop-rules-"));
  mkdirSync(join(root, ".forge"));
  writeFileSync(join(root, "ok.js"), "process.exit(0)\n");
  return {
    store: storeAt(join(root, ".forge")),
    env: { PATH: process.env.PATH },
    now: () => new Date("2026-12-01T09:00:00Z"),
    note: () => undefined,
  };
}

test(
  "a loop that uses none of the 3.0 fields writes none of them (" + "an older loop.md keeps its stateHash)",
  async (t) => {
    const c = ctx();
    const s = await startLoop(c, {
      task: "parse the config file",
      constraints: [],
      criteria: [{ text: "parser passes", argv: [process.execPath, "ok.js"] }],
      maxRounds: 20,
      domain: null,
      promptBudget: 6000,
      checkTimeoutMs: 120_000,
    });
    const id = s.loop_id as string;
    const rep = JSON.stringify({
      format: "loopforge.round-report",
      outcome: "partial",
      continuation: "continue",
      summary: "s",
      violations: [],
    });
    await submitReport(c, id, rep, "next");
    const md = readFileSync(join(c.store.dir, "loops", id, "loop.md"), "utf8");
    for (const k of ["escalation", "refinements", "phase", "phaseRound", "drift", "contextRequest"])
      t.notRegex(md, new RegExp(`^${k}:`, "m"), k);
    t.regex(md, /^acceptedRounds: 1$/m);
    const l = await loadLoop(c.store, id);
    t.true(intentAnchored(l.state, "tighten the config parser"), "shares a word with the goal");
    t.false(intentAnchored(l.state, "redesign the billing dashboard"));
    const gate: Gate = {
      actionHash: "a".repeat(64),
      gate: "user",
      status: "open",
      description: "d",
      risks: "",
      at: "",
      by: null,
    };
    const g: LoopState = { ...l.state, gates: [gate] };
    t.deepEqual(closeGates(g, "2026-12-01T09:00:00Z"), ["a".repeat(64)]);
    t.is(g.gates[0]!.status, "closed");
  }
);
