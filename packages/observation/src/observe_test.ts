import test from "ava";
import { canonicalJson } from "@forge/kernel";
import {
  check,
  ENV,
  inputs,
  issueOf,
  kernel,
  OLD_TREE,
  prOf,
  runOf,
  scope,
  SIG,
  SIG2,
  trialOf,
  TREE,
} from "./_fixture.js";
import type { NodeLine, Observation } from "@forge/contract";
import { observationLines, observationText, observe } from "./observe.js";

const node = (o: Observation, id: string): NodeLine => o.nodes.find((n) => n.claim_id === id)!;
const kinds = (o: Observation): string[] => [...new Set(observationLines(o).map((l) => l.kind))];

test(
  "observe(): verdicts at the base tree (stable failure, " + "flaky, passing) and the flake rate's interval, undecided",
  (t) => {
    const claims = [check("c:int", "20-integration"), check("c:net", "30-net"), check("c:unit", "10-unit")];
    const trials = [
      ...["a", "b", "c", "d"].map((r) => trialOf("c:int", "fail", r)),
      ...["a", "b", "c", "d", "e"].map((r) => trialOf("c:net", "pass", r)),
      trialOf("c:net", "fail", "f", { signature: SIG2 }),
      ...["a", "b", "c"].map((r) => trialOf("c:unit", "pass", r)),
    ];
    const o = observe(inputs({ state: scope(kernel(claims, trials)) }));
    t.is(node(o, "c:int").verdict, "failing");
    t.is(node(o, "c:unit").verdict, "passing");
    const net = node(o, "c:net");
    t.is(net.verdict, "flaky");
    t.like(net.flake_rate as object, { rate_micros: 166_666, decided: false });
    t.true(net.current as boolean);
    t.is(net.head_sha, "c".repeat(40));
    // One syndrome (the stable failure's signature, 4 failures); the flaky check's single failure is no syndrome.
    t.deepEqual(
      o.syndromes.map((s) => [s.signature, s.active, s.failing_claim_ids]),
      [[SIG, true, ["c:int"]]]
    );
    t.is(o.header.health.fragile_node_count, 1);
    t.deepEqual(o.header.markers, []);
  }
);

test(
  "observe(): a syndrome at a tree that is gone is cleared, not active; markers and syndromes describe the " +
    "current state",
  (t) => {
    const claims = [check("c:old", "20-integration", OLD_TREE), check("c:new", "20-integration")];
    const trials = [
      trialOf("c:old", "fail", "a"),
      trialOf("c:old", "fail", "b"),
      ...["c", "d", "e"].map((r) => trialOf("c:new", "pass", r)),
    ];
    const o = observe(inputs({ state: scope(kernel(claims, trials)) }));
    t.deepEqual(
      o.syndromes.map((s) => [s.active, s.active_claim_ids]),
      [[false, []]]
    );
    t.false(node(o, "c:old").current as boolean);
    t.is(o.header.health.syndrome_count, 0);
  }
);

test("degradation: no imports → the no_imports marker and nothing else invented (no nodes, no syndromes)", (t) => {
  const o = observe(inputs({ state: { ...scope(null, []) } }));
  t.deepEqual(o.header.markers, ["no_imports"]);
  t.deepEqual(o.nodes, []);
  t.deepEqual(o.syndromes, []);
  t.deepEqual(kinds(o), ["observation", "degradation"]);
  t.is(o.header.health.last_import_at, null);
});

test(
  "degradation: a malformed or missing kernel payload is " + "an explicit marker per import, and contributes no claim",
  (t) => {
    const st = scope(null, [
      { batch_id: "1".repeat(64), markers: ["malformed_kernel_payload"] },
      { batch_id: "2".repeat(64), markers: ["missing_kernel_payload"] },
    ]);
    const o = observe(inputs({ state: st }));
    t.deepEqual(o.header.markers, [
      `malformed_kernel_payload:${"1".repeat(64)}`,
      `missing_kernel_payload:${"2".repeat(64)}`,
      "thin_payload:no_claims",
    ]);
    t.deepEqual(o.degradations[0]!.refs, [`import:${"1".repeat(64)}`]);
    t.deepEqual(o.nodes, []);
    // A payload the kernel refuses in part: the bad record is dropped with a marker, nothing repaired.
    const bad = observe(
      inputs({ state: scope({ ...kernel([check("c:x", "10-unit")], []), trials: [{ trial_id: "t" } as never] }) })
    );
    t.true((bad.header.markers as string[]).some((m) => m.startsWith("malformed_trial:")));
    t.is(bad.nodes.length, 1);
    t.is(bad.nodes[0]!.trials, 0);
    t.is(bad.nodes[0]!.verdict, "unknown");
  }
);

test(
  "degradation: a thin export (a run whose log was deleted) is marked until a later run at the same tree records " +
    "it again; an unexported run is marked",
  (t) => {
    const claims = [check("c:unit", "10-unit")];
    const trials = [trialOf("c:unit", "pass", "r1")];
    const st = {
      ...scope(kernel(claims, trials)),
      evidence_refs: [{ ref_id: "ci-run:r1", kind: "ci-run", path: null, digest: null }],
    };
    const thin = runOf("r1", { steps: [{ name: "10-unit", outcome: "pass", logSha256: "f".repeat(64), log: false }] });
    const o = observe(inputs({ state: st, runs: [thin] }));
    t.deepEqual(o.header.markers, ["missing_log:r1:10-unit"]);
    t.like(o.degradations[0]!.detail as object, {
      run_id: "r1",
      step: "10-unit",
      tree: TREE,
      head_sha: "c".repeat(40),
      patch_sha256: null,
    });
    const later = runOf("r2", { createdAt: "2026-11-30T05:00:00Z" });
    const o2 = observe(inputs({ state: st, runs: [thin, later] }));
    t.deepEqual(o2.header.markers, ["unexported_run:r2"]);
    // An earlier run does not clear it.
    const earlier = runOf("r0", { createdAt: "2026-11-30T01:00:00Z" });
    t.true(
      (observe(inputs({ state: st, runs: [thin, earlier] })).header.markers as string[]).includes(
        "missing_log:r1:10-unit"
      )
    );
  }
);

test(
  "observe(): PR claims are current at an open PR's " + "current patch only; a replaced patch's claims are history",
  (t) => {
    const pr = prOf("p1", 1, { patchSha256: "9".repeat(64), previousPatchSha256: ["8".repeat(64)] });
    const claims = [check("c:new", "10-unit", TREE, "9".repeat(64)), check("c:old", "10-unit", TREE, "8".repeat(64))];
    const o = observe(
      inputs({ state: scope(kernel(claims, [trialOf("c:new", "pass"), trialOf("c:old", "pass")])), prs: [pr] })
    );
    t.true(node(o, "c:new").current as boolean);
    t.deepEqual(node(o, "c:new").pr, { id: "p1", number: 1 });
    t.false(node(o, "c:old").current as boolean);
    t.like(o.prs[0]!, { number: 1, checks: ["10-unit"], previous_patch_sha256: ["8".repeat(64)] });
    t.is(o.header.health.supersession_candidate_count, 1);
  }
);

test(
  "observe(): an issue closed as fixed (a bug, or one a PR closes) with no fixes evidence is unverified; " +
    "closed_by names a merge of a PR that closes it; other closed issues claim nothing",
  (t) => {
    const pr = prOf("p1", 1, { state: "merged", closes: ["i2"] });
    const o = observe(
      inputs({
        issues: [
          issueOf("i1", 1),
          issueOf("i2", 2, "closed", []),
          issueOf("i3", 3, "open"),
          issueOf("i4", 4, "closed", ["documentation"]),
        ],
        prs: [pr],
        merges: [
          {
            id: "m1",
            pr: "p1",
            patchSha256: pr.patchSha256,
            verdict: "merged",
            commit: "d".repeat(40),
            baseRefName: "main",
            createdAt: "2026-11-30T04:00:00Z",
          },
        ],
      })
    );
    t.deepEqual(
      o.issues.map((i) => [i.number, i.closed_by]),
      [
        [1, null],
        [2, "merge:m1"],
      ]
    );
    t.deepEqual(
      o.unverified.map((u) => [u.claim_id, u.why]),
      [
        ["issue:i1", "closed_without_evidence"],
        ["issue:i2", "merged_without_fix_evidence"],
      ]
    );
  }
);

test(
  "observe(): an issue closed as completed (gh's stateReason COMPLETED) with no PR and no evidence is unverified; " +
    "closed as not planned never is, label or not",
  (t) => {
    const o = observe(
      inputs({
        issues: [
          { ...issueOf("i1", 1, "closed", []), stateReason: "completed" },
          { ...issueOf("i2", 2, "closed", []), stateReason: "not_planned" },
          { ...issueOf("i3", 3, "closed", ["bug"]), stateReason: "not_planned" },
          issueOf("i4", 4, "closed", ["bug"]),
          issueOf("i5", 5, "closed", []),
        ],
      })
    );
    t.deepEqual(
      o.issues.map((i) => [i.number, i.state_reason]),
      [
        [1, "COMPLETED"],
        [4, null],
      ]
    );
    t.deepEqual(
      o.unverified.map((u) => [u.claim_id, u.why]),
      [
        ["issue:i1", "closed_without_evidence"],
        ["issue:i4", "closed_without_evidence"],
      ]
    );
  }
);

test("determinism: the same inputs in any order give byte-identical observation text", (t) => {
  const claims = [check("c:a", "10-unit"), check("c:b", "20-int"), check("c:c", "30-net", TREE, "9".repeat(64))];
  const trials = [
    trialOf("c:a", "pass", "x"),
    trialOf("c:b", "fail", "x"),
    trialOf("c:b", "fail", "y"),
    trialOf("c:c", "pass", "z"),
    trialOf("c:a", "fail", "y", { env_fingerprint: ENV }),
  ];
  const runs = [
    runOf("x"),
    runOf("y", { createdAt: "2026-11-30T02:00:05Z" }),
    runOf("z", { patchSha256: "9".repeat(64), pr: "p1" }),
  ];
  const prs = [prOf("p1", 1, { patchSha256: "9".repeat(64) }), prOf("p2", 2)];
  const issues = [issueOf("i1", 1), issueOf("i2", 2)];
  const a = observationText(observe(inputs({ state: scope(kernel(claims, trials)), runs, prs, issues })));
  const b = observationText(
    observe(
      inputs({
        state: scope(kernel([...claims].reverse(), [...trials].reverse())),
        runs: [...runs].reverse(),
        prs: [...prs].reverse(),
        issues: [...issues].reverse(),
      })
    )
  );
  t.is(a, b);
  t.true(
    a
      .split("\n")
      .filter(Boolean)
      .every((l) => canonicalJson(JSON.parse(l)) === l)
  );
});

test(
  "old imports stay readable as separate claims: a commit-keyed check is its own node, current only at the base " +
    "tip's commit",
  (t) => {
    const old = {
      ...check("c:old", "10-unit"),
      subject: { step: "10-unit", head_sha: "c".repeat(40), patch_sha256: null },
    };
    const older = {
      ...check("c:older", "10-unit"),
      subject: { step: "10-unit", head_sha: "9".repeat(40), patch_sha256: null },
    };
    const o = observe(
      inputs({
        state: scope(
          kernel(
            [old, older, check("c:new", "10-unit")],
            [trialOf("c:old", "pass"), trialOf("c:older", "pass"), trialOf("c:new", "pass")]
          )
        ),
      })
    );
    t.deepEqual(
      o.nodes.map((n) => [n.claim_id, n.current, n.tree, n.head_sha]),
      [
        ["c:new", true, TREE, "c".repeat(40)],
        ["c:old", true, null, "c".repeat(40)],
        ["c:older", false, null, "9".repeat(40)],
      ]
    );
  }
);
