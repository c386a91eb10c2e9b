/**
 * Test reports end to end (issue 26, items 1–3): a step running
 * `node --test --test-reporter=junit` into FORGE_REPORTS_DIR over 50 tests,
 * one of them failing one execution in five; forge-ci records each test,
 * forge-export makes each a check, the pilot reruns the flaky one alone
 * (FORGE_TESTS_PATTERN) and names it flaky with an interval, no other test
 * flaky; hostile JUnit is refused with one line and the run still recorded.
 */
import test from "ava";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

type Rec = Record<string, any>;

/** 49 steady tests in five suites and `parser › handles --`, which fails its executions number 1, 6, 11, … */
function unitTests(): string {
  const lines = [
    'const { describe, it } = require("node:test");',
    'const assert = require("node:assert");',
    'const { closeSync, openSync } = require("node:fs");',
    'const { join } = require("node:path");',
    "// The n-th execution of the flaky test claims file n (exclusive create: parallel trials never share one).",
    "function nth() {",
    "  for (let n = 0; ; n++) {",
    "    try {",
    '      closeSync(openSync(join(process.env.FLAKY_COUNTER, String(n)), "wx"));',
    "      return n;",
    "    } catch {}",
    "  }",
    "}",
  ];
  for (let g = 1; g <= 5; g++) {
    lines.push(`describe("group ${g}", () => {`);
    for (let c = 0; c < (g === 5 ? 9 : 10); c++)
      lines.push(`  it("case ${c}", () => assert.equal(${c} + 1, ${c + 1}));`);
    lines.push("});");
  }
  lines.push('describe("parser", () => {');
  lines.push('  it("handles --", () => assert.notEqual(nth() % 5, 1, "lost the race at " + Date.now()));');
  lines.push("});");
  return lines.join("\n") + "\n";
}

/** The step, as a project writes it: JUnit into FORGE_REPORTS_DIR, and only the asked tests when asked. */
const STEP = `#!/bin/sh
set -e
out="--test-reporter=junit --test-reporter-destination=$FORGE_REPORTS_DIR/junit.xml"
out="$out --test-reporter=spec --test-reporter-destination=stdout"
if [ -n "$FORGE_TESTS_PATTERN" ]; then exec node --test --test-name-pattern="$FORGE_TESTS_PATTERN" $out test/; fi
exec node --test $out test/
`;

function project(): { dir: string; counter: string } {
  const dir = scratch(tempRepo("forge-reports-"));
  const counter = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-flaky-"))));
  mkdirSync(join(dir, "test"));
  writeFileSync(join(dir, "test", "unit.test.js"), unitTests());
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  writeFileSync(join(dir, ".forge", "ci", "steps", "20-unit"), STEP);
  chmodSync(join(dir, ".forge", "ci", "steps", "20-unit"), 0o755);
  writeFileSync(join(dir, ".forge", "ci", "ci.env"), `FLAKY_COUNTER=${counter}\n`);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "a project with node:test"]);
  return { dir, counter };
}

test.serial("50 node:test tests, one flaky: the pilot names that test flaky with an interval, no other", async (t) => {
  // Three base runs and a pilot of about 25 trials: minutes on a loaded machine.
  t.timeout(600_000);
  const { dir, counter } = project();
  // Three runs at the base: every test recorded, the flaky one fails the second (its execution 1).
  const ci = await run("forge-ci", ["run", "--repeat", "3", "--json"], { cwd: dir });
  const runs = jsonl(ci.stdout) as Rec[];
  t.is(runs.length, 3, ci.stderr);
  t.deepEqual(
    runs.map((r) => r.verdict),
    ["pass", "fail", "pass"]
  );
  const tests: Rec[] = runs[1]!.steps[0].tests;
  t.is(tests.length, 50);
  t.is(new Set(tests.map((c) => c.id)).size, 50, "ids are unique");
  t.deepEqual(
    tests.filter((c) => c.outcome !== "pass").map((c) => [c.id, c.outcome]),
    [["parser › handles --", "fail"]]
  );
  t.regex(tests.find((c) => c.outcome === "fail")!.signature, /^sig-v1:[0-9a-f]{32}$/);
  t.regex(ci.stderr, /✓ 20-unit pass [\d.]+ s \(50 tests, 0 failed\)/);
  t.regex(ci.stderr, /X 20-unit fail \(exit 1\) [\d.]+ s \(50 tests, 1 failed\)/);
  // forge-run shows the same tests (gh's run shape, forge's steps).
  const view = await run("forge-run", ["view", runs[1]!.id, "--json", "steps"], { cwd: dir });
  t.deepEqual(JSON.parse(view.stdout).steps[0].tests, tests);

  const pilot = await run("forge-pilot", ["run", "--json", "--time-budget", "240"], { cwd: dir });
  t.is(pilot.code, 0, pilot.stderr);
  const rep = JSON.parse(pilot.stdout.trim().split("\n").pop()!) as Rec;
  const f: string[] = rep.findings;
  const flaky = f.filter((x) => /: flaky/.test(x));
  t.is(flaky.length, 1, f.join("\n"));
  t.regex(flaky[0]!, /^20-unit › parser › handles --: flaky, fail rate 0\.\d\d \[0\.\d\d, 0\.\d\d\], \d+ trials/);
  t.true(
    f.some((x) => x.startsWith("20-unit › group 3 › case 7: passing")),
    f.join("\n")
  );
  t.false(
    f.some((x) => /^20-unit[:]/.test(x)),
    "the step is its tests, not one check"
  );
  // The reruns asked for the flaky test alone: its executions are the only ones counted beyond the base runs.
  const executions = readdirSync(counter).length;
  const rerun = /^20-unit › parser › handles --: flaky, fail rate 0\.\d\d \[[^\]]+\], (\d+) trials/.exec(flaky[0]!)!;
  t.is(executions, Number(rerun[1]), "every execution of the flaky test is one trial, none counted twice");
  const acts = pilot.stderr.split("\n").filter((l) => /^forge-pilot: \d+: fragile:check:/.test(l));
  t.true(acts.length > 0, pilot.stderr);
});

test.serial("a step that ignores FORGE_TESTS reruns whole: every test in it still yields a trial", async (t) => {
  t.timeout(300_000);
  const { dir } = project();
  writeFileSync(join(dir, ".forge", "ci", "steps", "20-unit"), STEP.replace(/^if .*\n/m, ""));
  git(dir, ["commit", "-qam", "a step that runs every test"]);
  const ci = await run("forge-ci", ["run", "--repeat", "3", "--json"], { cwd: dir });
  t.is(jsonl(ci.stdout).length, 3, ci.stderr);
  t.is((await run("forge-export", [], { cwd: dir, input: ci.stdout })).code, 0);
  const plan = await run("forge-plan", ["--json"], { cwd: dir });
  const p = (jsonl(plan.stdout) as Rec[]).find((l) => l.kind === "plan")!;
  t.is(p.plan_kind, "CheckRerun", plan.stdout);
  t.like(p.params, { step: "20-unit", test: "parser › handles --" });
  const act = await run("forge-act", ["--json"], {
    cwd: dir,
    input: JSON.stringify({ ...p, budget: { max_runs: 3 } }),
  });
  t.is(act.code, 0, act.stderr);
  const res = JSON.parse(act.stdout) as Rec;
  t.true(res.trial_refs.every((r: Rec) => r.step === "20-unit › parser › handles --"));
  const exp = await run("forge-ci", ["list", "--json"], { cwd: dir });
  const lane = await run("forge-export", [], { cwd: dir, input: exp.stdout });
  t.is(lane.code, 0, lane.stderr);
  const obs = jsonl((await run("forge-observe", ["--json"], { cwd: dir })).stdout) as Rec[];
  const nodes = obs.filter((o) => o.kind === "node" && o.claim_kind === "check");
  const runsMade = 3 + res.trial_refs.length;
  // Every run ran every test: each test has one trial per run, the flaky one included, none twice.
  const steady = nodes.find((n) => n.subject.test === "group 1 › case 0")!;
  t.is(steady.trials, runsMade);
  t.is(nodes.find((n) => n.subject.test === "parser › handles --")!.trials, runsMade);
  t.is(nodes.length, 51, "50 tests and the step beyond them");
});

test.serial("hostile JUnit is refused with one line; the run is recorded, its step one check", async (t) => {
  t.timeout(300_000);
  const { dir } = project();
  const hostile: Record<string, string> = {
    laughs:
      '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' +
      '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><testsuites><testcase name="&c;"/></testsuites>',
    external:
      '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
      '<testsuites><testcase name="&x;"/></testsuites>',
    deep: `<testsuites>${"<testsuite name='s'>".repeat(5000)}${"</testsuite>".repeat(5000)}</testsuites>`,
  };
  const steps = join(dir, ".forge", "ci", "steps");
  for (const [name, xml] of Object.entries(hostile)) {
    writeFileSync(join(dir, `${name}.xml`), xml);
  }
  // 50 MB, written by the step itself (not committed).
  const writer =
    'node -e \'const fs=require("fs");const fd=fs.openSync(process.argv[1],"w");fs.writeSync(fd,"<testsuites>");' +
    'const b=Buffer.alloc(1<<20,32);for(let i=0;i<50;i++)fs.writeSync(fd,b);fs.writeSync(fd,"</testsuites>")\' ' +
    '"$FORGE_REPORTS_DIR/big.xml"';
  const cases = [...Object.keys(hostile).map((n) => [n, `cp ${n}.xml "$FORGE_REPORTS_DIR/"`]), ["big", writer]];
  let i = 30;
  for (const [name, cmd] of cases) {
    writeFileSync(join(steps, `${i++}-${name}`), `#!/bin/sh\nset -e\n${cmd}\n`);
    chmodSync(join(steps, `${i - 1}-${name}`), 0o755);
  }
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "hostile reports"]);
  const ci = await run("forge-ci", ["run", "--json"], { cwd: dir });
  const [rec] = jsonl(ci.stdout) as Rec[];
  t.is(rec!.status, "completed", ci.stderr);
  const byName = new Map<string, Rec>(rec!.steps.map((s: Rec) => [s.name, s]));
  const why: Record<string, RegExp> = {
    "30-laughs": /^30-laughs: report laughs\.xml: refused: a DOCTYPE or entity declaration/,
    "31-external": /^31-external: report external\.xml: refused: a DOCTYPE or entity declaration/,
    "32-deep": /^32-deep: report deep\.xml: refused: elements nested deeper than 64$/,
    "33-big": /^33-big: report big\.xml: refused: \d+ bytes, over the 8388608 a report may have$/,
  };
  for (const [step, re] of Object.entries(why)) {
    const s = byName.get(step)!;
    t.is(s.outcome, "pass", step);
    t.deepEqual(s.tests, [], step);
    t.regex(s.reportError, re, step);
    const lines = ci.stderr.split("\n").filter((l) => l.includes(`${step}: report`));
    t.is(lines.length, 1, `${step}: one line on stderr\n${ci.stderr}`);
    t.regex(lines[0]!, /^warning: /);
  }
  // The step with good reports still has its tests; a refused step is one check in the evidence.
  t.is(byName.get("20-unit")!.tests.length, 50);
  const lane = await run("forge-export", [], { cwd: dir, input: ci.stdout });
  t.is(lane.code, 0, lane.stderr);
  const obs = jsonl((await run("forge-observe", ["--json"], { cwd: dir })).stdout) as Rec[];
  const checks = obs.filter((o) => o.kind === "node" && o.claim_kind === "check").map((n) => n.subject);
  t.true(checks.some((s) => s.step === "30-laughs" && s.test === undefined));
  t.true(checks.some((s) => s.step === "20-unit" && s.test === "group 2 › case 4"));
});

test.serial("a PR's typed diff is per test: FAIL_TO_PASS and PASS_TO_PASS are test lists (TAP reports)", async (t) => {
  t.timeout(300_000);
  const dir = scratch(tempRepo("forge-reports-pr-"));
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  const step = join(dir, ".forge", "ci", "steps", "20-unit");
  writeFileSync(
    step,
    "#!/bin/sh\n" +
      'if grep -q good int.txt; then b="ok 2 - b"; else b="not ok 2 - b"; fi\n' +
      "printf 'TAP version 13\\n# Subtest: unit\\n    ok 1 - a\\n    %s\\n    1..2\\nok 1 - unit\\n1..1\\n' \"$b\" " +
      '> "$FORGE_REPORTS_DIR/out.tap"\n' +
      "grep -q good int.txt\n"
  );
  chmodSync(step, 0o755);
  writeFileSync(join(dir, "int.txt"), "bad\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  const issue = JSON.parse(
    (await run("forge-issue", ["create", "-t", "b fails", "--json", "id,number"], { cwd: dir })).stdout
  ) as Rec;
  git(dir, ["checkout", "-q", "-b", "fix", "main"]);
  writeFileSync(join(dir, "int.txt"), "good\n");
  git(dir, ["commit", "-qam", "fix"]);
  git(dir, ["checkout", "-q", "main"]);
  const args = ["create", "-t", "fix", "-B", "main", "-H", "fix", "--issue", String(issue.number)];
  const p = JSON.parse(
    (await run("forge-pr", [...args, "--json", "id,number,patchSha256"], { cwd: dir })).stdout
  ) as Rec;
  const checks = ["20-unit › unit › a", "20-unit › unit › b", "20-unit › (outside tests)"];
  const line = {
    kind: "plan",
    plan_id: "p-paired",
    plan_kind: "PairedPatch",
    target_key: "t:paired",
    target_kind: "UnverifiedClaimVersion",
    scope: "default",
    params: {
      pr: { id: p.id, number: p.number },
      patch_sha256: p.patchSha256,
      base_sha: git(dir, ["rev-parse", "main"]).trim(),
      checks,
      repetitions: 3,
      closes: [issue.id],
      flaky_at_base: [],
    },
  };
  const act = await run("forge-act", ["--json"], { cwd: dir, input: JSON.stringify(line) + "\n" });
  t.is(act.code, 0, act.stderr || act.stdout);
  const a = JSON.parse(act.stdout) as Rec;
  t.deepEqual(
    a.typed_diff.map((d: Rec) => [d.check, d.category]),
    [
      ["20-unit › unit › a", "still_passing"],
      ["20-unit › unit › b", "fixed"],
      ["20-unit › (outside tests)", "still_passing"],
    ]
  );
  t.deepEqual(
    a.fixes.map((f: Rec) => [f.holds, f.fail_to_pass, f.pass_to_pass]),
    [[true, ["20-unit › unit › b"], ["20-unit › unit › a", "20-unit › (outside tests)"]]]
  );
  // Through the lane: the PR's effects are per test.
  const runs = (await run("forge-ci", ["list", "--limit", "100", "--json"], { cwd: dir })).stdout;
  const e1 = await run("forge-export", [], { cwd: dir, input: runs });
  t.is(e1.code, 0, e1.stderr);
  const e2 = await run("forge-export", [], { cwd: dir, input: act.stdout });
  t.is(e2.code, 0, e2.stderr);
  const obs = jsonl((await run("forge-observe", ["--json"], { cwd: dir })).stdout) as Rec[];
  const prLine = obs.find((o) => o.kind === "pr")!;
  // (b's patch effect is said by its belief after three runs a side, as a step's is.)
  t.deepEqual(Object.keys(prLine.effects).sort(), [...checks].sort(), JSON.stringify(prLine));
  t.deepEqual(prLine.checks, [...checks].sort(), JSON.stringify(prLine));
});
