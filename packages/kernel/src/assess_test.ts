import test from "ava";
import { batch, claim, trial, trials } from "./_fixture.js";
import { assess } from "./assess.js";
import { compile } from "./compile.js";

const SIG = "sig-v1:" + "f".repeat(32);

test("assess() finds a syndrome: two failed trials with one signature", (t) => {
  const a = assess(
    compile(
      batch(
        [claim("a"), claim("b")],
        [trial("a", "fail", { signature: SIG }), trial("a", "fail", { signature: SIG }), ...trials("b", "pass", 2)]
      )
    )
  );
  t.deepEqual(a.syndromes, [{ signature: SIG, trials: 2, claims: ["a"] }]);
  t.is(a.counts.syndromes, 1);
});

test("assess() does not count one failure, or failures in an infrastructure run, as a syndrome", (t) => {
  const one = assess(compile(batch([claim("a")], [trial("a", "fail", { signature: SIG })])));
  t.deepEqual(one.syndromes, []);
  const infra = assess(
    compile(
      batch(
        ["a", "b", "c"].map((id) => claim(id)),
        ["a", "b", "c"].map((id) => trial(id, "fail", { signature: SIG, run_id: "R" }))
      )
    )
  );
  t.deepEqual(infra.syndromes, []);
  t.deepEqual(infra.infra_runs, ["R"]);
});

test("assess() marks a node fragile below the threshold, for mixed outcomes and for a pass on retry", (t) => {
  const a = assess(
    compile(
      batch(
        [claim("ok"), claim("few"), claim("mixed"), claim("retry")],
        [
          ...trials("ok", "pass", 8),
          ...trials("few", "pass", 2),
          ...trials("mixed", "pass", 30),
          trial("mixed", "fail"),
          trial("retry", "fail", { run_id: "R1" }),
          trial("retry", "pass", { run_id: "R2", retry_of: "R1" }),
        ]
      )
    )
  );
  const by = Object.fromEntries(a.nodes.map((n) => [n.id, n]));
  t.false(by.ok!.fragile);
  t.is(by.ok!.belief_micros, 900_000);
  t.deepEqual(by.few!.fragile_reasons, ["below_threshold"]);
  t.deepEqual(by.mixed!.fragile_reasons, ["mixed_outcomes"]);
  t.true(by.retry!.fragile_reasons.includes("flaky_retry"));
});

test("assess() gives a calibration caveat below min_trials", (t) => {
  const a = assess(compile(batch([claim("a"), claim("b")], [...trials("a", "pass", 2), ...trials("b", "pass", 3)])));
  t.deepEqual(
    a.nodes.map((n) => n.caveat),
    [true, false]
  );
  t.is(a.counts.caveats, 1);
});
