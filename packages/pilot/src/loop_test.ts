import test from "ava";
import type { ActResult, Decision, ObservationLine, Plan } from "./_lines.js";
import { defaults, type LoopConfig } from "./flags.js";
import type { Attempt } from "./history.js";
import type { Lane } from "./lane.js";
import { type LoopDeps, runLoop } from "./loop.js";

// Partial lines: the loop reads only these fields of them (the stages' own tests check whole lines).
const plan = (n: number): Plan =>
  ({
    kind: "plan",
    plan_id: `p${n}`,
    plan_kind: "CheckRerun",
    target_key: `t${n % 2}`,
  }) as unknown as Plan;
const result = (p: Plan, extra: Record<string, unknown> = {}): ActResult =>
  ({
    kind: "act_result",
    id: `a-${p.plan_id}`,
    plan_kind: p.plan_kind,
    target_key: p.target_key,
    outcome_signature: "ok",
    completed_at: "2026-01-01T00:00:00Z",
    ...extra,
  }) as unknown as ActResult;

/**
 * Fake deps: a clock that moves only when told, decisions in turn, acts that
 * answer at once; what happened, in order.
 */
function fake(decisions: Decision[], opts: { act?: (p: Plan) => ActResult | null; halt?: () => string | null } = {}) {
  let t = 1_000_000;
  const log: string[] = [];
  const history: Attempt[] = [];
  const lane: Lane = {
    dead: false,
    send: () => Promise.resolve(null),
    close: () => Promise.resolve(log.push("close")),
  };
  const deps: LoopDeps = {
    now: () => t,
    sleep: (ms) => Promise.resolve(void ((t += ms), log.push(`sleep ${ms}`))),
    haltAsked: opts.halt ?? (() => null),
    openLane: () => (log.push("lane"), lane),
    recover: () => Promise.resolve({ worktrees_removed: 0, runs_cancelled: 0, exports: 2, imports: 1 }),
    observeAndPlan: () => {
      const decision = decisions.shift() ?? { kind: "halt", reason: "all_targets_exhausted", detail: "done" };
      const obs = [{ kind: "observation", markers: ["m"] }] as unknown as ObservationLine[];
      return Promise.resolve({ obs, targets: [], decision });
    },
    refine: (p) => Promise.resolve({ plan: p, discarded: null }),
    act: (p, deadline) => {
      log.push(`act ${p.plan_id} by ${deadline}`);
      t += 500;
      const r = opts.act ? opts.act(p) : result(p);
      return Promise.resolve({ result: r, code: r ? 0 : 1, stderr: r ? "" : "forge-act: broke\n" });
    },
    exportAct: (r) => Promise.resolve({ exports: r ? 3 : 1, imports: r ? 2 : 0 }),
    record: (a) => void history.push(a),
    progress: (line) => void log.push(line),
    final: () => Promise.resolve({ obs: [], issueNumbers: new Map() }),
  };
  return { deps, log, history };
}

const config = (c: Partial<LoopConfig> = {}): LoopConfig => ({ ...defaults("/r"), ...c });

test("runLoop: acts until forge-plan halts; the report counts what each step did, the lane closes", async (t) => {
  const { deps, log, history } = fake([plan(1), plan(2)]);
  const rep = await runLoop(deps, config());
  t.is(rep.halt_reason, "all_targets_exhausted");
  t.is(rep.halt_detail, "done");
  t.is(rep.iterations, 2);
  t.is(rep.actions_executed, 2);
  t.is(rep.exports, 2 + 3 + 3);
  t.is(rep.imports, 1 + 2 + 2);
  t.is(rep.degraded_iterations, 3);
  t.deepEqual(rep.targets_investigated, ["t1", "t0"]);
  const attempts = history.map((h) => [h.plan_id, h.act_id, h.outcome_signature]);
  t.deepEqual(attempts, [
    ["p1", "a-p1", "ok"],
    ["p2", "a-p2", "ok"],
  ]);
  t.deepEqual(
    log.filter((l) => l.startsWith("forge-pilot: ")),
    ["forge-pilot: 1: t1 CheckRerun → ok 0.5 s", "forge-pilot: 2: t0 CheckRerun → ok 0.5 s"]
  );
  t.is(log[0], "lane");
  t.is(log.at(-1), "close");
  t.deepEqual(Object.keys(rep), [
    "kind",
    "schema_version",
    "iterations",
    "actions_executed",
    "exports",
    "imports",
    "halt_reason",
    "halt_detail",
    "targets_investigated",
    "degraded_iterations",
    "elapsed_seconds",
    "advisory_steps",
    "deadline_overruns",
    "refinements_discarded",
    "act_errors",
    "recovered",
    "findings",
    "config",
  ]);
});

test("runLoop: budgets halt it at the top of an iteration; the act gets the deadline; cooldown sleeps", async (t) => {
  const many = () => Array.from({ length: 10 }, (_, i) => plan(i));
  const a = await runLoop(fake(many()).deps, config({ maxIterations: 3 }));
  t.is(a.halt_reason, "max_iterations_reached");
  t.is(a.halt_detail, "3 iterations");
  const b = fake(many());
  const rep = await runLoop(b.deps, config({ timeBudget: 1, cooldown: 1 }));
  t.is(rep.halt_reason, "time_budget_exhausted");
  t.is(rep.halt_detail, "1 s spent");
  t.deepEqual(
    b.log.filter((l) => l.startsWith("act ") || l.startsWith("sleep")),
    ["act p0 by 1001000", "sleep 1000"]
  );
  t.deepEqual(rep.deadline_overruns, [{ iteration: 1, target_key: null, overrun_ms: 500 }]);
});

test("runLoop: an external halt, an act error, a parity violation, a halt reason not forge-plan's", async (t) => {
  const ext = await runLoop(fake([plan(1)], { halt: () => "signal SIGTERM" }).deps, config());
  t.deepEqual([ext.halt_reason, ext.halt_detail, ext.iterations], ["external_halt", "signal SIGTERM", 0]);
  const err = fake([plan(1)], { act: () => null });
  const rep = await runLoop(err.deps, config());
  t.deepEqual(rep.act_errors, [{ iteration: 1, target_key: "t1", why: "forge-act: broke" }]);
  t.is(err.history[0]!.outcome_signature, "error:exit1");
  t.is(rep.actions_executed, 0);
  const broken = fake([plan(1), plan(2)], { act: (p) => result(p, { parity_violation: true }) });
  const parity = await runLoop(broken.deps, config());
  t.is(parity.halt_reason, "parity_violation");
  t.is(parity.iterations, 1);
  const odd = await runLoop(fake([{ kind: "halt", reason: "whatever", detail: "x" }]).deps, config());
  t.is(odd.halt_reason, "nothing_worth_investigating");
});

test("runLoop: the oracle bounds are applied to the plan the act gets", async (t) => {
  const seen: Plan[] = [];
  const p = { ...plan(1), plan_kind: "OracleDeltaParity", params: { max_iterations: 50 } } as unknown as Plan;
  const deps = fake([p], { act: (q) => (seen.push(q), result(q)) }).deps;
  await runLoop(deps, config({ maxIterations: 1, oracleMaxIterations: 4 }));
  t.is((seen[0]!.params as { max_iterations: number }).max_iterations, 4);
});
