import test from "ava";
import { ObservationReader, readObservation } from "@forge/contract";
import { observe, type ObserveInputs } from "@forge/observation";
import {
  check,
  ENV,
  inputs,
  issueOf,
  kernel,
  prOf,
  runOf,
  scope,
  SIG2,
  trialOf,
  TREE,
} from "@forge/observation/fixture";
import { canonicalJson, type Trial } from "@forge/kernel";
import { plan } from "./decide.js";
import { explainRecord, explainText } from "./explain.js";
import type { HistoryEntry } from "./history.js";
import { parseHistory } from "./history.js";
import { DEFAULT_PLAN_CONFIG, type PlanConfig } from "./config.js";
import type { Target } from "./targets.js";

/** A decision as its fields (plan or halt), for assertions on either. */
const d = (p: { decision: object }): Record<string, unknown> => p.decision as Record<string, unknown>;

const NOW = Date.parse("2026-11-30T06:00:00Z") / 1000;
const cfg = (over: Partial<PlanConfig> = {}): PlanConfig => ({ ...DEFAULT_PLAN_CONFIG, ...over });
const planOf = (i: ObserveInputs, history: HistoryEntry[] = [], c = cfg(), now = NOW) =>
  plan(observe(i), history, c, now);
const hist = (key: string, ...outcomes: string[]): HistoryEntry[] =>
  outcomes.map((o, k) => ({
    target_key: key,
    plan_kind: "CheckRerun",
    plan_id: `p${k}`,
    act_id: `a${k}`,
    outcome_signature: o,
    recorded_at: "2026-11-30T05:00:00Z",
  }));
const byKey = (ts: Target[], key: string): Target => ts.find((t) => t.key === key)!;
const findKey = (ts: Target[], key: string): Target | undefined => ts.find((t) => t.key === key);

/** A base tree with a stable failure, a flaky check and a passing one. */
function sample(): ObserveInputs {
  const claims = [check("c:int", "20-integration"), check("c:net", "30-net"), check("c:unit", "10-unit")];
  const trials = [
    ...["a", "b", "c", "d"].map((r) => trialOf("c:int", "fail", r)),
    ...["a", "b", "c", "d", "e"].map((r) => trialOf("c:net", "pass", r)),
    trialOf("c:net", "fail", "f", { signature: SIG2 }),
    ...bounded("c:unit"),
  ];
  return inputs({ state: scope(kernel(claims, trials)), runs: ["a", "b", "c", "d", "e", "f"].map((r) => runOf(r)) });
}

/** Nine passing trials of a check in runs a–c (three each): its Clopper–Pearson bound decided at 0.30. */
function bounded(claim: string): Trial[] {
  return Array.from({ length: 9 }, (_, k) => {
    const r = ["a", "b", "c"][k % 3]!;
    return trialOf(claim, "pass", r, { trial_id: `${r}:${claim}:${k}` });
  });
}

test(
  "a stable failure is an ActiveSyndrome (not a FragileNode); a mixed check is a FragileNode at ≥ 0.80 while " +
    "undecided; a passing check bounded by its trials is no target",
  (t) => {
    const p = planOf(sample());
    t.deepEqual(
      p.targets.map((x) => [x.target_kind, x.key, x.urgency_micros]),
      [
        ["ActiveSyndrome", `syndrome:sig-v1:${"1".repeat(32)}`, 950_000],
        // 0.80 and 0.002 for the two steps its rerun runs as setup (10-unit, 20-integration).
        ["FragileNode", "fragile:c:net", 802_000],
      ]
    );
    t.is(d(p).kind, "plan");
    t.is(d(p).target_key, `syndrome:sig-v1:${"1".repeat(32)}`);
    // No PR passes the failing step, and 4 failing trials do not bound it: rerun it (issue 25), never an oracle.
    t.is(d(p).plan_kind, "CheckRerun");
    t.like(d(p).params as object, { step: "20-integration", tree: TREE, patch_sha256: null, repetitions: 5 });
    const fragile = byKey(p.targets, "fragile:c:net");
    t.is(fragile.plan_kind, "CheckRerun");
    t.like(fragile.draft!.params, {
      step: "30-net",
      tree: TREE,
      head_sha: "c".repeat(40),
      patch_sha256: null,
      pr: null,
    });
    t.true((fragile.draft!.params as { repetitions: number }).repetitions >= 20);
  }
);

test(
  "a failing check is rerun until its failure is bounded; then, with no PR that passes it, the syndrome has no " +
    "executable plan (no oracle can change what its trials say)",
  (t) => {
    const i = sample();
    const key = `syndrome:sig-v1:${"1".repeat(32)}`;
    i.state.kernel.trials.push(...["e", "f", "g", "h"].map((r) => trialOf("c:int", "fail", `x${r}`)));
    const eight = planOf(i);
    t.is(eight.chosen?.key, key);
    t.is(d(eight).plan_kind, "CheckRerun", "8 failing trials: pass rate ≤ 0.32, wider than 0.30");
    t.like(d(eight).params as object, { repetitions: 1 });
    i.state.kernel.trials.push(trialOf("c:int", "fail", "xi"));
    const o = observe(i);
    t.like(o.nodes.find((n) => n.claim_id === "c:int")!.bound, { decided: true, rate: "pass", upper_micros: 283_129 });
    const nine = plan(o, [], cfg(), NOW);
    const syn = byKey(nine.targets, key);
    t.is(syn.draft, null);
    t.regex(syn.plan_why, /bounded/);
    t.is(nine.chosen?.key, "fragile:c:net", "the next target with a plan is taken");
  }
);

test("a flaky check stops being a target once its flake rate is decided", (t) => {
  const i = sample();
  const more = Array.from({ length: 40 }, (_, k) =>
    trialOf("c:net", k % 5 === 0 ? "fail" : "pass", `m${k}`, { signature: k % 5 === 0 ? SIG2 : null })
  );
  i.state.kernel.trials.push(...more);
  const o = observe(i);
  t.true((o.nodes.find((n) => n.claim_id === "c:net")!.flake_rate as { decided: boolean }).decided);
  t.is(findKey(plan(o, [], cfg(), NOW).targets, "fragile:c:net"), undefined);
});

test("retry decay is multiplicative and monotone: urgency × 0.5^attempts, never zero at 0 attempts", (t) => {
  const us = [0, 1, 2, 3, 4].map(
    (k) =>
      byKey(
        planOf(
          sample(),
          hist("fragile:c:net", ...Array.from({ length: k }, (_, j) => `o${j}`)),
          cfg({ max_retries_per_target: 99 })
        ).targets,
        "fragile:c:net"
      ).urgency_micros
  );
  t.deepEqual(us, [802_000, 401_000, 200_500, 100_250, 50_125]);
  t.deepEqual(byKey(planOf(sample(), hist("fragile:c:net", "x")).targets, "fragile:c:net").modifiers.at(-1), {
    name: "retry_decay",
    factor_micros: 500_000,
  });
});

test(
  "exhaustion: max retries, or the last two outcomes equal; all exhausted → halt all_targets_exhausted (never a " +
    "positive word)",
  (t) => {
    const syn = `syndrome:sig-v1:${"1".repeat(32)}`;
    const p = planOf(
      sample(),
      [...hist(syn, "still_failing", "still_failing"), ...hist("fragile:c:net", "flaky:1/6", "flaky:2/12")],
      cfg({ max_retries_per_target: 5, halt_threshold_micros: 100_000 })
    );
    t.like(byKey(p.targets, syn), { exhausted: true, exhausted_why: "repeated_outcome" });
    t.like(byKey(p.targets, "fragile:c:net"), { exhausted: false, attempts: 2, urgency_micros: 200_500 });
    t.is(d(p).target_key, "fragile:c:net");
    const q = planOf(
      sample(),
      [...hist(syn, "a", "b"), ...hist("fragile:c:net", "a", "b")],
      cfg({ max_retries_per_target: 2 })
    );
    t.like(byKey(q.targets, "fragile:c:net"), { exhausted: true, exhausted_why: "max_retries" });
    t.deepEqual([d(q).kind, d(q).reason], ["halt", "all_targets_exhausted"]);
  }
);

test("the halt threshold: a target below it is not picked (nothing_worth_investigating)", (t) => {
  const p = planOf(sample(), [], cfg({ halt_threshold_micros: 960_000 }));
  t.deepEqual([d(p).kind, d(p).reason], ["halt", "nothing_worth_investigating"]);
});

test(
  "degradation: no imports → halt missing_kernel_payload and only the target the inputs justify (ScopeStale, " +
    "never imported)",
  (t) => {
    const p = planOf(inputs({ state: scope(null, []) }));
    t.deepEqual(
      p.targets.map((x) => [x.target_kind, x.key, x.plan_kind]),
      [["ScopeStale", "stale:default", null]]
    );
    t.deepEqual([d(p).kind, d(p).reason], ["halt", "missing_kernel_payload"]);
  }
);

test(
  "degradation: a malformed payload → ThinExport for its marker (no executable plan), no claim target; halt " +
    "missing_kernel_payload",
  (t) => {
    const p = planOf(
      inputs({ state: scope(null, [{ batch_id: "1".repeat(64), markers: ["malformed_kernel_payload"] }]) })
    );
    t.deepEqual(
      p.targets.map((x) => x.target_kind),
      ["ThinExport", "ThinExport"]
    );
    t.true(p.targets.every((x) => x.draft === null));
    t.is(d(p).reason, "missing_kernel_payload");
  }
);

test(
  "degradation: a thin export (deleted log) → ThinExport with a one-run CheckRerun; an unexported run alone halts " +
    "thin_export_blocked_execution",
  (t) => {
    const i = inputs({
      state: {
        ...scope(kernel([check("c:unit", "10-unit")], bounded("c:unit"))),
        evidence_refs: ["a", "b", "c"].map((r) => ({
          ref_id: `ci-run:${r}`,
          kind: "ci-run",
          path: null,
          digest: null,
        })),
      },
      runs: [
        runOf("a"),
        runOf("b"),
        runOf("c", { steps: [{ name: "10-unit", outcome: "pass", logSha256: "f".repeat(64), log: false }] }),
      ],
    });
    const p = planOf(i);
    t.deepEqual(
      p.targets.map((x) => [x.key, x.urgency_micros, x.plan_kind]),
      [["thin_export:missing_log:c:10-unit", 900_000, "CheckRerun"]]
    );
    t.like(d(p).params as object, { step: "10-unit", repetitions: 1, tree: TREE });
    i.runs[2]!.steps[0]!.log = true;
    i.runs.push(runOf("d", { createdAt: "2026-11-30T05:00:00Z" }));
    const q = planOf(i);
    t.deepEqual(
      q.targets.map((x) => x.key),
      ["thin_export:unexported_run:d"]
    );
    t.deepEqual([d(q).kind, d(q).reason], ["halt", "thin_export_blocked_execution"]);
    // With --allow-advisory-only: a visibly advisory plan, never counted as verification.
    const r = planOf(i, [], cfg({ allow_advisory_only: true }));
    t.like(r.decision, { kind: "plan", plan_kind: "Advisory", advisory: true });
  }
);

test(
  "an issue closed with no evidence is an UnverifiedClaimVersion (no executable plan without a PR); an updated PR " +
    "is a SupersessionVerification (PairedPatch)",
  (t) => {
    const pr = prOf("p1", 1, { patchSha256: "9".repeat(64), previousPatchSha256: ["8".repeat(64)] });
    const p = planOf({ ...sample(), issues: [issueOf("i1", 1)], prs: [pr] });
    const u = byKey(p.targets, "unverified:issue:i1");
    t.like(u, { target_kind: "UnverifiedClaimVersion", urgency_micros: 750_000, plan_kind: null });
    const s = byKey(p.targets, `supersession:${"9".repeat(64)}:${"8".repeat(64)}`);
    t.like(s, { target_kind: "SupersessionVerification", urgency_micros: 680_000, plan_kind: "PairedPatch" });
    t.like(s.draft!.params, {
      pr: { id: "p1", number: 1 },
      patch_sha256: "9".repeat(64),
      base_ref: "main",
      base_sha: "c".repeat(40),
      checks: ["10-unit", "20-integration", "30-net"],
    });
  }
);

test(
  "a stable failure with an open PR that passes the step → PairedPatch of that PR (FAIL_TO_PASS with " +
    "PASS_TO_PASS); a PR claim below min_trials is a CalibrationCaveat, a regression candidate ranked higher",
  (t) => {
    const fix = prOf("pf", 1, { patchSha256: "9".repeat(64), closes: ["i9"] });
    const bad = prOf("pb", 2, { patchSha256: "7".repeat(64) });
    const i = sample();
    i.prs = [fix, bad];
    i.state.kernel.claims.push(
      check("c:int@fix", "20-integration", TREE, "9".repeat(64)),
      check("c:unit@bad", "10-unit", TREE, "7".repeat(64))
    );
    i.state.kernel.trials.push(trialOf("c:int@fix", "pass", "pf1"), trialOf("c:unit@bad", "fail", "pb1"));
    const p = planOf(i);
    t.like(p.decision, { plan_kind: "PairedPatch", target_kind: "ActiveSyndrome" });
    t.like(d(p).params as object, {
      pr: { id: "pf", number: 1 },
      closes: ["i9"],
      checks: ["10-unit", "20-integration", "30-net"],
    });
    t.like(byKey(p.targets, "caveat:c:unit@bad"), { urgency_micros: 600_000, plan_kind: "CheckRerun" });
    t.deepEqual(byKey(p.targets, "caveat:c:unit@bad").modifiers[0], {
      name: "regression_candidate",
      delta_micros: 100_000,
    });
    t.like(byKey(p.targets, "caveat:c:int@fix"), { urgency_micros: 500_000 });
    t.like(byKey(p.targets, "caveat:c:unit@bad").draft!.params, {
      repetitions: 2,
      pr: { id: "pb", number: 2 },
      patch_sha256: "7".repeat(64),
    });
  }
);

test("ties break by kind priority, then by key", (t) => {
  const i = inputs({
    state: scope(kernel([check("c:b", "b"), check("c:a", "a")], [trialOf("c:b", "pass"), trialOf("c:a", "pass")])),
    runs: [],
  });
  const p = planOf(i);
  t.deepEqual(
    p.targets.map((x) => x.key),
    ["caveat:c:a", "caveat:c:b"]
  );
});

test("ScopeStale after the configured age, judged at --now", (t) => {
  t.is(findKey(planOf(sample()).targets, "stale:default"), undefined);
  const late = Date.parse("2026-12-30T00:00:00Z") / 1000;
  t.like(byKey(planOf(sample(), [], cfg(), late).targets, "stale:default"), {
    target_kind: "ScopeStale",
    urgency_micros: 250_000,
    plan_kind: null,
  });
});

test("ComparabilityDrift when one claim's trials come from different environment fingerprints", (t) => {
  const i = inputs({
    state: scope(
      kernel(
        [check("c:x", "x")],
        [
          trialOf("c:x", "pass", "a"),
          trialOf("c:x", "pass", "b", { env_fingerprint: "9".repeat(64) }),
          trialOf("c:x", "pass", "c", { env_fingerprint: ENV }),
        ]
      )
    ),
  });
  i.runs = [runOf("a")];
  t.deepEqual(
    planOf(i).targets.map((x) => [x.target_kind, x.key]),
    [["ComparabilityDrift", "drift:c:x"]]
  );
});

test(
  "determinism: the same observation and history give the same targets and plan, with a content-hash plan id; the " +
    "JSON lines round-trip",
  (t) => {
    const a = planOf(sample(), hist("fragile:c:net", "x"));
    const b = planOf(sample(), hist("fragile:c:net", "x"));
    t.is(canonicalJson(a.decision), canonicalJson(b.decision));
    t.regex(d(a).plan_id as string, /^[0-9a-f]{16}$/);
    const o = observe(sample());
    const lines = [o.header, ...o.nodes, ...o.syndromes, ...o.prs, ...o.issues, ...o.degradations, ...o.unverified]
      .map((l) => canonicalJson(l))
      .join("\n");
    t.is(
      canonicalJson(plan(readObservation(lines), [], cfg(), NOW).decision),
      canonicalJson(plan(o, [], cfg(), NOW).decision)
    );
  }
);

test(
  "ObservationReader: the lines in chunks cut anywhere (inside a line, inside a UTF-8 character) read as the " +
    "whole text does; bad lines name their number",
  (t) => {
    const o = observe(sample());
    const lines = [
      { ...o.header, scope: "é—ü" },
      ...o.nodes,
      ...o.syndromes,
      ...o.prs,
      ...o.issues,
      ...o.degradations,
      ...o.unverified,
    ]
      .map((l) => canonicalJson(l))
      .join("\n");
    const whole = canonicalJson(readObservation(`\n${lines}\n\n`));
    const bytes = Buffer.from(`\n${lines}\n\n`);
    t.true(bytes.length > lines.length); // multi-byte characters to cut through
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const r = new ObservationReader();
      for (let at = 0; at < bytes.length; at += size) r.add(bytes.subarray(at, at + size));
      t.is(canonicalJson(r.end()), whole, `chunks of ${size}`);
    }
    const blank = new ObservationReader();
    blank.add(Buffer.from("\n  \n"));
    t.is(blank.end(), undefined); // nothing but blank lines: forge-plan observes itself
    const bad = new ObservationReader();
    t.throws(() => bad.add(Buffer.from(`${canonicalJson(o.header)}\n\n{"kind":"node"\n`)), {
      message: "stdin line 3: not JSON",
    });
    const headless = new ObservationReader();
    headless.add(Buffer.from("\n"));
    t.throws(() => headless.add(Buffer.from('{"kind":"node"}')) ?? headless.end(), {
      message: "stdin line 2: a node line before the observation header",
    });
  }
);

test("explain: base, modifiers, history, final score, why this plan kind", (t) => {
  const p = planOf(sample(), hist("fragile:c:net", "flaky:1/6"));
  const r = explainRecord(p, "fragile:c:net", cfg());
  t.like(r, { kind: "explain", key: "fragile:c:net", base_micros: 800_000, urgency_micros: 401_000, attempts: 1 });
  const text = explainText(r);
  t.regex(text, /retry_decay × 50\.0% \(0\.5\^1\)/);
  t.regex(text, /plan: CheckRerun/);
  t.throws(() => explainRecord(p, "fragile:nope", cfg()), { message: /no target 'fragile:nope'/ });
});

test(
  "readObservation() refuses a kind it does not handle (usage, exit 2) and bad history lines name the file, line " +
    "and field",
  (t) => {
    t.throws(() => readObservation('{"kind":"observation"}\n{"kind":"plan"}\n'), {
      message: /kind 'plan' is not an observation line/,
    });
    t.throws(() => readObservation(""), { message: /no observation on stdin/ });
    t.throws(() => parseHistory('{"target_key":"k","outcome_signature":"x"}\n{"target_key":1}\n', "h.jsonl"), {
      message: "h.jsonl: line 2: field 'target_key': expected a non-empty string",
    });
    t.deepEqual(parseHistory("", "h"), []);
  }
);

test("a kernel marker naming claims of the graph is a ThinExport with an OracleDeltaParity plan over them", (t) => {
  const i = inputs({
    state: scope(
      kernel(
        [check("c:x", "x"), { ...check("c:y", "y"), kind: "criterion" }],
        ["a", "b", "c"].map((r) => trialOf("c:x", "pass", r))
      )
    ),
  });
  const p = planOf(i);
  const thin = byKey(p.targets, "thin_export:missing_semantics:c:y");
  t.like(thin, { target_kind: "ThinExport", plan_kind: "OracleDeltaParity" });
  t.deepEqual(thin.draft!.params, { changed_node_ids: ["c:y"], max_iterations: 4 });
});

test(
  "undecided passing checks (bound wider than the precision) are one target per tree: the last step is rerun, the " +
    "others as its setup, until the widest is bounded; an oracle waits while it is live",
  (t) => {
    const claims = [check("c:a", "10-a"), check("c:b", "20-b"), check("c:c", "30-c")];
    const trials = [
      ...bounded("c:a"),
      ...["a", "b", "c", "d"].map((r) => trialOf("c:b", "pass", r)),
      ...["a", "b", "c", "d", "e", "f"].map((r) => trialOf("c:c", "pass", r)),
    ];
    const runs = ["a", "b", "c", "d", "e", "f"].map((r) => runOf(r));
    const p = planOf(inputs({ state: scope(kernel(claims, trials)), runs }));
    t.deepEqual(
      p.targets.map((x) => [x.target_kind, x.key, x.urgency_micros, x.refs]),
      [["FragileNode", "fragile:c:c", 702_000, ["c:b", "c:c"]]]
    );
    t.is(d(p).plan_kind, "CheckRerun");
    // 20-b has 4 trials: 5 more bound it (9 at 0.30), and 30-c's rerun runs 20-b as its setup.
    t.like(d(p).params as object, { step: "30-c", repetitions: 5 });
    t.regex(p.targets[0]!.plan_why, /2 passing checks \(20-b, 30-c\).*Clopper–Pearson needs 9.*rerun 30-c/);
    // A derived claim far below the threshold ranks first, but its oracle adds no trial: it waits for the rerun.
    const o = observe(inputs({ state: scope(kernel(claims, trials)), runs }));
    const crit = { ...o.nodes[0]!, claim_id: "c:crit", claim_kind: "criterion", verdict: "unverified" };
    o.nodes.push({ ...crit, belief_micros: 100_000, bound: null, subject: {} });
    const q = plan(o, [], cfg(), NOW);
    t.deepEqual(
      q.targets.map((x) => [x.key, x.plan_kind]),
      [
        ["fragile:c:crit", "OracleMinimalPerturbation"],
        ["fragile:c:c", "CheckRerun"],
      ]
    );
    t.like(q.decision, { kind: "plan", plan_kind: "CheckRerun", target_key: "fragile:c:c" });
    t.regex(
      String((q.decision as { rationale: string }).rationale),
      /fragile:c:crit .* waits: an oracle adds no trial/
    );
    // Once no plan that runs checks is left, the oracle runs.
    const r = plan(o, hist("fragile:c:c", "passing:0/5", "passing:0/5"), cfg(), NOW);
    t.like(r.decision, { kind: "plan", plan_kind: "OracleMinimalPerturbation" });
  }
);

test("a flaky test is its own target: its CheckRerun names the step and the test, its text the check name", (t) => {
  const test1 = {
    ...check("c:t", "20-unit"),
    subject: { step: "20-unit", test: "parser › handles --", tree: TREE, patch_sha256: null },
  };
  const test2 = {
    ...check("c:u", "20-unit"),
    subject: { step: "20-unit", test: "group 1 › case 0", tree: TREE, patch_sha256: null },
  };
  const trials = [
    ...["a", "b", "c", "d", "e"].map((r) => trialOf("c:t", "pass", r)),
    trialOf("c:t", "fail", "f", { signature: SIG2 }),
    // Bounded (10 passes): not a target of its own.
    ...["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].map((r) => trialOf("c:u", "pass", r)),
  ];
  const i = inputs({
    state: scope(kernel([test1, test2], trials)),
    runs: ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].map((r) => runOf(r)),
  });
  const p = planOf(i);
  t.deepEqual(
    p.targets.map((x) => x.key),
    ["fragile:c:t"]
  );
  t.like(d(p).params as object, { step: "20-unit", test: "parser › handles --", tree: TREE });
  t.regex(String(d(p).description), /^rerun 20-unit › parser › handles -- at /);
});
