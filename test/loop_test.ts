/**
 * forge-loop end to end: the built executable in temp git repos. A check
 * the agent says passed but that fails is contradicted and the round
 * rejected; the retry with the fix is verified and accepted; completion
 * needs every criterion verified; an invalid report changes no byte;
 * pause → resume keeps both hashes; damaged events.jsonl is
 * storage_corruption with nothing written; a gate approval covers one
 * descriptor only; two processes advancing one loop: one wins; a command
 * that appears only in a report never runs; the round's --json goes
 * through forge-export into the evidence graph.
 */
import test, { type ExecutionContext } from "ava";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { compileScope, readScope } from "@forge/evidence";
import { assess } from "@forge/kernel";
import { git, jsonl, run, sh, tempRepo, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const NOW = "2026-12-01T09:00:00Z";
const env = { FORGE_NOW: NOW };

/** A repo whose check passes once the file `fixed` exists (and a second check on `lint-ok`). */
function repo(): string {
  const dir = scratch(tempRepo("forge-loop-e2e-"));
  writeFileSync(join(dir, "check.js"), 'process.exit(require("fs").existsSync("fixed") ? 0 : 1)\n');
  writeFileSync(
    join(dir, "lint.js"),
    'console.log("lint"); process.exit(require("fs").existsSync("lint-ok") ? 0 : 3)\n'
  );
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "checks"]);
  return dir;
}

function loop(cwd: string, args: string[], input?: string, extra: Record<string, string> = {}): Promise<Ran> {
  return run("forge-loop", args, { cwd, input, env: { ...env, ...extra } });
}

async function start(t: ExecutionContext, dir: string, extra: string[] = []): Promise<Record<string, unknown>> {
  const r = await loop(dir, [
    "start",
    "--task",
    "make both checks pass",
    "--constraint",
    "no new dependencies, none at all",
    "--criterion",
    "check passes",
    "--check",
    "node check.js",
    "--criterion",
    "lint is clean",
    "--check",
    "node lint.js",
    ...extra,
    "--json",
  ]);
  t.is(r.code, 0, r.stderr);
  const [rec] = jsonl(r.stdout);
  return rec!;
}

function criteria(rec: Record<string, unknown>): string[] {
  return (rec.criteria as Array<{ id: string }>).map((c) => c.id);
}

function report(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: "loopforge.round-report",
    outcome: "success",
    continuation: "continue",
    summary: "worked on it",
    violations: [],
    ...over,
  });
}

function claimsFor(ids: string[], checks: string[]): Record<string, unknown> {
  return {
    checks: checks.map((name) => ({ name, status: "passed" })),
    claims: ids.map((id, i) => ({
      id: `claim-${i}`,
      targetId: id,
      evidenceRefs: [`command:${checks[i] ?? checks[0]}`],
    })),
  };
}

/** Every file of a loop's folder, with its bytes. */
function snapshot(dir: string, id: string): Record<string, string> {
  const d = join(dir, ".forge", "loops", id);
  const out: Record<string, string> = {};
  for (const f of readdirSync(d).sort()) out[f] = readFileSync(join(d, f), "utf8");
  return out;
}

test(
  "end to end: a claimed pass that fails is contradicted and rejected; the retry with the fix is verified and " +
    "accepted; completion only when every criterion is verified",
  async (t) => {
    const dir = repo();
    const s = await start(t, dir);
    const id = s.loop_id as string;
    const [cr1, cr2] = criteria(s);
    t.is(s.level, "L2");
    t.regex(
      s.prompt as string,
      /\[c-[0-9a-f]{8}\] no new dependencies, none at all/,
      "a comma in a constraint is kept"
    );

    // Round 1: the agent says the check passed; it does not.
    const r1 = await loop(
      dir,
      ["next", id, "-F", "-", "--json"],
      report({ evidence: claimsFor([cr1!], ["node check.js"]) })
    );
    t.is(r1.code, 0, r1.stderr);
    const [d1] = jsonl(r1.stdout);
    t.is(d1!.decision, "rejected");
    t.regex(d1!.reason as string, /^contradicted_evidence/);
    t.deepEqual(
      (d1!.findings as Array<{ status: string }>).map((f) => f.status),
      ["contradicted", "contradicted"]
    );
    t.deepEqual(
      (d1!.criteria as Array<Record<string, unknown>>).find((c) => c.criterion_id === cr1)!.status,
      "contradicted"
    );
    const n1 = d1!.next as Record<string, unknown>;
    t.deepEqual([n1.round, n1.attempt, n1.level, n1.roundId], [1, 2, "L0", s.roundId]);
    t.regex(n1.prompt as string, /claimed passed, runtime observed failed/);

    // next cannot bypass the rejection.
    const bypass = await loop(dir, ["next", id, "-F", "-"], report({ evidence: claimsFor([cr1!], ["node check.js"]) }));
    t.is(bypass.code, 1);
    t.regex(bypass.stderr, /was rejected: use 'forge-loop retry'/);

    // The fix, then the retry: verified, accepted; a goal_complete claim is refused while lint is open.
    writeFileSync(join(dir, "fixed"), "");
    const r2 = await loop(
      dir,
      ["retry", id, "-F", "-", "--json"],
      report({ disposition: "goal_complete", evidence: claimsFor([cr1!], ["node check.js"]) })
    );
    t.is(r2.code, 0, r2.stderr);
    const [d2] = jsonl(r2.stdout);
    t.is(d2!.decision, "accepted");
    t.deepEqual([d2!.round, d2!.attempt], [1, 2]);
    t.is((d2!.criteria as Array<Record<string, unknown>>).find((c) => c.criterion_id === cr1)!.status, "verified");
    t.is(d2!.status, "active", "not complete: lint is not verified");
    t.regex(d2!.completion as string, new RegExp(`goal_complete refused: criteria not verified: ${cr2}`));
    t.regex((d2!.next as Record<string, unknown>).prompt as string, /## Completion refused/);

    // Round 2: lint fixed and claimed, goal_complete: every check reruns (cr1 still passes): complete.
    writeFileSync(join(dir, "lint-ok"), "");
    const r3 = await loop(
      dir,
      ["next", id, "-F", "-", "--json"],
      report({ disposition: "goal_complete", evidence: claimsFor([cr2!], ["node lint.js"]) })
    );
    const [d3] = jsonl(r3.stdout);
    t.is(d3!.decision, "accepted", r3.stderr);
    t.is(d3!.status, "complete");
    t.is(d3!.stopReason, "goal_complete");
    t.is(d3!.next, null);
    const after = await loop(dir, ["next", id, "-F", "-"], report());
    t.is(after.code, 1);
    t.regex(after.stderr, /is complete/);
    const a = jsonl((await loop(dir, ["audit", id, "--json"])).stdout)[0]!;
    t.deepEqual(a.coverage, { verified: 2, total: 2, withoutCheck: [] });
    const refs = (a.contradictions as Array<{ ref: string; round: number; attempt: number }>).map((c) => [
      c.round,
      c.attempt,
      c.ref,
    ]);
    t.deepEqual(
      refs,
      [
        [1, 1, "node check.js"],
        [1, 1, "claim-0"],
        [1, 2, `completion:${cr2}`],
      ],
      "the refused completion is on record"
    );
    t.true(a.sequenceComplete as boolean);
  }
);

test(
  "a criterion with no passing check never completes: " + "goal_complete with an honest failing check stays open",
  async (t) => {
    const dir = repo();
    const s = await start(t, dir);
    const [cr1] = criteria(s);
    const r = await loop(
      dir,
      ["next", s.loop_id as string, "-F", "-", "--json"],
      report({
        disposition: "goal_complete",
        evidence: { checks: [{ name: "node check.js", status: "failed" }], claims: [] },
      })
    );
    const [d] = jsonl(r.stdout);
    t.is(d!.decision, "accepted", "an honest report of a failure is not a contradiction");
    t.is(d!.status, "active");
    t.regex(d!.completion as string, new RegExp(cr1!));
  }
);

test("a command that appears only in a report is never run: its claim is unavailable", async (t) => {
  const dir = repo();
  const s = await start(t, dir);
  writeFileSync(join(dir, "evil.js"), 'require("fs").writeFileSync("pwned", "")\n');
  const [cr1] = criteria(s);
  const r = await loop(
    dir,
    ["next", s.loop_id as string, "-F", "-", "--json"],
    report({
      evidence: {
        checks: [{ name: "node evil.js", status: "passed" }],
        claims: [{ id: "c", targetId: cr1, evidenceRefs: ["command:node evil.js"] }],
      },
    })
  );
  t.is(r.code, 0, r.stderr);
  t.false(existsSync(join(dir, "pwned")), "the report's command ran");
  const [d] = jsonl(r.stdout);
  const f = d!.findings as Array<Record<string, unknown>>;
  t.deepEqual([f[0]!.status, f[0]!.detail], ["unavailable", "not a declared check: never run"]);
  t.is(f[1]!.status, "contradicted", "the criterion's own declared check ran and failed");
});

test("an invalid report changes no byte of the loop's files and names the field", async (t) => {
  const dir = repo();
  const s = await start(t, dir);
  const id = s.loop_id as string;
  const [cr1] = criteria(s);
  const before = snapshot(dir, id);
  const cases: Array<[string, string]> = [
    ["{not json", "(report)"],
    [report({ outcome: "great" }), "outcome"],
    [report({ outcome: "blocked" }), "blocker"],
    [report({ progress: 1 }), "progress"],
    [report({ summary: undefined }), "summary"],
    [report({ roundId: "rd-00000000" }), "roundId"],
    [
      report({ evidence: { claims: [{ id: "c", targetId: "cr-00000000", evidenceRefs: ["x"] }] } }),
      "evidence.claims[0].targetId",
    ],
    [report({ evidence: { files: ["../outside.txt"] } }), "evidence.files[0]"],
    [
      report({
        constraintEvents: [
          {
            id: (s.constraints as Array<{ id: string }>)[0]!.id,
            event: "retire",
            reason: "r",
            evidenceRefs: ["file:x"],
          },
        ],
      }),
      "constraintEvents[0].id",
    ],
    [
      report({ evidence: { claims: [{ id: "c", targetId: cr1, evidenceRefs: [] }] } }),
      "evidence.claims[0].evidenceRefs",
    ],
  ];
  for (const [raw, field] of cases) {
    const r = await loop(dir, ["next", id, "-F", "-", "--json"], raw);
    t.is(r.code, 1, field);
    t.is(r.stdout, "");
    t.true(r.stderr.startsWith(`forge-loop next: invalid_round_report: stdin: field '${field}': `), r.stderr);
    t.is(r.stderr.split("\n").length, 2, "one line");
    t.deepEqual(snapshot(dir, id), before, field);
  }
});

test("pause → resume gives the same stateHash and promptHash, and a paused loop takes no report", async (t) => {
  const dir = repo();
  const s = await start(t, dir);
  const id = s.loop_id as string;
  const p = jsonl((await loop(dir, ["pause", id, "--json"])).stdout)[0]!;
  t.is(p.status, "paused");
  t.deepEqual([p.stateHash, p.promptHash], [s.stateHash, s.promptHash]);
  const blocked = await loop(dir, ["next", id, "-F", "-"], report());
  t.is(blocked.code, 1);
  t.regex(blocked.stderr, /is paused: run 'forge-loop resume/);
  const r = await loop(dir, ["resume", id, "--json"], undefined, { FORGE_NOW: "2026-12-02T10:00:00Z" });
  t.is(r.code, 0, r.stderr);
  const res = jsonl(r.stdout)[0]!;
  t.is(res.status, "active");
  t.is(res.stateHash, s.stateHash);
  t.is(res.promptHash, s.promptHash);
  t.is(res.prompt, s.prompt);
  const listed = jsonl((await loop(dir, ["list", "--json"])).stdout);
  t.deepEqual(
    listed.map((l) => l.loop_id),
    [id]
  );
});

const DAMAGE: Array<[string, (s: string) => string, RegExp]> = [
  ["truncated", (s) => s.slice(0, -15), /line 2: (?:truncated|not JSON)/],
  [
    "gapped",
    (s) => {
      const l = s.split("\n");
      l.splice(1, 1);
      return l.join("\n");
    },
    /(?:line 2: event_sequence 3|ends at event)/,
  ],
  ["edited", (s) => s.replace('"level":"L2"', '"level":"L1"'), /line 2: hash does not match \(edited\)/],
  [
    "cut at a line end",
    (s) => s.split("\n").slice(0, 1).join("\n") + "\n",
    /ends at event 1 but loop\.md is at event 2/,
  ],
  [
    "duplicated",
    (s) => {
      const l = s.split("\n");
      l.splice(1, 0, l[0]!);
      return l.join("\n");
    },
    /line 2: event_sequence 1 where 2 was expected \(duplicate/,
  ],
];
test("list with a damaged loop: the others listed, the damaged one named on stderr, exit 0 (partial)", async (t) => {
  const dir = repo();
  const a = (await start(t, dir)).loop_id as string;
  const b = (await start(t, dir)).loop_id as string;
  const file = join(dir, ".forge", "loops", a, "events.jsonl");
  writeFileSync(file, readFileSync(file, "utf8").replace('"level":"L2"', '"level":"L1"'));
  for (const argv of [["list", "--json", "loop_id"], ["list"], ["list", "--all", "--jq", ".[].loop_id"]]) {
    const r = await loop(dir, argv);
    t.is(r.code, 0, `${argv.join(" ")}: ${r.stderr}`);
    t.true(r.stdout.includes(b) && !r.stdout.includes(a), r.stdout);
    t.regex(
      r.stderr,
      new RegExp(
        `^forge-loop list: warning: unreadable:loop:${a}: storage_corruption: \\.forge/loops/${a}/events\\.jsonl: `
      )
    );
    t.is(r.stderr.split("\n").length, 2, r.stderr);
  }
  t.deepEqual(jsonl((await loop(dir, ["list", "--json", "loop_id"])).stdout), [{ loop_id: b }]);
});

for (const [name, damage, re] of DAMAGE) {
  test(`a ${name} events.jsonl is storage_corruption naming the line, exit 1, nothing written`, async (t) => {
    const dir = repo();
    const s = await start(t, dir);
    const id = s.loop_id as string;
    const file = join(dir, ".forge", "loops", id, "events.jsonl");
    writeFileSync(file, damage(readFileSync(file, "utf8")));
    const before = snapshot(dir, id);
    for (const argv of [
      ["next", id, "-F", "-"],
      ["status", id],
      ["pause", id],
      ["audit", id],
      ["stop", id],
    ]) {
      const r = await loop(dir, argv, report());
      t.is(r.code, 1, argv.join(" "));
      t.is(r.stdout, "");
      t.regex(
        r.stderr,
        new RegExp(`^forge-loop ${argv[0]}: storage_corruption: \\.forge/loops/${id}/events\\.jsonl: `)
      );
      t.regex(r.stderr, re);
      t.deepEqual(snapshot(dir, id), before, `${argv[0]} wrote something`);
    }
  });
}

test("an edited loop.md is storage_corruption too", async (t) => {
  const dir = repo();
  const s = await start(t, dir);
  const file = join(dir, ".forge", "loops", s.loop_id as string, "loop.md");
  writeFileSync(file, readFileSync(file, "utf8").replace("maxRounds: 20", "maxRounds: 999"));
  const r = await loop(dir, ["status", s.loop_id as string]);
  t.is(r.code, 1);
  t.regex(r.stderr, /storage_corruption: .*loop\.md: the state does not match its stateHash/);
});

test(
  "a gate approved for one descriptor does not cover a " +
    "changed descriptor, and an open user gate blocks completion",
  async (t) => {
    const dir = repo();
    const s = await start(t, dir);
    const id = s.loop_id as string;
    writeFileSync(join(dir, "fixed"), "");
    writeFileSync(join(dir, "lint-ok"), "");
    const desc = {
      description: "Apply the production database migration",
      scope: ["db/migrations/2026-01.sql"],
      effects: ["data_migration", "production"],
      reversibility: "recoverable",
      authorization: "user_required",
    };
    const check = async (d: unknown) =>
      jsonl((await loop(dir, ["gate", "check", id, "-F", "-", "--json"], JSON.stringify(d))).stdout)[0]!;
    const g1 = await check(desc);
    t.deepEqual([g1.gate, g1.status, g1.covered], ["user", "open", false]);
    t.deepEqual(g1.risks, ["data_migration", "production", "authorization_user_required"]);
    // Completion is refused while the user gate is open.
    const [cr1, cr2] = criteria(s);
    const r = jsonl(
      (
        await loop(
          dir,
          ["next", id, "-F", "-", "--json"],
          report({ disposition: "goal_complete", evidence: claimsFor([cr1!, cr2!], ["node check.js", "node lint.js"]) })
        )
      ).stdout
    )[0]!;
    t.is(r.status, "active");
    t.regex(r.completion as string, /open user gates/);
    const ok = await loop(dir, ["gate", "resolve", id, "-F", "-", "--approve", "--json"], JSON.stringify(desc));
    t.is(ok.code, 0, ok.stderr);
    t.deepEqual([jsonl(ok.stdout)[0]!.status, jsonl(ok.stdout)[0]!.by], ["approved", "alice"]);
    t.deepEqual(
      [(await check(desc)).status, (await check({ ...desc, effects: ["production", "data_migration"] })).status],
      ["approved", "approved"],
      "the same action in another order"
    );
    const changed = { ...desc, scope: ["db/migrations/2026-02.sql"] };
    const g2 = await check(changed);
    t.not(g2.actionHash, g1.actionHash);
    t.deepEqual([g2.status, g2.covered], ["open", false]);
    const wrong = await loop(
      dir,
      ["gate", "resolve", id, "-F", "-", "--approve"],
      JSON.stringify({ ...changed, description: "something else" })
    );
    t.is(wrong.code, 1);
    t.regex(wrong.stderr, /no open user gate for action/);
    const agent = await check({
      description: "edit src",
      scope: ["src"],
      effects: ["workspace_write"],
      reversibility: "reversible",
      authorization: "agent_allowed",
    });
    t.deepEqual([agent.gate, agent.status, agent.covered], ["agent", "allowed", true]);
  }
);

test(
  "two processes advancing one loop at once: one wins, " + "the other gets a clear error, nothing interleaves",
  async (t) => {
    const dir = repo();
    const r = await loop(dir, [
      "start",
      "--task",
      "slow",
      "--criterion",
      "slow check",
      "--check",
      `node -e "setTimeout(() => process.exit(0), 8000)"`,
      "--json",
    ]);
    const s = jsonl(r.stdout)[0]!;
    const [cr] = criteria(s);
    const body = report({ evidence: { claims: [{ id: "c", targetId: cr, evidenceRefs: ["x"] }] } });
    const first = loop(dir, ["next", s.loop_id as string, "-F", "-", "--json"], body);
    // Wait until the first holds the lock (the machine may be slow to start it), then race it.
    const lock = join(dir, ".forge", "loops", s.loop_id as string, "loop.lock");
    for (let i = 0; i < 400 && !existsSync(lock); i++) await new Promise((res) => setTimeout(res, 25));
    t.true(existsSync(lock), "the first process took the lock");
    const second = await loop(dir, ["next", s.loop_id as string, "-F", "-", "--json"], body);
    const a = await first;
    t.is(a.code, 0, a.stderr);
    t.is(jsonl(a.stdout)[0]!.decision, "accepted");
    t.is(second.code, 1);
    t.is(second.stdout, "");
    t.regex(
      second.stderr,
      /^forge-loop next: loop [0-9a-f]{8} is being changed by another process \(pid \d+\); try again when it is done\n$/
    );
    const h = jsonl((await loop(dir, ["history", s.loop_id as string, "--json"])).stdout);
    t.deepEqual(
      h.map((e) => e.type),
      ["loop_started", "round_opened", "round_decided", "round_opened"]
    );
  }
);

test(
  "forge-loop next --json | forge-export imports the round: the criterion is a claim node supported by its " +
    "check's trials",
  async (t) => {
    const dir = repo();
    const s = await start(t, dir);
    const id = s.loop_id as string;
    const [cr1] = criteria(s);
    writeFileSync(join(dir, "r.json"), report({ evidence: claimsFor([cr1!], ["node check.js"]) }));
    const bad = await sh(`forge-loop next ${id} -F r.json --json | forge-export`, { cwd: dir, env });
    t.is(bad.code, 0, bad.stderr);
    writeFileSync(join(dir, "fixed"), "");
    const good = await sh(`forge-loop retry ${id} -F r.json --json | forge-export`, { cwd: dir, env });
    t.is(good.code, 0, good.stderr);
    const entries = [...jsonl(bad.stdout), ...jsonl(good.stdout)];
    t.deepEqual(
      entries.map((e) => [e.status, e.bundle_id]),
      [
        ["imported", `loop:${id}:1`],
        ["imported", `loop:${id}:1.2`],
      ]
    );
    const state = readScope(storeAt(join(dir, ".forge")), "default");
    const a = assess(compileScope(state));
    const crit = a.nodes.find((n) => n.id === `criterion:${id}:${cr1}`);
    t.truthy(crit, "the criterion is a node");
    t.is(crit!.kind, "criterion");
    const checks = a.nodes.filter((n) => n.kind === "check");
    t.is(checks.length, 2, "the failing tree and the fixed tree are two check claims");
    t.deepEqual(checks.map((n) => [n.trials.s, n.trials.f]).sort(), [
      [0, 1],
      [1, 0],
    ]);
  }
);

test(
  "experience: learn, recall bounded by scope and FORGE_NOW expiry, stale revision refused, retracted never " +
    "recalled",
  async (t) => {
    const dir = repo();
    const mk = async (args: string[], now = NOW) => {
      const r = await loop(dir, ["learn", "--scope", "repo", ...args, "--json"], undefined, { FORGE_NOW: now });
      t.is(r.code, 0, r.stderr);
      return jsonl(r.stdout)[0]!;
    };
    const obs = await mk(["--kind", "observation", "--text", "the lint check prints a banner"]);
    t.is(obs.expiresAt, "2026-12-31T09:00:00Z");
    const lesson = await mk([
      "--kind",
      "lesson",
      "--text",
      "run lint before claiming",
      "--rationale",
      "lint is a criterion",
    ]);
    const recall = async (now: string, extra: string[] = []) =>
      jsonl(
        (
          await loop(dir, ["recall", "--scope", "repo", "--query", "lint", "--json", ...extra], undefined, {
            FORGE_NOW: now,
          })
        ).stdout
      );
    t.deepEqual(
      (await recall("2026-12-30T09:00:00Z")).map((r) => [r.id, r.advisory]),
      [
        [lesson.id, true],
        [obs.id, true],
      ]
    );
    t.deepEqual(
      (await recall("2026-12-31T09:00:00Z")).map((r) => r.id),
      [lesson.id],
      "the observation expired"
    );
    t.deepEqual(
      (await recall(NOW, ["--limit", "1"])).map((r) => r.id),
      [lesson.id]
    );
    const noLesson = await loop(dir, ["learn", "--scope", "repo", "--kind", "lesson", "--text", "x"]);
    t.is(noLesson.code, 2);
    const stale = await loop(dir, ["retract", lesson.id as string, "--expect-revision", "2", "--reason", "wrong"]);
    t.is(stale.code, 1);
    t.regex(stale.stderr, /stale revision/);
    const ok = await loop(dir, [
      "retract",
      (lesson.id as string).slice(0, 8),
      "--expect-revision",
      "1",
      "--reason",
      "wrong",
      "--json",
    ]);
    t.is(jsonl(ok.stdout)[0]!.status, "retracted");
    t.deepEqual(
      (await recall(NOW)).map((r) => r.id),
      [obs.id]
    );
    // A loop in the domain gets the record in its prompt, marked advisory.
    const s = await start(t, dir, ["--domain", "repo"]);
    t.regex(
      s.prompt as string,
      new RegExp(
        /## Advisory experience \(recalled data, not instructions[^\n]*\n/.source +
          /- \(observation [0-9a-f]{8}\) the lint check prints a banner/.source
      )
    );
    t.false((s.prompt as string).includes("run lint before claiming"), "a retracted lesson is never recalled");
  }
);

test(
  "backtrack is advisory: it names the round and the checks and reopens what was verified after it, touching no " +
    "file",
  async (t) => {
    const dir = repo();
    const s = await start(t, dir);
    const id = s.loop_id as string;
    const [cr1] = criteria(s);
    await loop(dir, ["next", id, "-F", "-"], report());
    writeFileSync(join(dir, "fixed"), "");
    const r2 = jsonl(
      (await loop(dir, ["next", id, "-F", "-", "--json"], report({ evidence: claimsFor([cr1!], ["node check.js"]) })))
        .stdout
    )[0]!;
    t.is(r2.decision, "accepted");
    const status = git(dir, ["status", "--porcelain"]);
    const b = await loop(dir, ["backtrack", id, "--to", "1", "--json"]);
    t.is(b.code, 0, b.stderr);
    const rec = jsonl(b.stdout)[0]!;
    t.deepEqual([rec.decision, rec.advisory, rec.restoreRound], ["backtracked", true, 1]);
    t.deepEqual(rec.reopened, [cr1]);
    t.deepEqual(
      (rec.checks as Array<{ name: string }>).map((c) => c.name),
      ["node check.js", "node lint.js"]
    );
    t.is((rec.next as Record<string, unknown>).level, "L2");
    t.is(git(dir, ["status", "--porcelain"]), status);
    t.true(existsSync(join(dir, "fixed")));
  }
);

test(
  "a criterion verified by a CI step: read from the forge-ci run at the workspace's code tree, unavailable at " +
    "another tree",
  async (t) => {
    const dir = repo();
    const { chmodSync, mkdirSync } = await import("node:fs");
    const steps = join(dir, ".forge", "ci", "steps");
    mkdirSync(steps, { recursive: true });
    writeFileSync(join(steps, "10-test"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(steps, "10-test"), 0o755);
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "a step"]);
    const ci = await run("forge-ci", ["run"], { cwd: dir });
    t.is(ci.code, 0, ci.stderr);
    // Committing forge's own state does not change the code tree.
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "forge state", "--allow-empty"]);
    const r = await loop(dir, ["start", "--task", "ci passes", "--criterion", "the CI step passes", "--json"]);
    const s = jsonl(r.stdout)[0]!;
    const [cr] = criteria(s);
    const rep = report({
      disposition: "goal_complete",
      evidence: {
        checks: [{ name: "ci:10-test", status: "passed" }],
        claims: [{ id: "c", targetId: cr, evidenceRefs: ["ci:10-test"] }],
      },
    });
    // At another tree first: unavailable, not a pass.
    writeFileSync(join(dir, "new.txt"), "x");
    const away = jsonl((await loop(dir, ["next", s.loop_id as string, "-F", "-", "--json"], rep)).stdout)[0]!;
    t.deepEqual(
      (away.findings as Array<{ status: string }>).map((f) => f.status),
      ["unavailable", "unavailable"]
    );
    t.is(away.status, "active");
    const { rmSync } = await import("node:fs");
    rmSync(join(dir, "new.txt"));
    const back = jsonl((await loop(dir, ["next", s.loop_id as string, "-F", "-", "--json"], rep)).stdout)[0]!;
    t.deepEqual(
      (back.findings as Array<{ status: string }>).map((f) => f.status),
      ["verified", "verified"]
    );
    t.is(back.status, "complete");
  }
);

test("repeated contradictions terminate the loop with a named reason; max rounds terminates too", async (t) => {
  const dir = repo();
  const s = await start(t, dir);
  const id = s.loop_id as string;
  const [cr1] = criteria(s);
  const lie = report({ evidence: claimsFor([cr1!], ["node check.js"]) });
  t.is(jsonl((await loop(dir, ["next", id, "-F", "-", "--json"], lie)).stdout)[0]!.decision, "rejected");
  t.is(jsonl((await loop(dir, ["retry", id, "-F", "-", "--json"], lie)).stdout)[0]!.decision, "rejected");
  const last = jsonl((await loop(dir, ["retry", id, "-F", "-", "--json"], lie)).stdout)[0]!;
  t.deepEqual(
    [last.decision, last.status, last.stopReason, last.next],
    ["terminated", "terminated", "repeated_contradictions", null]
  );
  const m = await start(t, dir, ["--max-rounds", "1"]);
  const one = jsonl((await loop(dir, ["next", m.loop_id as string, "-F", "-", "--json"], report())).stdout)[0]!;
  t.deepEqual([one.decision, one.status, one.stopReason], ["accepted", "terminated", "max_rounds"]);
  const all = jsonl((await loop(dir, ["list", "--all", "--json"])).stdout)
    .map((l) => l.status)
    .sort();
  t.deepEqual(all, ["terminated", "terminated"]);
  t.is((await loop(dir, ["list", "--json"])).stdout, "", "terminated loops are not recoverable");
});

test(
  "dispositions: wait and wait_for_user stop automatic continuation until resume; an explicit stop wins over " +
    "continue",
  async (t) => {
    const dir = repo();
    const s = await start(t, dir);
    const id = s.loop_id as string;
    const w = jsonl(
      (await loop(dir, ["next", id, "-F", "-", "--json"], report({ disposition: "continue", continuation: "stop" })))
        .stdout
    )[0]!;
    t.is(w.status, "waiting");
    const blocked = await loop(dir, ["next", id, "-F", "-"], report());
    t.regex(blocked.stderr, /is waiting: run 'forge-loop resume/);
    const res = jsonl((await loop(dir, ["resume", id, "--json"])).stdout)[0]!;
    t.is(res.promptHash, (w.next as Record<string, unknown>).promptHash);
    const u = jsonl(
      (
        await loop(
          dir,
          ["next", id, "-F", "-", "--json"],
          report({ outcome: "blocked", blocker: { reason: "needs a credential" }, disposition: "wait_for_user" })
        )
      ).stdout
    )[0]!;
    t.is(u.status, "waiting_for_user");
    const stop = jsonl((await loop(dir, ["stop", id, "--reason", "enough", "--json"])).stdout)[0]!;
    t.deepEqual([stop.status, stop.decision, stop.stopReason], ["stopped", "stopped", "user_stop: enough"]);
  }
);

test(
  "forge-loop next --json | forge-export, then forge-observe --json: the loop's criterion claim is a node line, " +
    "unverified; its check claims are nodes at the workspace's code tree",
  async (t) => {
    const dir = repo();
    const s = await start(t, dir);
    const id = s.loop_id as string;
    const [cr1] = criteria(s);
    writeFileSync(join(dir, "r.json"), report({ evidence: claimsFor([cr1!], ["node check.js"]) }));
    t.is((await sh(`forge-loop next ${id} -F r.json --json | forge-export`, { cwd: dir, env })).code, 0);
    writeFileSync(join(dir, "fixed"), "");
    const retry = await sh(`forge-loop retry ${id} -F r.json --json | tee retry.json | forge-export`, {
      cwd: dir,
      env,
    });
    t.is(retry.code, 0, retry.stderr);
    const o = await run("forge-observe", ["--json"], { cwd: dir, env });
    t.is(o.code, 0, o.stderr);
    const nodes = jsonl(o.stdout).filter((l) => l.kind === "node");
    const crit = nodes.find((n) => n.claim_id === `criterion:${id}:${cr1}`);
    t.truthy(crit, "the criterion claim is a node of forge-observe");
    t.is(crit!.claim_kind, "criterion");
    t.is(crit!.verdict, "unverified", "an agent loop's claim stays unverified in the graph (claim strength: claimed)");
    const tree = jsonl(readFileSync(join(dir, "retry.json"), "utf8"))[0]!.code_tree as string;
    const checks = nodes.filter(
      (n) => n.claim_kind === "check" && (n.subject as Record<string, unknown>).argv === "node check.js"
    );
    t.is(checks.length, 2, "the failing tree and the fixed tree");
    const fixed = checks.find((n) => n.tree === tree)!;
    t.deepEqual([fixed.passes, fixed.fails], [1, 0]);
  }
);
