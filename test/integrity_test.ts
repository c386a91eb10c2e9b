/**
 * Integrity end to end (issue 32): the one JSON-lines reader refuses a line
 * over its cap with one line naming the limit, forge-plan names the bad
 * field of an observation line, and the degradation law: a damaged import
 * payload or run record is a named marker and the rest of the answer goes on.
 */
import test from "ava";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { git, jsonl, run, sh, tempRepo } from "./lib/run.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function repo(prefix: string): string {
  const dir = tempRepo(prefix);
  made.push(dir);
  return dir;
}

test("a 20 MB stdin line is one error line naming the limit: forge-plan, forge-issue view -", async (t) => {
  const dir = repo("forge-integrity-cap-");
  const long = `{"kind":"observation","scope":"${"x".repeat(20_000_000)}"}\n`;
  const p = await run("forge-plan", ["--json"], { cwd: dir, input: long });
  t.deepEqual([p.code, p.stdout, p.stderr], [1, "", "forge-plan: stdin line 1: longer than the 16 MiB line limit\n"]);
  const v = await run("forge-issue", ["view", "-"], { cwd: dir, input: `{"number":"${"1".repeat(20_000_000)}"}\n` });
  t.is(v.code, 1);
  t.is(v.stdout, "");
  t.is(v.stderr, "forge-issue view: stdin line 1: longer than the 16 MiB line limit\n");
});

test("forge-plan names the observation line and field it cannot read, exit 1, nothing on stdout", async (t) => {
  const dir = repo("forge-integrity-plan-");
  const o = await run("forge-observe", ["--json"], { cwd: dir });
  t.is(o.code, 0, o.stderr);
  const header = jsonl(o.stdout)[0]!;
  const cases: Array<[string, string]> = [
    [JSON.stringify({ ...header, markers: { a: 1 } }), "stdin line 1: observation line: field 'markers'"],
    [
      `${JSON.stringify(header)}\n{"kind":"node","claim_id":"c","claim_kind":"check","current":true,"verdict":"x"}`,
      "stdin line 2: node line: field 'passes': expected a number",
    ],
  ];
  for (const [input, message] of cases) {
    const p = await run("forge-plan", ["--json"], { cwd: dir, input: input + "\n" });
    t.is(p.code, 1, p.stderr);
    t.is(p.stdout, "");
    t.true(p.stderr.startsWith(`forge-plan: ${message}`), p.stderr);
    t.is(p.stderr.split("\n").length, 2, p.stderr);
  }
});

/** A repo with one CI step run twice and exported: two imports, two runs. */
async function exported(
  t: import("ava").ExecutionContext
): Promise<{ dir: string; imports: string[]; runs: string[] }> {
  const dir = repo("forge-integrity-law-");
  const steps = join(dir, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  writeFileSync(join(steps, "10-unit"), "#!/bin/sh\necho ok\n");
  chmodSync(join(steps, "10-unit"), 0o755);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "a step"]);
  for (let i = 0; i < 2; i++) t.is((await run("forge-ci", ["run"], { cwd: dir })).code, 0);
  const e = await sh("forge-ci list --json | forge-export", { cwd: dir });
  t.is(e.code, 0, e.stderr);
  const imports = readdirSync(join(dir, ".forge", "evidence", "imports")).map((n) => n.slice(0, 64));
  const runs = readdirSync(join(dir, ".forge", "ci", "runs")).sort();
  t.is(imports.length, 2);
  t.is(runs.length, 2);
  return { dir, imports, runs };
}

/** The observation's markers and its trials over every node. */
async function observed(
  t: import("ava").ExecutionContext,
  dir: string
): Promise<{ markers: string[]; trials: number }> {
  const o = await run("forge-observe", ["--json"], { cwd: dir });
  t.is(o.code, 0, o.stderr);
  const lines = jsonl(o.stdout);
  const trials = lines.filter((l) => l.kind === "node").reduce((n, l) => n + (l.trials as number), 0);
  return { markers: lines[0]!.markers as string[], trials };
}

for (const [damage, payload, marker] of [
  ["garbage", "garbage", "malformed_kernel_payload"],
  ["a list of numbers", { claims: [], trials: [1, 2], relations: [] }, "malformed_kernel_payload"],
  ["null with no marker", null, "missing_kernel_payload"],
] as Array<[string, unknown, string]>) {
  test(`degradation law: import kernel_payload ${damage}: ${marker}:<batch>, the rest goes on`, async (t) => {
    const { dir, imports } = await exported(t);
    const before = await observed(t, dir);
    t.is(before.trials, 2);
    // The later import: one trial of the claim the first import states (damaging the first would leave the
    // second's trial dangling, rightly folded as nothing).
    const read = (id: string): Record<string, unknown> =>
      JSON.parse(readFileSync(join(dir, ".forge", "evidence", "imports", `${id}.json`), "utf8"));
    const later = imports.find((id) => (read(id).kernel_payload as { claims: unknown[] }).claims.length === 0)!;
    const file = join(dir, ".forge", "evidence", "imports", `${later}.json`);
    const rec = read(later);
    t.is(rec.trials, 1);
    // Without its digest (a record of before digests, read as it was): the payload's own damage is what is read.
    writeFileSync(file, JSON.stringify({ ...rec, kernel_payload: payload, record_sha256: undefined }) + "\n");
    const after = await observed(t, dir);
    t.true(after.markers.includes(`${marker}:${later}`), after.markers.join(" "));
    t.is(after.trials, 1, "the other import's trial is still folded");
    const f = await run("forge", ["fsck"], { cwd: dir });
    t.is(f.code, 1);
    t.true(f.stdout.startsWith(`.forge/evidence/imports/${later}.json: field 'kernel_payload': `), f.stdout);
  });
}

test("degradation law: a damaged run record is unreadable:run:<id>; forge-ci, forge-run list go on", async (t) => {
  const { dir, runs } = await exported(t);
  const [bad, good] = runs as [string, string];
  const summary = join(dir, ".forge", "ci", "runs", bad, "summary.md");
  for (const text of ["garbage\n", `---\nid: ${bad}\nstatus: 7\n---\n`]) {
    writeFileSync(summary, text);
    for (const [cmd, args] of [
      ["forge-ci", ["list", "--json", "id"]],
      ["forge-run", ["list", "--json", "id"]],
    ] as Array<[string, string[]]>) {
      const r = await run(cmd, args, { cwd: dir });
      t.is(r.code, 0, r.stderr);
      t.deepEqual(jsonl(r.stdout), [{ id: good }]);
      t.true(r.stderr.startsWith(`${cmd} list: warning: unreadable:run:${bad}: `), r.stderr);
      t.is(r.stderr.split("\n").length, 2, r.stderr);
    }
    t.true((await observed(t, dir)).markers.includes(`unreadable:run:${bad}`));
  }
  // forge-pilot reads the runs through forge-ci list: the damaged record no longer stops it.
  const p = await run("forge-pilot", ["run", "--json", "--max-iterations", "1"], { cwd: dir });
  t.is(p.code, 0, p.stderr);
  t.like(jsonl(p.stdout).at(-1), { kind: "report", halt_reason: "max_iterations_reached" });
});

test("a valid but edited run record is named by fsck and every reader; one of before reads as it was", async (t) => {
  const { dir, runs } = await exported(t);
  const [bad, good] = runs as [string, string];
  const summary = join(dir, ".forge", "ci", "runs", bad, "summary.md");
  const text = readFileSync(summary, "utf8");
  t.regex(text, /\nrecordSha256: "[0-9a-f]{64}"\n---\n/);
  t.deepEqual(await run("forge", ["fsck"], { cwd: dir }).then((f) => [f.code, f.stdout]), [0, ""]);
  // A failure shown as a pass would be: the record still parses and validates.
  const forged = text.replace("conclusion: success\nverdict: pass\n", "conclusion: failure\nverdict: fail\n");
  t.not(forged, text);
  const why = `.forge/ci/runs/${bad}/summary.md: field 'recordSha256': does not match the file's bytes`;
  for (const edit of [forged, text.replace("| pass |", "| fail |"), text.replace(/"\n---\n/, '"\n---\n\n')]) {
    t.not(edit, text);
    writeFileSync(summary, edit);
    const f = await run("forge", ["fsck"], { cwd: dir });
    t.is(f.code, 1);
    t.true(f.stdout.startsWith(why), f.stdout);
    t.is(f.stdout.split("\n").length, 2, f.stdout);
    const l = await run("forge-ci", ["list", "--json", "id"], { cwd: dir });
    t.is(l.code, 0, l.stderr);
    t.deepEqual(jsonl(l.stdout), [{ id: good }]);
    t.true(l.stderr.startsWith(`forge-ci list: warning: unreadable:run:${bad}: ${why}`), l.stderr);
    const v = await run("forge-ci", ["view", bad], { cwd: dir });
    t.is(v.code, 1);
    t.true(v.stderr.includes(why), v.stderr);
    t.true((await observed(t, dir)).markers.includes(`unreadable:run:${bad}`));
  }
  // A record written before the digest (no such line) is read as it was: fsck quiet, both runs listed.
  writeFileSync(summary, text.replace(/recordSha256: "[0-9a-f]{64}"\n/, ""));
  t.deepEqual(await run("forge", ["fsck"], { cwd: dir }).then((f) => [f.code, f.stdout]), [0, ""]);
  const l = await run("forge-ci", ["list", "--json", "id"], { cwd: dir });
  t.deepEqual([l.code, l.stderr, jsonl(l.stdout).length], [0, "", 2]);
  t.false((await observed(t, dir)).markers.some((m) => m.startsWith("unreadable:")));
});

const LOOP_DAMAGE: Array<[string, "events.jsonl" | "loop.md", (s: string) => string]> = [
  ["truncated", "events.jsonl", (s) => s.slice(0, -15)],
  ["edited", "events.jsonl", (s) => s.replace('"type":"loop_started"', '"type":"loop_startes"')],
  ["cut at a line end", "events.jsonl", (s) => s.split("\n").slice(0, 1).join("\n") + "\n"],
  [
    "duplicated",
    "events.jsonl",
    (s) => {
      const l = s.split("\n");
      l.splice(1, 0, l[0]!);
      return l.join("\n");
    },
  ],
  ["emptied", "events.jsonl", () => ""],
  ["a state edited", "loop.md", (s) => s.replace("goal: ", "goal: not ")],
  ["a prompt edited", "loop.md", (s) => s + "more\n"],
  ["a frontmatter broken", "loop.md", (s) => s.replace("---\n", "")],
];

test("forge fsck finds each damage of a loop's files as forge-loop does, naming the same file and why", async (t) => {
  const dir = repo("forge-integrity-loop-");
  const env = { FORGE_NOW: "2026-12-01T09:00:00Z" };
  const s = await run("forge-loop", ["start", "--task", "make it pass", "--criterion", "c", "--check", "true"], {
    cwd: dir,
    env,
  });
  t.is(s.code, 0, s.stderr);
  const id = readdirSync(join(dir, ".forge", "loops"))[0]!;
  t.is((await run("forge", ["fsck"], { cwd: dir })).stdout, "");
  for (const [name, file, damage] of LOOP_DAMAGE) {
    const path = join(dir, ".forge", "loops", id, file);
    const good = readFileSync(path, "utf8");
    writeFileSync(path, damage(good));
    const l = await run("forge-loop", ["status", id], { cwd: dir, env });
    t.is(l.code, 1, name);
    const m = /^forge-loop status: storage_corruption: (.+)\n$/.exec(l.stderr);
    t.truthy(m, `${name}: ${l.stderr}`);
    const f = await run("forge", ["fsck"], { cwd: dir });
    t.is(f.code, 1, name);
    t.is(f.stdout, `${m![1]}\n`, name);
    writeFileSync(path, good);
  }
});

/** An import file's path and parsed record. */
function importFile(dir: string, id: string): { file: string; rec: Record<string, unknown> } {
  const file = join(dir, ".forge", "evidence", "imports", `${id}.json`);
  return { file, rec: JSON.parse(readFileSync(file, "utf8")) };
}

/** The import holding no claim (only a trial of the other's claim). */
function laterImport(dir: string, imports: string[]): string {
  return imports.find((id) => (importFile(dir, id).rec.kernel_payload as { claims: unknown[] }).claims.length === 0)!;
}

for (const [damage, edit] of [
  ["not JSON", () => "garbage\n"],
  ["a trial's outcome flipped", (s: string) => s.replace('"outcome":"pass"', '"outcome":"fail"')],
  ["cut short", (s: string) => s.slice(0, 100)],
] as Array<[string, (s: string) => string]>) {
  test(`degradation law: an import file ${damage}: unreadable:import:<id>, fsck names it, export stops`, async (t) => {
    const { dir, imports } = await exported(t);
    const later = laterImport(dir, imports);
    const { file } = importFile(dir, later);
    const good = readFileSync(file, "utf8");
    t.not(edit(good), good);
    writeFileSync(file, edit(good));
    const after = await observed(t, dir);
    t.true(after.markers.includes(`unreadable:import:${later}`), after.markers.join(" "));
    t.is(after.trials, 1, "the other import's trial is still folded, the damaged one's is not");
    const f = await run("forge", ["fsck"], { cwd: dir });
    t.is(f.code, 1);
    t.true(f.stdout.startsWith(`.forge/evidence/imports/${later}.json: `), f.stdout);
    t.is(f.stdout.split("\n").length, 2, f.stdout);
    const p = await sh("forge-observe --json | forge-plan --json", { cwd: dir });
    t.is(p.code, 0, p.stderr);
    const e = await sh("forge-ci list --json | forge-export", { cwd: dir });
    t.is(e.code, 1);
    t.true(e.stderr.startsWith(`forge-export: .forge/evidence/imports/${later}.json: `), e.stderr);
    t.is(e.stderr.split("\n").length, 2, e.stderr);
    // An oracle's fold goes on without the damaged file and names it in its answer.
    const oracle = { kind: "plan", plan_id: "p", plan_kind: "OracleConservative", target_key: "k" };
    const line = JSON.stringify({ ...oracle, target_kind: "FragileNode", scope: "default", params: {} }) + "\n";
    const a = await run("forge-act", ["--json"], { cwd: dir, input: line });
    t.is(a.code, 0, a.stderr);
    t.deepEqual((jsonl(a.stdout)[0] as { oracle: { unreadable: string[] } }).oracle.unreadable, [`import:${later}`]);
  });
}

test("an import file written before record_sha256 (N−1) is read as it was; fsck finds nothing", async (t) => {
  const { dir, imports } = await exported(t);
  const before = await run("forge-observe", ["--json"], { cwd: dir });
  for (const id of imports) {
    const { file, rec } = importFile(dir, id);
    t.regex(String(rec.record_sha256), /^[0-9a-f]{64}$/);
    delete rec.record_sha256;
    writeFileSync(file, JSON.stringify(rec) + "\n");
  }
  const after = await run("forge-observe", ["--json"], { cwd: dir });
  t.is(after.stdout, before.stdout);
  t.deepEqual(await run("forge", ["fsck"], { cwd: dir }).then((f) => [f.code, f.stdout]), [0, ""]);
});

test("a flipped byte in record_sha256's name, or bytes not UTF-8: damage fsck names, not an N−1 record", async (t) => {
  const { dir, imports } = await exported(t);
  const id = imports[0]!;
  const { file } = importFile(dir, id);
  const good = readFileSync(file);
  const at = good.indexOf('"record_sha256"') + '"record'.length;
  for (const to of [0x4f, 0xdf]) {
    const bad = Buffer.from(good);
    bad[at] = to; // record_sha256 → recordOsha256 (valid UTF-8), recordßsha256 (a lone 0xdf: not UTF-8)
    writeFileSync(file, bad);
    const f = await run("forge", ["fsck"], { cwd: dir });
    t.is(f.code, 1);
    t.regex(f.stdout, new RegExp(`^\\.forge/evidence/imports/${id}\\.json: .*(recordOsha256|not UTF-8)`, "m"));
  }
  writeFileSync(file, good);
  t.deepEqual(await run("forge", ["fsck"], { cwd: dir }).then((f) => [f.code, f.stdout]), [0, ""]);
});

test("forge-plan reads an observation header without health (no ScopeStale target, no crash)", async (t) => {
  const { dir } = await exported(t);
  const p = await sh(
    `forge-observe --json | jq -c 'if .kind == "observation" then del(.health) else . end' | forge-plan --json`,
    { cwd: dir }
  );
  t.is(p.code, 0, p.stderr);
  t.is(p.stderr, "");
});

type Rec = Record<string, unknown>;

/** An act result as another repository's forge-act made it: its trials name that repository's runs and PR. */
function foreignAct(over: Record<string, unknown> = {}): Record<string, unknown> {
  const ref = (i: number) => ({
    run_id: `0000000${i}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`,
    step: "10-unit",
    side: i % 2 ? "patched" : "baseline",
    outcome: i % 2 ? "pass" : "fail",
    head_sha: "a".repeat(40),
    patch_sha256: i % 2 ? "b".repeat(64) : null,
    code_tree: null,
    duration_ms: 5,
    signature: i % 2 ? null : "sig-v1:0123456789abcdef0123456789abcdef",
    env_sha256: "e".repeat(64),
    recorded_at: "2026-11-30T04:00:00Z",
    why: null,
  });
  return {
    kind: "act_result",
    schema_version: "forge-act-result/v1",
    id: "act-elsewhere",
    target_key: "fragile:x",
    plan_kind: "PairedPatch",
    advisory: false,
    started_at: "2026-11-30T03:59:00Z",
    completed_at: "2026-11-30T04:00:00Z",
    trials: [],
    trial_refs: Array.from({ length: 6 }, (_, i) => ref(i)),
    typed_diff: [
      {
        check: "10-unit",
        category: "fixed",
        base_sha: "a".repeat(40),
        patch_sha256: "b".repeat(64),
        baseline: { pass: 0, fail: 3 },
        patched: { pass: 3, fail: 0 },
      },
    ],
    pr: { id: "44444444-4444-4444-8444-444444444444", number: 9 },
    closes: [],
    oracle: null,
    ...over,
  };
}

test("the lane refuses an act result of another store (its runs, its PR) and step names that are paths", async (t) => {
  const { dir, runs } = await exported(t);
  const imports = () => readdirSync(join(dir, ".forge", "evidence", "imports")).length;
  const cases: Array<[Record<string, unknown>, string]> = [
    [foreignAct(), "act result: field 'trial_refs[0].run_id': no CI run 00000000-aaaa-4aaa-8aaa-aaaaaaaaaaaa in this"],
    [
      foreignAct({ trial_refs: [], pr: { id: "44444444-4444-4444-8444-444444444444", number: 9 } }),
      "act result: field 'pr.id': no pull request 44444444-4444-4444-8444-444444444444 in this store",
    ],
    [
      foreignAct({ trial_refs: [{ ...(foreignAct().trial_refs as Rec[])[0], run_id: "../../x" }] }),
      "field 'trial_refs[0].run_id': expected a uuid",
    ],
    [
      foreignAct({ trial_refs: [{ ...(foreignAct().trial_refs as Rec[])[0], run_id: runs[0], step: "../../../x" }] }),
      "act result: field 'trial_refs[0].step': '../../../x' is not a step name",
    ],
  ];
  for (const [rec, message] of cases) {
    const e = await run("forge-export", [], { cwd: dir, input: JSON.stringify(rec) + "\n" });
    t.is(e.code, 1, e.stderr);
    t.true(
      e.stderr.startsWith(
        `forge-export: stdin line 1: ${message}`.replace("stdin line 1: field", "stdin line 1: act result: field")
      ),
      e.stderr
    );
    t.is(imports(), 2, "nothing written");
  }
  // A CI run whose step names are paths is not data.
  const ci = await run("forge-ci", ["list", "--json"], { cwd: dir });
  const rec = jsonl(ci.stdout)[0]!;
  const steps = (rec.steps as Rec[]).map((s) => ({ ...s, name: "../../../x" }));
  const e = await run("forge-export", [], {
    cwd: dir,
    input: JSON.stringify({ ...rec, id: randomUUID(), steps }) + "\n",
  });
  t.is(e.code, 1);
  t.true(
    e.stderr.startsWith("forge-export: stdin line 1: ci run: field 'steps[0].name': '../../../x' is not a step name"),
    e.stderr
  );
  t.is(imports(), 2);
  // The same act result naming this store's runs is taken.
  const mine = foreignAct({
    pr: null,
    trial_refs: (foreignAct().trial_refs as Rec[]).map((r, i) => ({ ...r, run_id: runs[i % 2] })),
  });
  const ok = await run("forge-export", [], { cwd: dir, input: JSON.stringify(mine) + "\n" });
  t.is(ok.code, 0, ok.stderr);
  t.is(imports(), 3);
});

test("forge fsck checks experience, evidence refs, deleted tracked files; --prune-temp takes dead locks", async (t) => {
  const { dir, imports, runs } = await exported(t);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "runs and imports"]);
  t.deepEqual(await run("forge", ["fsck"], { cwd: dir }).then((f) => [f.code, f.stdout]), [0, ""]);
  const exp = join(dir, ".forge", "experience");
  mkdirSync(exp);
  const id = "11111111-1111-4111-8111-111111111111";
  writeFileSync(
    join(exp, `${id}.md`),
    `---\nid: ${id}\nkind: rumor\nscope: x\ntext: hi\nrevision: 1\nstatus: active\n---\n`
  );
  const lock = join(dir, ".forge", "issues.lock");
  writeFileSync(lock, "999999999 " + (await import("node:os")).hostname() + " 1\n");
  const old = new Date(Date.now() - 120_000);
  (await import("node:fs")).utimesSync(lock, old, old);
  // A run's folder deleted (ci/runs is not tracked): the import of its trials names a run this store lacks.
  rmSync(join(dir, ".forge", "ci", "runs", runs[0]!), { recursive: true });
  const named = imports.find((i) =>
    readFileSync(join(dir, ".forge", "evidence", "imports", `${i}.json`), "utf8").includes(runs[0]!)
  )!;
  // The other import deleted: nothing else names it, git does.
  const other = imports.find((i) => i !== named)!;
  rmSync(join(dir, ".forge", "evidence", "imports", `${other}.json`));
  const f = await run("forge", ["fsck"], { cwd: dir });
  t.is(f.code, 1);
  t.deepEqual(
    f.stdout.trimEnd().split("\n").sort(),
    [
      `.forge/evidence/imports/${other}.json: missing: tracked by git, deleted from the work tree ` +
        "(git restore brings it back)",
      `.forge/evidence/imports/${named}.json: field 'batch.evidence_refs[0]': no CI run ${runs[0]} in this store ` +
        "(its trials are not this store's)",
      `.forge/experience/${id}.md: field 'kind': 'rumor' is not observation|hypothesis|lesson`,
      ".forge/issues.lock: stray lock file (a writer died or is still running)",
    ].sort()
  );
  const p = await run("forge", ["fsck", "--prune-temp"], { cwd: dir });
  t.is(p.stderr, "forge fsck: removed .forge/issues.lock\n");
  t.false(p.stdout.includes("issues.lock"));
});
