import test from "ava";
import { batch, claim, supports, trial, trials } from "./_fixture.js";
import { compile } from "./compile.js";

test("compile() builds one node per claim with its trials and support terms", (t) => {
  const c = compile(
    batch([claim("a"), claim("b"), claim("x", "fixes")], [trial("a", "pass")], [supports("a", "x"), supports("b", "x")])
  );
  t.deepEqual(
    c.nodes.map((n) => n.id),
    ["a", "b", "x"]
  );
  t.is(c.index.get("a")!.trials.length, 1);
  t.deepEqual(
    c.index.get("x")!.terms.map((x) => x.id),
    ["rel:a>x", "rel:b>x"]
  );
  t.is(c.index.get("x")!.mode, "supports");
  t.deepEqual(c.index.get("a")!.dependents, ["x"]);
  t.deepEqual(c.markers, []);
});

test("compile() groups only the supports the batch puts in one group, per target", (t) => {
  const c = compile(
    batch(
      [claim("a"), claim("b"), claim("d"), claim("x", "fixes"), claim("y", "fixes")],
      [trial("a", "pass")],
      [supports("a", "x", "g"), supports("b", "x", "g"), supports("d", "x"), supports("a", "y", "g")]
    )
  );
  t.deepEqual(
    c.index.get("x")!.terms.map((x) => [x.id, x.members.map((m) => m.from)]),
    [
      ["group:g", ["a", "b"]],
      ["rel:d>x", ["d"]],
    ]
  );
  t.deepEqual(
    c.index.get("y")!.terms.map((x) => [x.id, x.members.map((m) => m.from)]),
    [["group:g", ["a"]]]
  );
});

test("compile() marks a relation or trial naming a claim the batch does not state as dangling, and drops it", (t) => {
  const c = compile(
    batch(
      [claim("a"), claim("x", "fixes")],
      [trial("ghost", "pass", { trial_id: "t-ghost" })],
      [supports("ghost", "x"), supports("a", "x")]
    )
  );
  t.deepEqual(c.markers, ["dangling_ref:relation:ghost>x", "dangling_ref:trial:t-ghost"]);
  t.is(c.index.get("x")!.terms.length, 1);
  t.false(c.index.has("ghost"));
});

test("compile() marks support cycles and leaves their nodes without a belief", (t) => {
  const c = compile(
    batch([claim("a"), claim("x", "fixes"), claim("y", "fixes")], trials("a", "pass", 3), [
      supports("a", "x"),
      supports("x", "y"),
      supports("y", "x"),
    ])
  );
  t.deepEqual(c.markers, ["cycle:x,y"]);
  t.true(c.index.get("x")!.cyclic && c.index.get("y")!.cyclic);
  t.false(c.index.get("a")!.cyclic);
});

test("compile() marks a derived claim with no supports and no trials as missing semantics", (t) => {
  const c = compile(batch([claim("a"), claim("x", "criterion")], trials("a", "pass", 1)));
  t.deepEqual(c.markers, ["missing_semantics:x"]);
  t.is(c.index.get("x")!.mode, "none");
});

test("compile() marks an unknown claim kind and gives it no belief mode", (t) => {
  const c = compile(batch([claim("a", "vibes")], []));
  t.deepEqual(c.markers, ["thin_payload:no_trials", "unknown_kind:a"]);
  t.is(c.index.get("a")!.mode, "none");
});

test("compile() marks a thin payload: no claims, or no trials at all", (t) => {
  t.deepEqual(compile(batch([])).markers, ["thin_payload:no_claims"]);
  t.deepEqual(compile(batch([claim("a")])).markers, ["thin_payload:no_trials"]);
});

test("compile() marks a payload that is not a kernel batch and invents nothing", (t) => {
  for (const bad of [null, 42, "x", [], { claims: "nope" }]) {
    const c = compile(bad);
    t.is(c.nodes.length, 0);
    t.true(
      c.markers.some((m) => m.startsWith("malformed_payload:")),
      JSON.stringify(bad)
    );
  }
  t.deepEqual(compile({ schema_version: "other/v9", claims: [], trials: [], relations: [] }).markers, [
    "malformed_payload:schema_version",
    "thin_payload:no_claims",
  ]);
});

test("compile() drops a malformed record with a marker naming its id and field", (t) => {
  const c = compile(
    batch(
      [claim("a"), { ...claim("b"), recorded_at: "yesterday" }],
      [{ ...trial("a", "pass", { trial_id: "t-bad" }), outcome: "maybe" as never }]
    )
  );
  t.deepEqual(c.markers, ["malformed_claim:b:recorded_at", "malformed_trial:t-bad:outcome", "thin_payload:no_trials"]);
});

test("compile() merges identical duplicates and drops conflicting ones with a marker", (t) => {
  const p = trial("a", "pass", { trial_id: "dup" });
  t.is(compile(batch([claim("a")], [p, { ...p }])).index.get("a")!.trials.length, 1);
  const c = compile(batch([claim("a")], [p, { ...p, outcome: "fail" }]));
  t.is(c.index.get("a")!.trials.length, 0);
  t.deepEqual(c.markers, ["duplicate_id:trial:dup", "thin_payload:no_trials"], "both copies dropped: no trial is left");
});

test("compile() takes the latest version of a claim and refuses versions that disagree on the kind", (t) => {
  const c = compile(
    batch(
      [
        claim("a"),
        claim("a", "check", { claim_version_id: "a@2", recorded_at: "2026-01-05T00:00:00Z", statement: "v2" }),
      ],
      trials("a", "pass", 1)
    )
  );
  t.is(c.index.get("a")!.version.statement, "v2");
  t.deepEqual(c.index.get("a")!.versions, ["a@1", "a@2"]);
  const k = compile(batch([claim("a"), claim("a", "fixes", { claim_version_id: "a@2" })]));
  t.deepEqual(k.markers, ["kind_conflict:a", "thin_payload:no_claims"]);
  t.false(k.index.has("a"));
});

test("compile() ignores a support into a check (checks are leaves) with a marker", (t) => {
  const c = compile(batch([claim("a"), claim("b")], trials("a", "pass", 1), [supports("a", "b")]));
  t.deepEqual(c.markers, ["ignored_relation:a>b"]);
  t.is(c.index.get("b")!.terms.length, 0);
});

test("compile() records supersedes without using it for beliefs", (t) => {
  const c = compile(
    batch([claim("a"), claim("b")], trials("a", "pass", 1), [
      { relation_id: "s1", kind: "supersedes", from: "b", to: "a", group: null, recorded_at: "2026-01-01T00:00:00Z" },
    ])
  );
  t.deepEqual(c.index.get("a")!.superseded_by, ["b"]);
  t.deepEqual(c.index.get("a")!.dependents, []);
});

test(
  "compile() classifies a run where most trials fail as infrastructure, and a pass on retry of a failed run as " +
    "flaky",
  (t) => {
    const infra = ["a", "b", "c"].map((id) => trial(id, "fail", { run_id: "R1" }));
    const retry = [
      trial("d", "fail", { run_id: "R2" }),
      trial("d", "pass", { run_id: "R3", retry_of: "R2", trial_id: "retry" }),
    ];
    const c = compile(
      batch(
        ["a", "b", "c", "d"].map((id) => claim(id)),
        [...infra, ...retry]
      )
    );
    t.deepEqual(c.infra_runs, ["R1"]);
    t.is(c.infra_trials.size, 3);
    t.deepEqual([...c.flaky_trials], ["retry"]);
  }
);

test("compile() keeps a claim version restated at another time once, at its first statement", (t) => {
  const late = claim("a", "check", { recorded_at: "2026-01-09T00:00:00Z" });
  for (const claims of [
    [claim("a"), late],
    [late, claim("a")],
  ]) {
    const c = compile(batch(claims, trials("a", "pass", 1)));
    t.deepEqual(c.markers, []);
    t.is(c.index.get("a")!.version.recorded_at, "2026-01-01T00:00:00Z");
  }
});

test(
  "compile() keeps a relation restated at another time once (two paired runs of one patch), and still drops a " +
    "conflicting one",
  (t) => {
    const late = { ...supports("a", "e"), recorded_at: "2026-01-09T00:00:00Z" };
    for (const rels of [
      [supports("a", "e"), late],
      [late, supports("a", "e")],
    ]) {
      const c = compile(batch([claim("a"), claim("e", "patch_effect")], trials("a", "pass", 3), rels));
      t.deepEqual(c.markers, []);
      t.is(c.index.get("e")!.terms.length, 1);
    }
    const other = { ...supports("a", "e"), kind: "supersedes" as const };
    t.deepEqual(
      compile(
        batch([claim("a"), claim("e", "patch_effect")], trials("a", "pass", 3), [supports("a", "e"), other])
      ).markers.filter((m) => m.startsWith("duplicate")),
      ["duplicate_id:relation:a>e"]
    );
  }
);
