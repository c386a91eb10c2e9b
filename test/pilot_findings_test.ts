/**
 * forge-pilot's findings (packages/pilot/src/findings.ts) from hand-made act
 * results: what a paired experiment of a PR says, and that a fix the
 * SWE-bench rule did not confirm is unresolved, never "fixes".
 */
import test from "ava";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

type Findings = (
  obs: object[],
  results: object[],
  lastTargets: object[],
  issueNumbers?: Map<string, number>
) => string[];
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { findings } = (await import(pathToFileURL(join(ROOT, "packages", "pilot", "dist", "findings.js")).href)) as {
  findings: Findings;
};

const ISSUE = "11111111-1111-4111-8111-111111111111";
const pr = (id: string, number: number) => ({ kind: "pr", id, number, state: "open", patch_sha256: `patch-${id}` });
const diff = (cats: Record<string, string>) => Object.entries(cats).map(([check, category]) => ({ check, category }));
const paired = (id: string, cats: Record<string, string>, fixes: object[]) => ({
  plan_kind: "PairedPatch",
  candidate_id: `pr:${id}`,
  version_id: `v-${id}`,
  typed_diff: diff(cats),
  fixes,
  sides: { baseline: { reps: 3 }, patched: { reps: 3 } },
});
const A = "aaaaaaaa-0000-4000-8000-000000000000";
const B = "bbbbbbbb-0000-4000-8000-000000000000";
const C = "cccccccc-0000-4000-8000-000000000000";
const D = "dddddddd-0000-4000-8000-000000000000";
const E = "eeeeeeee-0000-4000-8000-000000000000";
const F = "ffffffff-0000-4000-8000-000000000000";
/** A claim node of the graph at a PR's patch (a `fixes` claim, or a patch effect of a step). */
const claimAt = (kind: string, id: string, verdict: string, belief: number, subject: object) => ({
  kind: "node",
  claim_id: `${kind}:${id}:${JSON.stringify(subject)}`,
  claim_kind: kind,
  patch_sha256: `patch-${id}`,
  subject: { patch_sha256: `patch-${id}`, ...subject },
  verdict,
  belief_micros: belief,
});
const fixesAt = (id: string, verdict: string, belief: number) =>
  claimAt("fixes", id, verdict, belief, { issue: ISSUE });
const obs = [
  { kind: "observation" },
  pr(A, 1),
  pr(B, 2),
  pr(C, 3),
  pr(D, 4),
  pr(E, 5),
  pr(F, 6),
  fixesAt(A, "verified", 950_000),
  claimAt("patch_effect", A, "fixed", 950_000, { step: "20-integration" }),
  fixesAt(D, "verified", 920_000),
  fixesAt(E, "verified", 910_000),
  // The act's rule held, but the graph does not verify the claim (belief under the threshold).
  fixesAt(F, "unverified", 889_000),
  claimAt("patch_effect", F, "inconclusive", 800_000, { step: "20-integration" }),
];

test(
  "a PR's finding: fixes only when the graph verifies the fixes claim (FAIL_TO_PASS and PASS_TO_PASS held); a " +
    "closed issue whose rule broke is unresolved, naming the check; the typed diff beside its belief",
  (t) => {
    const results = [
      paired(A, { "10-unit": "still_passing", "20-integration": "fixed", "30-net": "still_passing" }, [
        { issue: ISSUE, holds: true, broken: [] },
      ]),
      paired(B, { "10-unit": "still_passing", "20-integration": "fixed", "30-net": "flaky_patched" }, [
        { issue: ISSUE, holds: false, broken: ["30-net"] },
      ]),
      paired(C, { "10-unit": "still_passing", "20-integration": "fixed" }, []),
      paired(D, { "20-integration": "fixed", "30-net": "flaky_patched" }, [
        { issue: ISSUE, holds: true, broken: [], flaky_at_base: ["30-net"] },
      ]),
      paired(E, { "10-unit": "still_passing", "20-integration": "fixed", "30-net": "flaky_baseline" }, [
        { issue: ISSUE, holds: true, broken: [], flaky_at_base: ["30-net"] },
      ]),
      paired(F, { "10-unit": "still_passing", "20-integration": "fixed" }, [{ issue: ISSUE, holds: true, broken: [] }]),
    ];
    const f = findings(obs, results, [], new Map([[ISSUE, 7]]));
    t.deepEqual(f.filter((x) => x.startsWith("PR ")).sort(), [
      "PR #1: fixes #7 (20-integration fixed, belief 0.95, fixes belief 0.95, nothing regressed, 3+3 runs)",
      "PR #2: 20-integration fixed; fixes #7 unresolved (30-net flaky_patched, 3+3 runs)",
      "PR #3: 20-integration fixed; closes no issue (3+3 runs)",
      "PR #4: fixes #7 (20-integration fixed, fixes belief 0.92, nothing regressed, 3+3 runs; 30-net flaky_patched: " +
        "flaky at the base, not counted)",
      // Flaky at the base: left out of PASS_TO_PASS, and said to be unresolved (not "checked and fine").
      "PR #5: fixes #7 (20-integration fixed, fixes belief 0.91, nothing regressed, 3+3 runs; unresolved: 30-net " +
        "flaky_baseline)",
      // The act's typed diff says fixed; the graph's claim is unverified: said with its belief, never "fixes".
      "PR #6: 20-integration fixed, belief 0.80; fixes #7 unverified (belief 0.89), 3+3 runs — unresolved",
    ]);
  }
);

test(
  "a check's finding: at the base and at each PR's patch it was rerun at, in the verdict words with its trials; a " +
    "rate the budget left undecided, or no verdict, is unresolved",
  (t) => {
    const node = (claim: string, step: string, patch: string | null, over: object) => ({
      kind: "node",
      claim_id: claim,
      claim_kind: "check",
      subject: { step, patch_sha256: patch },
      pr: patch ? { id: A, number: 1 } : null,
      ...over,
    });
    const rate = (r: number, lo: number, hi: number, decided: boolean) => ({
      rate_micros: r,
      low_micros: lo,
      high_micros: hi,
      decided,
    });
    const observed = [
      { kind: "observation" },
      node("check:b", "30-net", null, {
        verdict: "flaky",
        trials: 31,
        flake_rate: rate(190_000, 90_000, 360_000, true),
      }),
      node("check:p", "30-net", "p".repeat(64), {
        verdict: "flaky",
        trials: 23,
        flake_rate: rate(170_000, 70_000, 370_000, false),
      }),
      node("check:u", "10-unit", "p".repeat(64), { verdict: "unknown", trials: 2, flake_rate: null }),
    ];
    const rerun = (step: string, patch: string | null) => ({
      plan_kind: "CheckRerun",
      stats: { step, patch_sha256: patch },
    });
    t.deepEqual(
      findings(
        observed,
        [rerun("30-net", null), rerun("30-net", "p".repeat(64)), rerun("10-unit", "p".repeat(64))],
        []
      ),
      [
        "30-net: flaky, fail rate 0.19 [0.09, 0.36], 31 trials",
        "10-unit at PR #1's patch: unknown, 2 trials — unresolved",
        "30-net at PR #1's patch: flaky, fail rate 0.17 [0.07, 0.37], 23 trials (rate undecided — unresolved)",
      ]
    );
  }
);

test("a check's finding carries its verdict's bound; a bound wider than the precision is '— unresolved'", (t) => {
  const node = (step: string, verdict: string, passes: number, fails: number, bound?: object) => ({
    kind: "node",
    claim_id: `check:${step}`,
    claim_kind: "check",
    subject: { step, tree: "T" },
    tree: "T",
    verdict,
    passes,
    fails,
    trials: passes + fails,
    signatures: fails ? ["sig-v1:a"] : [],
    flake_rate: null,
    ...(bound ? { bound } : {}),
  });
  const head = { kind: "observation", base_tree: "T", config: { precision_micros: 300_000 } };
  const o = [
    head,
    node("10-unit", "passing", 3, 0),
    node("11-lint", "passing", 12, 0),
    node("20-net", "failing", 0, 4),
    node("21-build", "failing", 0, 10, {
      decided: true,
      low_micros: 0,
      method: "clopper-pearson",
      rate: "pass",
      upper_micros: 258_866,
    }),
  ];
  const targets = ["10-unit", "11-lint", "20-net", "21-build"].map((s) => ({ key: s, refs: [`check:${s}`] }));
  t.deepEqual(findings(o, [], targets), [
    "10-unit: passing, 3 trials (fail rate ≤ 0.64 at 95 %, Clopper–Pearson) — unresolved",
    "11-lint: passing, 12 trials (fail rate ≤ 0.23 at 95 %, Clopper–Pearson)",
    "20-net: failing, 4 trials, one signature (pass rate ≤ 0.53 at 95 %, Clopper–Pearson) — unresolved",
    "21-build: failing, 10 trials, one signature (pass rate ≤ 0.26 at 95 %, Clopper–Pearson)",
  ]);
});

test(
  "the report lists every claim the loop holds a verdict on (checks at the base, at each open PR's patch, PRs, " +
    "issues)",
  (t) => {
    const all = findings as unknown as Full;
    const check = (step: string, patch: string | null, over: object) => ({
      kind: "node",
      claim_id: `check:${step}:${patch}`,
      claim_kind: "check",
      current: true,
      tree: "T",
      patch_sha256: patch,
      subject: { step, tree: "T", patch_sha256: patch },
      pr: patch ? { id: A, number: 1 } : null,
      signatures: [],
      flake_rate: null,
      ...over,
    });
    const o = [
      { kind: "observation", base_tree: "T", config: { precision_micros: 300_000 } },
      { ...pr(A, 1), effects: { "10-unit": "regressed" } },
      pr(B, 2),
      check("10-unit", null, { verdict: "passing", trials: 12, passes: 12, fails: 0 }),
      check("20-net", null, { verdict: "passing", trials: 3, passes: 3, fails: 0 }),
      check("10-unit", `patch-${A}`, { verdict: "failing", trials: 3, passes: 0, fails: 3, signatures: ["s"] }),
      { kind: "issue", id: ISSUE, number: 7, state: "closed", fix_evidence: [], closed_by: null },
    ];
    const rerun = { plan_kind: "CheckRerun", stats: { step: "20-net", patch_sha256: null } };
    t.deepEqual(all(o, [rerun], [], new Map(), [], false), [
      "10-unit: passing, 12 trials (fail rate ≤ 0.23 at 95 %, Clopper–Pearson)",
      "20-net: passing, 3 trials (fail rate ≤ 0.64 at 95 %, Clopper–Pearson) — unresolved",
      "10-unit at PR #1's patch: failing, 3 trials, one signature (pass rate ≤ 0.64 at 95 %, Clopper–Pearson) — " +
        "unresolved",
      // The typed diff says regressed; the graph's failure at the patch is not bounded: never a bare "regresses".
      "PR #1: 10-unit regressed, no belief (at its patch: failing, 3 trials, not bounded), earlier runs — unresolved",
      "issue #7: closed, unverified: no patch",
    ]);
  }
);

type Full = (
  obs: object[],
  results: object[],
  lastTargets: object[],
  issueNumbers: Map<string, number>,
  firstTargets: object[],
  brief: boolean,
  opts?: object
) => string[];

test(
  "--brief says only what changed in this run: the findings whose verdict differs from the observation before it " +
    "(more trials of the same verdict are no change)",
  (t) => {
    const all = findings as unknown as Full;
    const head = { kind: "observation", base_tree: "T", config: { precision_micros: 300_000 } };
    const check = (step: string, over: object) => ({
      kind: "node",
      claim_id: `check:${step}`,
      claim_kind: "check",
      current: true,
      tree: "T",
      patch_sha256: null,
      subject: { step, tree: "T", patch_sha256: null },
      pr: null,
      signatures: [],
      flake_rate: null,
      ...over,
    });
    const issue = { kind: "issue", id: ISSUE, number: 7, state: "closed", fix_evidence: [], closed_by: null };
    const before = [
      head,
      check("10-unit", { verdict: "passing", trials: 12, passes: 12, fails: 0 }),
      check("20-net", { verdict: "passing", trials: 3, passes: 3, fails: 0 }),
      check("30-db", { verdict: "passing", trials: 4, passes: 4, fails: 0 }),
      issue,
    ];
    const after = [
      head,
      check("10-unit", { verdict: "passing", trials: 21, passes: 21, fails: 0 }),
      // Bounded now: a change.
      check("20-net", { verdict: "passing", trials: 12, passes: 12, fails: 0 }),
      // A rerun showed a failure: flaky now.
      check("30-db", {
        verdict: "flaky",
        trials: 13,
        passes: 12,
        fails: 1,
        flake_rate: { rate_micros: 76_923, low_micros: 13_000, high_micros: 333_000, decided: false },
      }),
      check("40-new", { verdict: "passing", trials: 9, passes: 9, fails: 0 }),
      issue,
    ];
    t.deepEqual(all(after, [], [], new Map(), [], true, { before }), [
      "20-net: passing, 12 trials (fail rate ≤ 0.23 at 95 %, Clopper–Pearson)",
      "30-db: flaky, fail rate 0.08 [0.01, 0.34], 13 trials (rate undecided — unresolved)",
      "40-new: passing, 9 trials (fail rate ≤ 0.29 at 95 %, Clopper–Pearson)",
    ]);
    t.is(all(after, [], [], new Map(), [], false, { before }).length, 5, "the whole report: every claim");
  }
);

test(
  "a regression is said only when the graph bounds both sides (passing at the base, failing at the patch), with " +
    "its belief; on a budget's halt the targets left are listed, each with what it is about",
  (t) => {
    const all = findings as unknown as Full;
    const head = { kind: "observation", base_tree: "T", config: { precision_micros: 300_000 } };
    const check = (step: string, patch: string | null, over: object) => ({
      kind: "node",
      claim_id: `check:${step}:${patch}`,
      claim_kind: "check",
      current: true,
      tree: "T",
      patch_sha256: patch,
      subject: { step, tree: "T", patch_sha256: patch },
      pr: patch ? { id: A, number: 2 } : null,
      signatures: ["s"],
      flake_rate: null,
      ...over,
    });
    const o = [
      head,
      { ...pr(A, 2), effects: { "10-unit": "regressed", "20-api": "regressed" } },
      check("10-unit", null, { verdict: "passing", trials: 31, passes: 31, fails: 0, belief_micros: 969_696 }),
      check("20-api", null, { verdict: "passing", trials: 12, passes: 12, fails: 0, belief_micros: 928_571 }),
      check("10-unit", `patch-${A}`, { verdict: "failing", trials: 9, passes: 0, fails: 9, belief_micros: 90_909 }),
      check("20-api", `patch-${A}`, { verdict: "failing", trials: 4, passes: 0, fails: 4, belief_micros: 166_666 }),
    ];
    const f = all(o, [], [], new Map(), [], false);
    t.deepEqual(
      f.filter((x) => x.startsWith("PR ")),
      [
        "PR #2: regresses 10-unit (belief 0.88: passing at the base, failing at its patch, both bounded) (earlier " +
          "runs; unresolved: 20-api regressed, belief 0.77 (at its patch: failing, 4 trials, not bounded))",
      ]
    );
    const target = {
      key: "fragile:check:20-api:patch",
      refs: [`check:20-api:patch-${A}`],
      target_kind: "FragileNode",
      plan_kind: "CheckRerun",
      urgency_micros: 700_000,
      exhausted: false,
      attempts: 0,
    };
    const left = all(o, [], [target], new Map(), [], false, { halt: "time_budget_exhausted" });
    t.true(
      left.includes(
        "target fragile:check:20-api:patch (20-api at PR #2's patch): left open (time_budget_exhausted), CheckRerun " +
          "next — unresolved"
      ),
      left.join("\n")
    );
    const done = all(o, [], [target], new Map(), [], false, { halt: "nothing_worth_investigating" });
    t.false(
      done.some((x) => /left open/.test(x)),
      "only a budget's halt leaves targets open"
    );
  }
);

test("tests are checks: each test of a step is its own finding, named <step> › <test>", (t) => {
  const node = (claim: string, test: string, over: object) => ({
    kind: "node",
    claim_id: claim,
    claim_kind: "check",
    current: true,
    subject: { step: "20-unit", test, patch_sha256: null },
    pr: null,
    ...over,
  });
  const bound = (upper: number) => ({
    decided: true,
    low_micros: 0,
    method: "clopper-pearson",
    rate: "fail",
    upper_micros: upper,
  });
  const observed = [
    { kind: "observation", config: { precision_micros: 300_000 } },
    node("check:a", "parser › handles --", {
      verdict: "flaky",
      trials: 24,
      flake_rate: { rate_micros: 210_000, low_micros: 90_000, high_micros: 410_000, decided: false },
    }),
    node("check:b", "group 1 › case 0", { verdict: "passing", trials: 24, bound: bound(117_000) }),
  ];
  const rerun = {
    plan_kind: "CheckRerun",
    stats: { step: "20-unit", test: "parser › handles --", patch_sha256: null },
  };
  t.deepEqual(findings(observed, [rerun], []), [
    "20-unit › group 1 › case 0: passing, 24 trials (fail rate ≤ 0.12 at 95 %, Clopper–Pearson)",
    "20-unit › parser › handles --: flaky, fail rate 0.21 [0.09, 0.41], 24 trials (rate undecided — unresolved)",
  ]);
});
