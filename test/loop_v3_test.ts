/**
 * forge-loop against loopforge 3.0's round rules, end to end with the built
 * executable (issue 32 item 10; each of these failed on main): drift is
 * detected from a stated intent, shown in the next prompt, and answered by
 * a `driftClarification` anchored to an id or a workspace file (validated:
 * a made-up anchor is an invalid report) or it rejects; an objective
 * refinement is taken into the state only when anchored; a phase boundary
 * only when the round closed something; a context request is shown once;
 * rejections escalate per rule (the third of one rule terminates, after
 * its guided retry; three of different rules do not); `--max-rounds`
 * counts the accepted rounds in effect, not abandoned ones; a gate cannot
 * be resolved on an ended loop (gates close with it); a prompt whose
 * protected part passes its budget says so.
 */
import test, { type ExecutionContext } from "ava";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, tempRepo, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const env = { FORGE_NOW: "2026-12-01T09:00:00Z" };

/** A repo whose check passes once the file `fixed` exists. */
function repo(): string {
  const dir = scratch(tempRepo("forge-loop-v3-"));
  writeFileSync(join(dir, "check.js"), 'process.exit(require("fs").existsSync("fixed") ? 0 : 1)\n');
  writeFileSync(join(dir, "notes.md"), "why the parser matters\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "checks"]);
  return dir;
}

function loop(cwd: string, args: string[], input?: string): Promise<Ran> {
  return run("forge-loop", args, { cwd, input, env });
}

type Rec = Record<string, unknown>;

async function start(t: ExecutionContext, dir: string, extra: string[] = []): Promise<{ id: string; cr: string }> {
  const r = await loop(dir, [
    "start",
    "--task",
    "make the parser check pass",
    "--constraint",
    "no new dependencies",
    "--criterion",
    "parser check passes",
    "--check",
    "node check.js",
    ...extra,
    "--json",
  ]);
  t.is(r.code, 0, r.stderr);
  const rec = jsonl(r.stdout)[0]!;
  return { id: rec.loop_id as string, cr: (rec.criteria as Array<{ id: string }>)[0]!.id };
}

function report(over: Rec = {}): string {
  return JSON.stringify({
    format: "loopforge.round-report",
    outcome: "partial",
    continuation: "continue",
    summary: "worked on it",
    violations: [],
    ...over,
  });
}

async function submit(t: ExecutionContext, dir: string, verb: string, id: string, r: string): Promise<Rec> {
  const out = await loop(dir, [verb, id, "-F", "-", "--json"], r);
  t.is(out.code, 0, out.stderr);
  return jsonl(out.stdout)[0]!;
}

const prompt = (r: Rec): string => ((r.next as Rec | null)?.prompt as string | undefined) ?? "";
const files = (dir: string, id: string): string =>
  readFileSync(join(dir, ".forge", "loops", id, "loop.md"), "utf8") +
  readFileSync(join(dir, ".forge", "loops", id, "events.jsonl"), "utf8");

const OFF = { agentIntent: "redesign the billing dashboard colours" };

test(
  "drift: an intent off the objective is detected, shown at L2, and a driftClarification anchored to an id is " +
    "taken",
  async (t) => {
    const dir = repo();
    const { id, cr } = await start(t, dir);
    // No drift yet: a clarification has nothing to clarify (an input error, nothing written).
    const early = await loop(
      dir,
      ["next", id, "-F", "-"],
      report({ driftClarification: { explanation: "the parser is needed by the dashboard", anchor: cr } })
    );
    t.is(early.code, 1);
    t.regex(early.stderr, /field 'driftClarification': no drift was detected/);

    const r1 = await submit(t, dir, "next", id, report(OFF));
    t.is(r1.decision, "accepted");
    t.true((r1.changes as string[]).includes("drift_detected"));
    const drifting = jsonl((await loop(dir, ["status", id, "--json", "drift,acceptedRounds"])).stdout)[0]!;
    t.regex(String(drifting.drift), /^round 1: /, "status --json shows the drift waiting for a clarification");
    t.is(drifting.acceptedRounds, 1);
    t.is((r1.next as Rec).level, "L2");
    t.regex(
      prompt(r1),
      /## Drift detected\nround 1: the stated intent 'redesign the billing dashboard colours' names no/
    );

    // A made-up anchor, a path outside the workspace, a missing file: invalid reports, no byte written.
    const before = files(dir, id);
    for (const [anchor, why] of [
      ["cr-00000000", /cr-00000000 is not a live criterion/],
      ["../outside.txt", /a path inside the workspace/],
      ["docs/none.md", /neither a live criterion, constraint or sub-goal id nor a file in the workspace/],
    ] as const) {
      const bad = await loop(
        dir,
        ["next", id, "-F", "-"],
        report({ driftClarification: { explanation: "the dashboard renders the parser output", anchor } })
      );
      t.is(bad.code, 1, anchor);
      t.regex(bad.stderr, /invalid_round_report: .*field 'driftClarification\.anchor': /);
      t.regex(bad.stderr, why);
    }
    const waiver = await loop(dir, ["next", id, "-F", "-"], report({ clarification_accepted: true }));
    t.regex(waiver.stderr, /field 'clarification_accepted': unknown field/, "no waiver boolean");
    t.is(files(dir, id), before);

    const r2 = await submit(
      t,
      dir,
      "next",
      id,
      report({ driftClarification: { explanation: "the dashboard renders the parser's output tables", anchor: cr } })
    );
    t.is(r2.decision, "accepted");
    t.true((r2.changes as string[]).includes(`drift_clarified ${cr}`));
    t.notRegex(prompt(r2), /Drift detected/);
    const st = jsonl((await loop(dir, ["status", id, "--json"])).stdout)[0]!;
    t.is(st.lastDecision, "accepted");
    t.is(st.drift, null, "a clarified drift is gone from the status");
    t.regex(readFileSync(join(dir, ".forge", "loops", id, "loop.md"), "utf8"), /drift clarified \(round 2, cr-/);
  }
);

test(
  "drift left unanswered rejects (intent_drift) and escalates: a guided retry, " + "then a file anchor clears it",
  async (t) => {
    const dir = repo();
    const { id } = await start(t, dir);
    await submit(t, dir, "next", id, report(OFF));
    const r1 = await submit(t, dir, "next", id, report());
    t.is(r1.decision, "rejected");
    t.regex(r1.reason as string, /^intent_drift: round 1: /);
    const r2 = await submit(t, dir, "retry", id, report());
    t.is(r2.decision, "rejected");
    t.true((r2.changes as string[]).includes("guided_retry intent_drift"));
    t.regex(
      prompt(r2),
      /Guided retry: intent_drift has rejected this round 2 times; one more rejection by it terminates/
    );
    const r3 = await submit(
      t,
      dir,
      "retry",
      id,
      report({
        driftClarification: { explanation: "notes.md records why the parser matters here", anchor: "notes.md" },
      })
    );
    t.is(r3.decision, "accepted");
    t.true((r3.changes as string[]).includes("drift_clarified notes.md"));
  }
);

test(
  "escalation is per rule: three rejections by different rules do not terminate; a rule's third does, after its " +
    "guided retry",
  async (t) => {
    const dir = repo();
    const { id, cr } = await start(t, dir);
    const lie = report({
      evidence: {
        checks: [{ name: "node check.js", status: "passed" }],
        claims: [{ id: "claim-1", targetId: cr, evidenceRefs: ["command:node check.js"] }],
      },
    });
    const broke = report({ violations: ["added a dependency"] });
    const seq: Array<[string, string, string]> = [
      ["next", lie, "rejected"],
      ["retry", broke, "rejected"],
      ["retry", lie, "rejected"], // contradictions: 2 (its guided retry)
      ["retry", broke, "rejected"], // violations: 2
    ];
    for (const [verb, r, want] of seq) t.is((await submit(t, dir, verb, id, r)).decision, want);
    const last = await submit(t, dir, "retry", id, lie);
    t.deepEqual(
      [last.decision, last.status, last.stopReason, last.next],
      ["terminated", "terminated", "repeated_contradictions", null]
    );
  }
);

test(
  "objectiveRefinement: anchored, it is validated and taken into the state and the prompt; " + "unanchored, refused",
  async (t) => {
    const dir = repo();
    const { id, cr } = await start(t, dir);
    const unknown = await loop(dir, ["next", id, "-F", "-"], report({ objectiveRefinement: "cr-00000000 means more" }));
    t.is(unknown.code, 1);
    t.regex(unknown.stderr, /field 'objectiveRefinement': names cr-00000000: not a live criterion/);

    const loose = await submit(t, dir, "next", id, report({ objectiveRefinement: "also make it fast" }));
    t.true((loose.changes as string[]).some((c) => c.startsWith("objective_refinement_refused (no anchor")));
    t.notRegex(prompt(loose), /Objective refinements/);

    const text = `${cr} means the check passes on a fresh clone, not only here`;
    const ok = await submit(t, dir, "next", id, report({ objectiveRefinement: text }));
    t.true((ok.changes as string[]).includes(`objective_refined ${cr}`));
    t.is((ok.next as Rec).level, "L2");
    t.regex(
      prompt(ok),
      new RegExp(`## Objective refinements \\(clarify the goal, never replace it\\)\\n- \\(round 2, ${cr}\\) `)
    );
    t.regex(readFileSync(join(dir, ".forge", "loops", id, "loop.md"), "utf8"), /^refinements:\n {2}- round: 2\n/m);
    const st = jsonl((await loop(dir, ["status", id, "--json", "refinements"])).stdout)[0]!;
    t.deepEqual(st, { refinements: [{ round: 2, text, anchor: cr }] });
  }
);

test("phaseBoundaryProposal: refused when the round closed nothing, taken when a criterion was verified", async (t) => {
  const dir = repo();
  const { id, cr } = await start(t, dir);
  const no = await submit(t, dir, "next", id, report({ phaseBoundaryProposal: { label: "polish", reason: "done" } }));
  t.true((no.changes as string[]).includes("phase_boundary_refused (nothing was verified or completed this round)"));
  t.notRegex(prompt(no), /^Phase:/m);
  writeFileSync(join(dir, "fixed"), "");
  const yes = await submit(
    t,
    dir,
    "next",
    id,
    report({
      phaseBoundaryProposal: "polish",
      evidence: { claims: [{ id: "claim-1", targetId: cr, evidenceRefs: ["command:node check.js"] }] },
    })
  );
  t.true((yes.changes as string[]).includes("phase_boundary polish"));
  t.is((yes.next as Rec).level, "L2");
  t.regex(prompt(yes), /^Phase: polish \(since round 3\)$/m);
});

test("contextRequest: shown in the next prompt only (expansion gives L2), then dropped", async (t) => {
  const dir = repo();
  const { id } = await start(t, dir);
  const r1 = await submit(
    t,
    dir,
    "next",
    id,
    report({ contextRequest: { kind: "expansion", text: "show the verified criteria again" } })
  );
  t.true((r1.changes as string[]).includes("context_request expansion"));
  t.is((r1.next as Rec).level, "L2");
  t.regex(prompt(r1), /## Context requested by the last report .*\n- expansion: show the verified criteria again\n/);
  const r2 = await submit(t, dir, "next", id, report());
  t.notRegex(prompt(r2), /Context requested/);
  const bad = await loop(dir, ["next", id, "-F", "-"], report({ contextRequest: { kind: "orders", text: "x" } }));
  t.regex(bad.stderr, /field 'contextRequest\.kind': expected one of emphasis\|expansion\|confusion/);
});

test("--max-rounds counts accepted rounds in effect: rounds abandoned by a backtrack do not count", async (t) => {
  const dir = repo();
  const { id } = await start(t, dir, ["--max-rounds", "3"]);
  t.is((await submit(t, dir, "next", id, report())).decision, "accepted"); // round 1
  t.is((await submit(t, dir, "next", id, report())).decision, "accepted"); // round 2
  const back = await loop(dir, ["backtrack", id, "--to", "1", "--json"]);
  t.is(back.code, 0, back.stderr); // round 3 backtracked: round 2 is abandoned, 1 accepted round in effect
  const st = jsonl((await loop(dir, ["status", id, "--json", "acceptedRounds,maxRounds"])).stdout)[0]!;
  t.deepEqual(st, { acceptedRounds: 1, maxRounds: 3 });
  const r4 = await submit(t, dir, "next", id, report());
  t.deepEqual([r4.decision, r4.status], ["accepted", "active"], "2 accepted rounds in effect of 3");
  const r5 = await submit(t, dir, "next", id, report());
  t.deepEqual([r5.decision, r5.status, r5.stopReason], ["accepted", "terminated", "max_rounds"]);
});

test("gates close with their loop: an open user gate cannot be resolved once the loop ended", async (t) => {
  const dir = repo();
  const desc = JSON.stringify({
    description: "Publish the package",
    scope: ["package.json"],
    effects: ["publishing"],
    reversibility: "irreversible",
    authorization: "user_required",
  });
  for (const end of ["stop", "max_rounds"] as const) {
    const { id } = await start(t, dir, end === "max_rounds" ? ["--max-rounds", "1"] : []);
    const g = jsonl((await loop(dir, ["gate", "check", id, "-F", "-", "--json"], desc)).stdout)[0]!;
    t.is(g.status, "open");
    if (end === "stop") t.is((await loop(dir, ["stop", id])).code, 0);
    else {
      const r = await submit(t, dir, "next", id, report());
      t.is(r.stopReason, "max_rounds");
      t.true((r.changes as string[]).some((c) => c.startsWith("gate_closed ")));
    }
    const before = files(dir, id);
    const res = await loop(dir, ["gate", "resolve", id, "-F", "-", "--approve"], desc);
    t.is(res.code, 1, end);
    t.regex(res.stderr, /is (stopped|terminated) \(.*\): its gates closed with it\n$/);
    t.is(files(dir, id), before, "nothing written");
    t.regex(readFileSync(join(dir, ".forge", "loops", id, "loop.md"), "utf8"), /status: closed/);
  }
});

test("a prompt whose protected part passes its byte budget says so", async (t) => {
  const dir = repo();
  const long = "keep the parser's public surface exactly as it is today ".repeat(12).trim();
  const r = await loop(dir, [
    "start",
    "--task",
    long,
    "--constraint",
    long,
    "--criterion",
    long,
    "--prompt-budget",
    "500",
    "--json",
  ]);
  t.is(r.code, 0, r.stderr);
  const p = jsonl(r.stdout)[0]!.prompt as string;
  t.true(Buffer.byteLength(p) > 500);
  t.regex(
    p,
    new RegExp(
      "\\nNote: the protected part of this prompt \\(goal, constraints, open criteria, report line\\) is \\d+ " +
        "bytes, over its budget of 500: it is kept whole and every other section was left out\\.\\n$"
    )
  );
  const ok = await loop(dir, ["start", "--task", "short", "--json"]);
  t.notRegex(jsonl(ok.stdout)[0]!.prompt as string, /Note: the protected part/);
});
