import test from "ava";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { type LoopContext, startLoop, submitReport } from "./engine.js";
import { loadLoop } from "./store.js";

const node = process.execPath;

function ctx(): LoopContext {
  const root = mkdtempSync(join(tmpdir(), "loop-engine-"));
  mkdirSync(join(root, ".forge"));
  writeFileSync(join(root, "ok.js"), "process.exit(0)\n");
  return {
    store: storeAt(join(root, ".forge")),
    env: { PATH: process.env.PATH },
    now: () => new Date("2026-12-01T09:00:00Z"),
    note: () => undefined,
  };
}

const rep = (o: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: "loopforge.round-report",
    outcome: "partial",
    continuation: "continue",
    summary: "s",
    violations: [],
    ...o,
  });

async function begin(c: LoopContext, maxRounds = 20) {
  const s = await startLoop(c, {
    task: "goal",
    constraints: ["hard one"],
    criteria: [{ text: "ok passes", argv: [node, "ok.js"] }],
    maxRounds,
    domain: null,
    promptBudget: 6000,
    checkTimeoutMs: 120_000,
  });
  return {
    id: s.loop_id as string,
    cr: (s.criteria as Array<{ id: string }>)[0]!.id,
    c: (s.constraints as Array<{ id: string }>)[0]!.id,
  };
}

test(
  "submitReport() applies sub-goals, discovered constraints, facts and criterion revisions of an accepted round; " +
    "the next prompt is L2",
  async (t) => {
    const c = ctx();
    const { id, cr } = await begin(c);
    const r = await submitReport(
      c,
      id,
      rep({
        subGoalEvents: [{ event: "added", text: "write the parser" }],
        discoveries: { constraints: ["keep the public API"], facts: ["the parser is in src/p.ts"] },
        criterionRevisions: [{ from: cr, to: "ok passes on node 20", reason: "the CI runs node 20" }],
      }),
      "next"
    );
    t.is(r.decision, "accepted");
    const changes = r.changes as string[];
    t.true(changes.some((x) => x.startsWith("subgoal_added sg-")));
    t.true(changes.some((x) => x.startsWith("constraint_discovered c-")));
    t.true(changes.some((x) => x.startsWith(`criterion_revised ${cr} -> cr-`)));
    const l = await loadLoop(c.store, id);
    const old = l.state.criteria.find((x) => x.id === cr)!;
    const neu = l.state.criteria.find((x) => x.revisedFrom === cr)!;
    t.deepEqual([old.status, old.revisedTo], ["revised", neu.id]);
    t.deepEqual(neu.argv, [node, "ok.js"], "a revision keeps the declared check");
    t.is(l.state.level, "L2");
    t.regex(l.prompt, /keep the public API/);
    t.regex(l.prompt, /\[sg-[0-9a-f]{8}\] write the parser/);
    t.regex(l.prompt, new RegExp(`\\[${cr}\\] ok passes → \\[${neu.id}\\]`));
    // The sub-goal completes by id; an ordinary round after that is L1.
    const sg = l.state.subGoals[0]!.id;
    const r2 = await submitReport(c, id, rep({ subGoalEvents: [{ event: "completed", id: sg }] }), "next");
    t.true((r2.changes as string[]).includes(`subgoal_completed ${sg}`));
    t.is((await loadLoop(c.store, id)).state.level, "L1");
  }
);

test("submitReport() retires a discovered constraint only with verified evidence, and never a hard one", async (t) => {
  const c = ctx();
  const { id, cr, c: hard } = await begin(c);
  await submitReport(c, id, rep({ discoveries: { constraints: ["no network in tests"] } }), "next");
  const disc = (await loadLoop(c.store, id)).state.constraints.find((x) => x.origin === "discovered")!;
  const noEvidence = await submitReport(
    c,
    id,
    rep({ constraintEvents: [{ id: disc.id, event: "retire", reason: "r", evidenceRefs: ["file:nothing"] }] }),
    "next"
  );
  t.true((noEvidence.changes as string[]).includes(`constraint_retire_refused ${disc.id} (no verified evidence)`));
  const ok = await submitReport(
    c,
    id,
    rep({
      evidence: { claims: [{ id: "proof", targetId: cr, evidenceRefs: [`command:${node} ok.js`] }] },
      constraintEvents: [
        { id: disc.id, event: "retire", reason: "the tests mock the network", evidenceRefs: ["proof"] },
      ],
    }),
    "next"
  );
  t.true(
    (ok.changes as string[]).includes(`constraint_retired ${disc.id}`),
    JSON.stringify([ok.decision, ok.reason, ok.findings])
  );
  await t.throwsAsync(
    submitReport(
      c,
      id,
      rep({ constraintEvents: [{ id: hard, event: "retire", reason: "r", evidenceRefs: ["proof"] }] }),
      "next"
    ),
    { message: /hard constraint given at start cannot be retired/ }
  );
});

test("submitReport() rejects a round that reports a violation, and leaves the report's facts out", async (t) => {
  const c = ctx();
  const { id, c: hard } = await begin(c);
  const r = await submitReport(c, id, rep({ violations: [hard], discoveries: { facts: ["should not land"] } }), "next");
  t.is(r.decision, "rejected");
  t.regex(r.reason as string, /^constraint_violation/);
  t.deepEqual((await loadLoop(c.store, id)).state.facts, []);
});

test("every 5th round is a checkpoint at L2", async (t) => {
  const c = ctx();
  const { id } = await begin(c);
  const levels: string[] = [];
  for (let i = 0; i < 6; i++) levels.push(((await submitReport(c, id, rep(), "next")).next as { level: string }).level);
  t.deepEqual(levels, ["L1", "L1", "L1", "L1", "L2", "L1"], "rounds 2..7");
});

test("a loop's files are the same bytes whoever reads them (status is an interrogator)", async (t) => {
  const c = ctx();
  const { id } = await begin(c);
  const md = join(c.store.dir, "loops", id, "loop.md");
  const before = readFileSync(md, "utf8");
  await loadLoop(c.store, id);
  t.is(readFileSync(md, "utf8"), before);
});

test("a timeline larger than a frontmatter file (256 KiB) still reads: events.jsonl has its own bound", async (t) => {
  const c = ctx();
  const { id } = await begin(c);
  const facts = Array.from({ length: 60 }, (_, i) => `${i} ${"x".repeat(3990)}`);
  await submitReport(c, id, rep({ discoveries: { facts } }), "next");
  await submitReport(c, id, rep({ discoveries: { facts: facts.map((f) => `y${f}`) } }), "next");
  const l = await loadLoop(c.store, id);
  t.true(Buffer.byteLength(l.eventsText) > 256 * 1024);
  t.is(l.state.round, 3);
  t.is(l.state.facts.length, 50, "facts in loop.md stay bounded");
});

test(
  "loop.md stays bounded: the last 50 rounds are kept, " + "and backtrack finds an older round in the timeline",
  async (t) => {
    const c = ctx();
    const { id } = await begin(c, 100);
    for (let i = 0; i < 55; i++) await submitReport(c, id, rep({ summary: `round ${i + 1}` }), "next");
    const l = await loadLoop(c.store, id);
    t.is(l.state.rounds.length, 50);
    t.is(l.state.rounds[0]!.round, 6);
    const { backtrackLoop } = await import("./engine.js");
    const b = await backtrackLoop(c, id, 2, "too far");
    t.deepEqual([b.decision, b.restoreRound], ["backtracked", 2]);
  }
);
