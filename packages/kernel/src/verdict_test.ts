import test from "ava";
import { assess } from "./assess.js";
import { compile } from "./compile.js";
import { batch, claim, trial, trials } from "./_fixture.js";
import { rng } from "./testing.js";
import {
  checkVerdict,
  clopperPearsonZeroMicros,
  flakeRate,
  syndromeStates,
  trialsToBound,
  trialsToDecide,
  wilsonIntervalMicros,
} from "./verdict.js";

const P = 300_000;
const SIG_A = "sig-v1:" + "a".repeat(32);
const SIG_B = "sig-v1:" + "b".repeat(32);

function verdictOf(ts: ReturnType<typeof trial>[], id = "c") {
  const c = compile(batch([claim(id)], ts));
  return checkVerdict(c.index.get(id)!, c, P);
}

test(
  "checkVerdict(): unknown below min_trials, failing with no pass, passing with no fail, flaky for mixed outcomes " +
    "in one environment",
  (t) => {
    t.is(verdictOf(trials("c", "fail", 2)).verdict, "unknown");
    const failing = verdictOf(trials("c", "fail", 4, { signature: SIG_A }));
    t.is(failing.verdict, "failing");
    t.deepEqual(failing.signatures, [SIG_A]);
    t.is(failing.flake_rate, null);
    t.is(verdictOf(trials("c", "pass", 3)).verdict, "passing");
    const flaky = verdictOf([...trials("c", "pass", 5), trial("c", "fail", { signature: SIG_B })]);
    t.is(flaky.verdict, "flaky");
    t.deepEqual(flaky.flake_rate && { rate: flaky.flake_rate.rate_micros, decided: flaky.flake_rate.decided }, {
      rate: 166_666,
      decided: false,
    });
    t.true(flaky.flake_rate!.low_micros < 166_666 && flaky.flake_rate!.high_micros > 166_666);
  }
);

test("checkVerdict(): a pass on retry of a failed run is flaky even below min_trials; errors are not counted", (t) => {
  const v = verdictOf([
    trial("c", "fail", { run_id: "R1" }),
    trial("c", "pass", { run_id: "R2", retry_of: "R1" }),
    trial("c", "error"),
  ]);
  t.is(v.verdict, "flaky");
  t.is(v.stats.errors, 1);
});

test("checkVerdict(): mixed outcomes only across environments are drift (unknown), not flaky", (t) => {
  const v = verdictOf([
    ...trials("c", "pass", 3, { env_fingerprint: "e1" }),
    ...trials("c", "fail", 3, { env_fingerprint: "e2" }),
  ]);
  t.is(v.verdict, "unknown");
  t.true(v.drift);
  t.deepEqual(v.env_fingerprints, ["e1", "e2"]);
  t.false(
    verdictOf([
      ...trials("c", "pass", 3, { env_fingerprint: "e1" }),
      ...trials("c", "fail", 1, { env_fingerprint: "e1" }),
    ]).drift
  );
});

test(
  "flakeRate() is decided once its 95% interval is no wider than the precision; trialsToDecide() says how many " +
    "trials that takes",
  (t) => {
    t.false(flakeRate(1, 6, P).decided);
    t.true(flakeRate(6, 30, P).decided);
    t.false(flakeRate(0, 0, P).decided);
    const need = trialsToDecide(1, 6, P);
    t.true(need > 6);
    // At the smoothed rate the normal approximation asks for, the Wilson interval is decided.
    t.true(flakeRate(Math.round(need * 0.25), need, P).decided);
    t.deepEqual(wilsonIntervalMicros(0, 0), [0, 1_000_000]);
    const [lo, hi] = wilsonIntervalMicros(5, 10);
    t.true(lo < 500_000 && hi > 500_000 && hi - lo < 1_000_000);
  }
);

test("syndromeStates(): a syndrome is active only while a current claim fails with it", (t) => {
  const c = compile(
    batch(
      [claim("old"), claim("now")],
      [...trials("old", "fail", 2, { signature: SIG_A }), ...trials("now", "fail", 2, { signature: SIG_B })]
    )
  );
  const s = syndromeStates(assess(c).syndromes, new Set(["now"]));
  t.deepEqual(
    s.map((x) => [x.signature, x.active, x.active_claims]),
    [
      [SIG_A, false, []],
      [SIG_B, true, ["now"]],
    ]
  );
});

test(
  "compile(): failures of an infrastructure run that reproduce at the same tree (another run fails the claim) are " +
    "evidence, not discarded",
  (t) => {
    // A bad patch broke all three steps of a small suite, twice: two "infrastructure" runs.
    const ts = ["a", "b", "c"].flatMap((id) => [
      trial(id, "fail", { run_id: "R1" }),
      trial(id, "fail", { run_id: "R2" }),
    ]);
    const c = compile(
      batch(
        ["a", "b", "c"].map((id) => claim(id)),
        ts
      )
    );
    t.deepEqual(c.infra_runs, ["R1", "R2"]);
    t.is(c.infra_trials.size, 0);
    t.is(checkVerdict(c.index.get("a")!, c, P).verdict, "unknown"); // 2 < min_trials, but counted
    t.is(checkVerdict(c.index.get("a")!, c, P).stats.f, 2);
    // One run alone cannot tell an outage from a regression: still left out (and visible as infra).
    const one = compile(
      batch(
        ["a", "b", "c"].map((id) => claim(id)),
        ["a", "b", "c"].map((id) => trial(id, "fail", { run_id: "R" }))
      )
    );
    t.is(one.infra_trials.size, 3);
    t.is(checkVerdict(one.index.get("a")!, one, P).stats.infra, 1);
  }
);

test("compile(): the infrastructure rule drops a run's trials all together or none, never a pass alone", (t) => {
  // R: 4 of 5 trials fail (an infrastructure-looking run); "a"'s failure reproduces in R2, "d" passed in R.
  const ts = [
    trial("e", "fail", { run_id: "R" }),
    trial("a", "fail", { run_id: "R" }),
    trial("b", "fail", { run_id: "R" }),
    trial("c", "fail", { run_id: "R" }),
    trial("d", "pass", { run_id: "R" }),
    trial("a", "fail", { run_id: "R2" }),
    trial("d", "pass", { run_id: "R2" }),
  ];
  const c = compile(
    batch(
      ["a", "b", "c", "d", "e"].map((id) => claim(id)),
      ts
    )
  );
  t.deepEqual(c.infra_runs, ["R"]);
  t.is(c.infra_trials.size, 0, "a reproduced failure keeps the whole run, its pass of d too");
  t.is(checkVerdict(c.index.get("d")!, c, P).stats.s, 2);
  t.is(checkVerdict(c.index.get("b")!, c, P).stats.f, 1);
  // Without R2's failure of a, nothing in R reproduces: every trial of R is left out, the pass with the failures.
  const none = compile(
    batch(
      ["a", "b", "c", "d", "e"].map((id) => claim(id)),
      ts.slice(0, 5)
    )
  );
  t.is(none.infra_trials.size, 5);
  t.is(checkVerdict(none.index.get("d")!, none, P).stats.infra, 1);
});

test("verdictBound(): passing and failing carry the one-sided Clopper–Pearson bound, decided in the precision", (t) => {
  t.is(clopperPearsonZeroMicros(0), 1_000_000);
  t.is(clopperPearsonZeroMicros(1), 950_000);
  t.is(clopperPearsonZeroMicros(10), 258_866);
  const p3 = verdictOf(trials("c", "pass", 3));
  t.deepEqual(p3.bound, {
    decided: false,
    low_micros: 0,
    method: "clopper-pearson",
    rate: "fail",
    upper_micros: 631_597,
  });
  t.deepEqual(verdictOf(trials("c", "pass", 9)).bound.decided, true, "1 − 0.05^(1/9) = 0.283 ≤ 0.30");
  t.deepEqual(verdictOf(trials("c", "pass", 8)).bound.decided, false, "1 − 0.05^(1/8) = 0.312 > 0.30");
  const f4 = verdictOf(trials("c", "fail", 4));
  t.is(f4.verdict, "failing");
  t.deepEqual(f4.bound, {
    decided: false,
    low_micros: 0,
    method: "clopper-pearson",
    rate: "pass",
    upper_micros: 527_130,
  });
  const flaky = verdictOf([...trials("c", "pass", 5), trial("c", "fail")]);
  t.deepEqual(
    [flaky.bound.method, flaky.bound.rate, flaky.bound.low_micros, flaky.bound.upper_micros, flaky.bound.decided],
    ["wilson", "fail", flaky.flake_rate!.low_micros, flaky.flake_rate!.high_micros, flaky.flake_rate!.decided]
  );
  const unknown = verdictOf(trials("c", "pass", 2));
  t.is(unknown.verdict, "unknown");
  t.false(unknown.bound.decided, "unknown is never decided");
});

test(
  "property: over generated histories (fail rates 0–100 %, 1–40 trials) every verdict carries a bound, and each " +
    "verdict's stated bound holds for the generating rate in ≥ 95 % of its histories",
  (t) => {
    // A seeded PRNG (mulberry32): the property test is the same on every run.
    const rnd = rng(25);
    const held = new Map<string, { yes: number; all: number }>();
    const HISTORIES = 4000;
    for (let h = 0; h < HISTORIES; h++) {
      const p = Math.floor(rnd() * 21) / 20; // 0, 0.05, …, 1
      const n = 1 + Math.floor(rnd() * 40);
      const ts = Array.from({ length: n }, () => trial("c", rnd() < p ? "fail" : "pass"));
      const v = verdictOf(ts);
      const b = v.bound;
      t.truthy(b, `${v.verdict} without a bound`);
      const r = b.rate === "fail" ? p * 1e6 : (1 - p) * 1e6;
      const ok = b.low_micros <= r && r <= b.upper_micros;
      if (v.verdict === "passing" || v.verdict === "failing") t.is(b.method, "clopper-pearson");
      else t.is(b.method, "wilson");
      for (const k of [v.verdict, "all"]) {
        let e = held.get(k);
        if (!e) held.set(k, (e = { yes: 0, all: 0 }));
        e.all++;
        if (ok) e.yes++;
      }
    }
    for (const w of ["passing", "failing", "flaky", "all"]) {
      const e = held.get(w)!;
      t.true(e.all > 100, `${w}: ${e.all} histories`);
      t.true(e.yes / e.all >= 0.95, `${w}: the bound held in ${e.yes} of ${e.all}`);
    }
  }
);

test("trialsToBound(): the fewest all-same trials whose Clopper–Pearson bound is within the precision", (t) => {
  for (const p of [50_000, 100_000, 300_000, 500_000, 950_000]) {
    const n = trialsToBound(p);
    t.true(clopperPearsonZeroMicros(n) <= p, `${p}: ${n}`);
    t.true(n === 1 || clopperPearsonZeroMicros(n - 1) > p, `${p}: ${n - 1} would do`);
  }
  t.is(trialsToBound(300_000), 9);
});
