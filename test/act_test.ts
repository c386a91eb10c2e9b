/**
 * forge-act end to end, on small real repositories: CheckRerun's stopping
 * rule, budget, setup errors and deadline; PairedPatch's typed diff, the
 * fixes rule and its two sides in parallel; advisory plans; oracle plans
 * through the kernel; trials referenced (CI runs), never copied; a SIGTERM
 * that leaves no worktree behind.
 */
import test from "ava";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, baseEnv, git, jsonl, run, type Ran } from "./lib/run.js";
import { stepsRepo } from "./lib/steps_repo.js";
import { removeScratch } from "./lib/scratch.js";

test.after.always(removeScratch);

type Rec = Record<string, any>;

const repo = (steps: Record<string, string>, files: Record<string, string> = {}): string =>
  stepsRepo("forge-act-e2e-", steps, files);

/** A PR from a branch that writes `files`; its {id, number, patchSha256}. */
async function pr(dir: string, branch: string, files: Record<string, string>, extra: string[] = []): Promise<Rec> {
  git(dir, ["checkout", "-q", "-b", branch, "main"]);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  git(dir, ["commit", "-qam", branch]);
  git(dir, ["checkout", "-q", "main"]);
  const r = await run(
    "forge-pr",
    ["create", "-t", branch, "-B", "main", "-H", branch, ...extra, "--json", "id,number,patchSha256"],
    { cwd: dir }
  );
  return JSON.parse(r.stdout) as Rec;
}

const head = (dir: string): string => git(dir, ["rev-parse", "main"]).trim();

function plan(kind: string, params: Rec, extra: Rec = {}): string {
  return (
    JSON.stringify({
      kind: "plan",
      plan_id: `p-${kind}`,
      plan_kind: kind,
      target_key: `t:${kind}`,
      target_kind: "FragileNode",
      scope: "default",
      params,
      ...extra,
    }) + "\n"
  );
}

async function act(dir: string, input: string, args: string[] = []): Promise<Ran & { recs: Rec[] }> {
  const r = await run("forge-act", ["--json", ...args], { cwd: dir, input });
  return { ...r, recs: jsonl(r.stdout) as Rec[] };
}

/**
 * forge-act --json fed `first`, then, once its result is on stdout (the act is running and reading stdin), the
 * plan `second()` makes at that moment.
 */
function actOnceReading(dir: string, first: string, second: () => string): Promise<Ran & { recs: Rec[] }> {
  return new Promise((res, rej) => {
    const child = spawn(join(BIN, "forge-act"), ["--json"], {
      cwd: dir,
      env: baseEnv() as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      const before = stdout;
      stdout += d.toString();
      if (!before.includes("\n") && stdout.includes("\n")) child.stdin.end(second());
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", rej);
    child.on("close", (code, signal) => {
      if (!child.stdin.writableEnded) child.stdin.end();
      res({ stdout, stderr, code, signal, recs: jsonl(stdout) as Rec[] });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.write(first);
  });
}

/** Worktrees besides the main checkout. */
function extraWorktrees(dir: string): string[] {
  return git(dir, ["worktree", "list", "--porcelain"])
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .slice(1);
}

test(
  "CheckRerun: a stable pass stops as soon as its Clopper–Pearson bound decides it; trials are CI runs, referenced " +
    "and not copied",
  async (t) => {
    const dir = repo({ "10-unit": "exit 0" });
    const r = await act(
      dir,
      plan("CheckRerun", { step: "10-unit", head_sha: head(dir), repetitions: 30, precision_micros: 300_000 })
    );
    t.is(r.code, 0, r.stderr);
    const a = r.recs[0]!;
    t.is(a.kind, "act_result");
    t.is(a.schema_version, "forge-act-result/v1");
    t.is(a.stats.trials, 9, "1 − 0.05^(1/n) ≤ 0.3 at n = 9 (the kernel's rule), and no more");
    t.is(a.stats.stop, "decided");
    t.is(a.outcome_signature, "passing:0/9");
    t.deepEqual(a.trials, [], "nothing copied");
    const runs = jsonl(
      (await run("forge-ci", ["list", "--limit", "100", "--json", "id,headSha"], { cwd: dir })).stdout
    );
    t.deepEqual(
      a.trial_refs.map((x: Rec) => x.run_id).sort(),
      runs.map((x) => x.id).sort(),
      "every trial is one CI run"
    );
    t.true(runs.every((x) => x.headSha === head(dir)));
    t.true(
      a.receipts.length >= 9 && a.receipts.every((x: Rec) => Array.isArray(x.argv) && typeof x.duration_ms === "number")
    );
    t.deepEqual(extraWorktrees(dir), []);
  }
);

/** The `setupId` of each CI run's record (summary.md), by run id. */
function setupIds(dir: string): Map<string, string | null> {
  const runs = join(dir, ".forge", "ci", "runs");
  return new Map(
    readdirSync(runs)
      .filter((id) => !id.startsWith("."))
      .map((id) => [
        id,
        /^setupId: "?([0-9a-f]+)"?$/m.exec(readFileSync(join(runs, id, "summary.md"), "utf8"))?.[1] ?? null,
      ])
  );
}

test("CheckRerun: never past the repetitions; the steps before the target run once, as its setup", async (t) => {
  const dir = repo({
    "10-setup": "echo setup >> ../setup-ran; exit 0",
    "20-check": "exit 1",
    "30-after": "exit 0",
  });
  const r = await act(dir, plan("CheckRerun", { step: "20-check", head_sha: head(dir), repetitions: 3 }));
  const a = r.recs[0]!;
  const whys = a.trial_refs.map((x: Rec) => `${x.outcome}${x.why ? ` (${x.why})` : ""} ${x.duration_ms} ms`);
  t.is(a.stats.trials, 3, `stop ${a.stats.stop}, budget ${a.stats.budget}; trials: ${whys.join(", ")}`);
  t.is(a.stats.stop, "budget");
  t.is(a.stats.verdict, "failing");
  const runs = jsonl((await run("forge-ci", ["list", "--json", "id,steps"], { cwd: dir })).stdout) as Rec[];
  t.deepEqual(
    runs.map((x) => x.steps.map((s: Rec) => s.outcome).join(" ")).sort(),
    ["pass fail skipped", "skipped fail skipped", "skipped fail skipped"],
    "the setup ran once, the target three times, nothing after it"
  );
  const ids = setupIds(dir);
  t.is(new Set(ids.values()).size, 1, "the three runs share one setup id");
  t.regex([...ids.values()][0] ?? "", /^[0-9a-f]{24}$/);
  t.deepEqual(extraWorktrees(dir), []);

  // --independent-trials: each trial its own worktree and its whole setup, as before.
  const dir2 = repo({ "10-setup": "exit 0", "20-check": "exit 1", "30-after": "exit 0" });
  const b = await act(dir2, plan("CheckRerun", { step: "20-check", head_sha: head(dir2), repetitions: 3 }), [
    "--independent-trials",
  ]);
  t.is(b.recs[0]!.stats.trials, 3);
  const runs2 = jsonl((await run("forge-ci", ["list", "--json", "steps"], { cwd: dir2 })).stdout) as Rec[];
  for (const x of runs2)
    t.deepEqual(
      x.steps.map((s: Rec) => s.outcome),
      ["pass", "fail", "skipped"],
      "setup ran, the target ran, nothing after it"
    );
  t.deepEqual([...setupIds(dir2).values()], [null, null, null]);
  // The same from the environment (how forge-pilot's forge-act gets it).
  const dir3 = repo({ "10-setup": "exit 0", "20-check": "exit 1" });
  const c = await run("forge-act", ["--json"], {
    cwd: dir3,
    input: plan("CheckRerun", { step: "20-check", head_sha: head(dir3), repetitions: 2 }),
    env: { FORGE_ACT_INDEPENDENT_TRIALS: "1" },
  });
  t.is(c.code, 0, c.stderr);
  const runs3 = jsonl((await run("forge-ci", ["list", "--json", "steps"], { cwd: dir3 })).stdout) as Rec[];
  t.deepEqual(
    runs3.map((x) => x.steps.map((s: Rec) => s.outcome).join(" ")),
    ["pass fail", "pass fail"]
  );
});

test("CheckRerun: plans on one tree share a worktree: each step runs once as setup across the plans", async (t) => {
  const steps: Record<string, string> = {};
  for (let i = 1; i <= 6; i++) steps[`${i}0-s${i}`] = `echo "$FORGE_CI_STEP" >> ../executions; exit 0`;
  const dir = repo(steps);
  const sha = head(dir);
  const names = Object.keys(steps);
  const input = names.map((s) => plan("CheckRerun", { step: s, head_sha: sha, repetitions: 3 })).join("");
  const r = await act(dir, input);
  t.is(r.code, 0, r.stderr);
  t.is(r.recs.length, 6);
  const trials = r.recs.reduce((n, a) => n + a.stats.trials, 0);
  const runs = jsonl((await run("forge-ci", ["list", "--limit", "100", "--json", "steps"], { cwd: dir })).stdout);
  const executions = runs.reduce((n, x: Rec) => n + x.steps.filter((s: Rec) => s.outcome !== "skipped").length, 0);
  t.is(trials, 18);
  t.is(executions, 18, "every execution is a targeted trial: the setup of each is the trials before it");
  t.is(new Set(setupIds(dir).values()).size, 1);
});

test("CheckRerun: a setup step that cannot run makes the target's trial error, never fail", async (t) => {
  const dir = repo({ "10-setup": "exit 127", "20-check": "exit 1" });
  const a = (await act(dir, plan("CheckRerun", { step: "20-check", head_sha: head(dir), repetitions: 5 }))).recs[0]!;
  t.is(a.stats.fails, 0);
  t.true(a.stats.errors >= 2 && a.stats.errors <= 3, `${a.stats.errors} errors: it stops after two in a row`);
  t.is(a.stats.stop, "setup_error");
  t.true(a.trial_refs.every((x: Rec) => x.outcome === "error" && /setup step 10-setup/.test(x.why)));
  t.is(a.stats.verdict, "unknown");
});

test("CheckRerun: no trial starts past the deadline; the overrun is reported, not hidden", async (t) => {
  const dir = repo({ "10-slow": "sleep 1.5; exit 0" });
  const past = await act(dir, plan("CheckRerun", { step: "10-slow", head_sha: head(dir), repetitions: 10 }), [
    "--deadline-ms",
    String(Date.now() - 1),
  ]);
  t.is(past.recs[0]!.stats.trials, 0);
  t.is(past.recs[0]!.stats.stop, "deadline");
  t.true(past.recs[0]!.deadline_overrun_ms > 0);
  const sha = head(dir);
  // The 3 s are measured from when the act takes the plan, not from before its process started (on a loaded
  // machine node's start-up alone can spend them): a first plan, already past its deadline, answers once the act
  // is reading stdin, and only then is the second plan's deadline set and the plan written.
  const soon = await actOnceReading(
    dir,
    plan(
      "CheckRerun",
      { step: "10-slow", head_sha: sha, repetitions: 10 },
      { budget: { max_runs: 10, deadline_ms: Date.now() - 1 } }
    ),
    () =>
      plan(
        "CheckRerun",
        { step: "10-slow", head_sha: sha, repetitions: 10 },
        { budget: { max_runs: 10, deadline_ms: Date.now() + 3000 } }
      )
  );
  t.is(soon.recs.length, 2, soon.stderr);
  t.is(soon.recs[0]!.stats.trials, 0);
  const a = soon.recs[1]!;
  t.true(a.stats.trials >= 1 && a.stats.trials < 10, `${a.stats.trials} trials`);
  t.is(a.stats.stop, "deadline");
  t.true(a.deadline_overrun_ms >= 0);
  t.true(a.outcome_signature.endsWith(":undecided"));
});

test(
  "seed §16.5: PairedPatch through the CI runner: fixed and still_passing, the fixes rule holds, the sides ran in " +
    "parallel",
  async (t) => {
    const dir = repo(
      { "10-unit": "grep -q good unit.txt", "20-int": "grep -q good int.txt" },
      { "unit.txt": "good\n", "int.txt": "bad\n" }
    );
    const issue = JSON.parse(
      (await run("forge-issue", ["create", "-t", "int fails", "--json", "id,number"], { cwd: dir })).stdout
    ) as Rec;
    const p = await pr(dir, "fix", { "int.txt": "good\n" }, ["--issue", String(issue.number)]);
    const r = await act(
      dir,
      plan("PairedPatch", {
        pr: { id: p.id, number: p.number },
        patch_sha256: p.patchSha256,
        base_sha: head(dir),
        checks: ["10-unit", "20-int"],
        repetitions: 3,
        closes: [issue.id],
      })
    );
    t.is(r.code, 0, r.stderr);
    const a = r.recs[0]!;
    t.deepEqual(
      a.typed_diff.map((d: Rec) => [
        d.check,
        d.category,
        d.baseline.pass,
        d.baseline.fail,
        d.patched.pass,
        d.patched.fail,
      ]),
      [
        ["10-unit", "still_passing", 3, 0, 3, 0],
        ["20-int", "fixed", 0, 3, 3, 0],
      ]
    );
    t.is(a.outcome_signature, "still_passing,fixed");
    t.deepEqual(
      a.fixes.map((f: Rec) => [f.issue, f.holds, f.fail_to_pass, f.broken]),
      [[issue.id, true, ["20-int"], []]]
    );
    t.true(a.typed_diff.every((d: Rec) => /^[0-9a-f]{40}$/.test(d.code_tree)));
    t.true(a.wall_ms.total < a.wall_ms.baseline + a.wall_ms.patched, `parallel: ${JSON.stringify(a.wall_ms)}`);
    t.deepEqual(extraWorktrees(dir), []);
    // Through the lane: the patch_effect and the fixes claim, the trials from the CI runs only.
    const runs = (await run("forge-ci", ["list", "--limit", "100", "--json"], { cwd: dir })).stdout;
    await run("forge-export", [], { cwd: dir, input: runs });
    const ex = jsonl((await run("forge-export", [], { cwd: dir, input: r.stdout })).stdout) as Rec[];
    t.is(ex[0]!.counts.trials, 0, "the act result copies no trial");
    t.true(ex[0]!.counts.claim_versions >= 1);
  }
);

test("PairedPatch: a regressing PR is regressed and gets no fixes claim", async (t) => {
  const dir = repo({ "10-unit": "grep -q good unit.txt" }, { "unit.txt": "good\n" });
  const p = await pr(dir, "tidy", { "unit.txt": "bad\n" });
  const a = (
    await act(
      dir,
      plan("PairedPatch", {
        pr: { id: p.id, number: p.number },
        patch_sha256: p.patchSha256,
        base_sha: head(dir),
        checks: ["10-unit"],
        repetitions: 2,
        closes: ["some-issue"],
      })
    )
  ).recs[0]!;
  t.is(a.typed_diff[0].category, "regressed");
  t.false(a.fixes[0].holds);
  t.deepEqual(a.fixes[0].broken, ["10-unit"]);
});

test("an advisory plan runs only with --allow-advisory-only, and is marked advisory", async (t) => {
  const dir = repo({ "10-unit": "exit 0" });
  const p = plan("Advisory", { text: "look at the export" }, { advisory: true });
  const no = await act(dir, p);
  t.is(no.code, 1);
  t.is(no.stdout, "");
  t.regex(
    no.stderr,
    /^forge-act: stdin line 1: field 'advisory': an advisory plan runs only with --allow-advisory-only\n$/
  );
  const yes = await act(dir, p, ["--allow-advisory-only"]);
  t.is(yes.code, 0);
  t.true(yes.recs[0]!.advisory);
  t.is(yes.recs[0]!.outcome_signature, "advisory");
  t.deepEqual(yes.recs[0]!.trial_refs, []);
});

test("oracle plans call the kernel over the scope's fold; delta parity holds on a consistent store", async (t) => {
  const dir = repo({ "10-unit": "exit 0" });
  await run("forge-ci", ["run", "--repeat", "2"], { cwd: dir });
  await run("forge-export", [], { cwd: dir, input: (await run("forge-ci", ["list", "--json"], { cwd: dir })).stdout });
  const r = await act(
    dir,
    plan("OracleConservative", {}) + plan("OracleDeltaParity", { changed_node_ids: [], max_iterations: 4 })
  );
  t.is(r.code, 0, r.stderr);
  t.is(r.recs[0]!.oracle.oracle, "conservative");
  t.is(r.recs[0]!.oracle.nodes.length, 1);
  t.is(r.recs[1]!.oracle.oracle, "delta_parity");
  t.true(r.recs[1]!.oracle.parity);
  t.is(r.recs[1]!.oracle.iterations, 2);
  t.false(r.recs[1]!.parity_violation);
});

test("target and halt lines are passed over; another kind is refused with exit 2", async (t) => {
  const dir = repo({ "10-unit": "exit 0" });
  const ok = await act(dir, '{"kind":"target","key":"x"}\n{"kind":"halt","reason":"nothing_worth_investigating"}\n');
  t.is(ok.code, 0);
  t.is(ok.stdout, "");
  const bad = await act(dir, '{"kind":"observation"}\n');
  t.is(bad.code, 2);
  t.regex(bad.stderr, /^forge-act: stdin line 1: kind 'observation' is not a plan\n$/);
});

test(
  "SIGTERM mid-rerun: the running trial is cancelled, " + "the result of what ran is printed, no worktree is left",
  async (t) => {
    const dir = repo({ "10-slow": "sleep 0.4; exit 0" });
    const child = spawn(join(BIN, "forge-act"), ["--json"], {
      cwd: dir,
      env: baseEnv() as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stdin.end(plan("CheckRerun", { step: "10-slow", head_sha: head(dir), repetitions: 10 }));
    const runsDir = join(dir, ".forge", "ci", "runs");
    for (let i = 0; i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      try {
        if (readdirSync(runsDir).length >= 2) break;
      } catch {
        // not yet
      }
    }
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((r) => child.on("close", r));
    t.is(code, 143);
    const a = jsonl(out)[0] as Rec;
    t.is(a.stop, "interrupted");
    t.true(a.stats.trials >= 1 && a.stats.trials < 10);
    t.deepEqual(extraWorktrees(dir), []);
  }
);

test(
  "seed §16.4: an oracle plan's answer is the kernel's own (causal refuter and minimal perturbation over the " +
    "scope's fold, no local copy)",
  async (t) => {
    const dir = repo({ "10-unit": "exit 0" });
    await run("forge-ci", ["run", "--repeat", "3"], { cwd: dir });
    await run("forge-export", [], {
      cwd: dir,
      input: (await run("forge-ci", ["list", "--json"], { cwd: dir })).stdout,
    });
    const { openStore } = await import("@forge/core");
    const { readScope } = await import("@forge/evidence");
    const { causalRefuter, compile, minimalPerturbation, schedule } = await import("@forge/kernel");
    const c = compile(readScope(openStore({ cwd: dir, env: {} }), "default").kernel);
    const target = c.nodes[0]!.id;
    const r = await act(
      dir,
      plan("OracleCausalRefuter", { target_node_id: target, max_removed_nodes: 64 }) +
        plan("OracleMinimalPerturbation", { target_node_id: target, max_removed_nodes: 2 })
    );
    t.is(r.code, 0, r.stderr);
    t.deepEqual(
      r.recs[0]!.oracle,
      JSON.parse(JSON.stringify(causalRefuter(c, target, { scheduled: schedule(c), max_supports: 64 })))
    );
    t.deepEqual(
      r.recs[1]!.oracle,
      JSON.parse(JSON.stringify(minimalPerturbation(c, target, { scheduled: schedule(c), max_removed_nodes: 2 })))
    );
  }
);
