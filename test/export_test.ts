/**
 * forge-export end to end: CI run records, merge records and bundles piped
 * into the built executable in a temp repo; one import-log entry per line,
 * one file per import, one stderr line per bad record and exit 1, the
 * degraded cases, and the import log read back through @forge/evidence.
 */
import test from "ava";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { compileScope, readScope } from "@forge/evidence";
import { assess } from "@forge/kernel";
import { ciRun as ciRunRecord, SIG } from "@forge/export/records-fixture";
import { jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** A CI run record as one JSON line (forge-ci list --json). */
const ciRun = (id: string, over: Record<string, unknown> = {}): string => JSON.stringify(ciRunRecord(id, over));

const R1 = "11111111-1111-4111-8111-111111111111";
const R2 = "22222222-2222-4222-8222-222222222222";
const imports = (dir: string): string[] => readdirSync(join(dir, ".forge", "evidence", "imports"));

test("forge-export prints one import-log entry per record and writes one file per import", async (t) => {
  const dir = scratch(tempRepo("forge-export-"));
  const r = await run("forge-export", [], { cwd: dir, input: `${ciRun(R1)}\n${ciRun(R2)}\n` });
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, "");
  const entries = jsonl(r.stdout);
  t.deepEqual(
    entries.map((e) => [e.status, e.bundle_id, e.degraded]),
    [
      ["imported", `ci-run:${R1}`, false],
      ["imported", `ci-run:${R2}`, false],
    ]
  );
  t.deepEqual(imports(dir).sort(), entries.map((e) => `${e.batch_id as string}.json`).sort());
  for (const e of entries) t.is(readFileSync(join(dir, e.file as string), "utf8").endsWith("}\n"), true);
  const a = assess(compileScope(readScope(storeAt(join(dir, ".forge")), "default")));
  t.deepEqual(
    a.syndromes.map((s) => [s.signature, s.trials]),
    [[SIG, 2]]
  );
});

test("forge-export - reads stdin too, and the same records again write nothing new", async (t) => {
  const dir = scratch(tempRepo("forge-export-"));
  await run("forge-export", ["-"], { cwd: dir, input: ciRun(R1) + "\n" });
  const again = await run("forge-export", ["-", "--scope", "default"], { cwd: dir, input: ciRun(R1) + "\n" });
  t.is(again.code, 0, again.stderr);
  t.deepEqual(
    jsonl(again.stdout).map((e) => e.status),
    ["already_imported"]
  );
  t.is(imports(dir).length, 1);
});

test(
  "forge-export reports each bad record on one stderr line " +
    "with its line number and exits 1, keeping the good ones",
  async (t) => {
    const dir = scratch(tempRepo("forge-export-"));
    const r = await run("forge-export", [], {
      cwd: dir,
      input:
        `{"nope":1}\n${ciRun(R1)}\nnot ` +
        `json\n${ciRun(R2, { steps: [{ name: "x", outcome: "meh", durationMs: 1 }] })}\n`,
    });
    t.is(r.code, 1);
    t.deepEqual(r.stderr.trimEnd().split("\n"), [
      "forge-export: stdin line 1: field 'kind': unknown record (expected a CI run, merge record, act_result, " +
        "loop_result or evidence bundle)",
      'forge-export: stdin line 3: not a JSON object: "not json"',
      "forge-export: stdin line 4: ci run: field 'steps[0].outcome': expected pass|fail|timeout|cancelled|skipped",
    ]);
    t.deepEqual(
      jsonl(r.stdout).map((e) => e.bundle_id),
      [`ci-run:${R1}`]
    );
    t.is(imports(dir).length, 1);
  }
);

test("forge-export notes a run still in progress on stderr, writes nothing and exits 0", async (t) => {
  const dir = scratch(tempRepo("forge-export-"));
  const r = await run("forge-export", [], {
    cwd: dir,
    input: ciRun(R1, { status: "in_progress", completedAt: null, conclusion: null, verdict: "running" }) + "\n",
  });
  t.is(r.code, 0);
  t.is(r.stdout, "");
  t.is(r.stderr, `forge-export: stdin line 1: run ${R1} is in_progress: skipped, not evidence\n`);
});

test(
  "forge-export imports a bundle with a dangling " + "relation as degraded, naming it, with no invented node",
  async (t) => {
    const dir = scratch(tempRepo("forge-export-"));
    const claim = (id: string, kind: string) => ({
      claim_id: id,
      claim_version_id: `${id}@1`,
      kind,
      subject: {},
      statement: id,
      recorded_at: "2026-11-30T03:00:00Z",
      supersedes_claim_version_id: null,
    });
    const bundle = {
      kind: "evidence_bundle",
      schema_version: "forge-evidence-bundle/v1",
      bundle_id: "b1",
      candidate_id: "c",
      eval_id: "e",
      version_id: "v",
      trace_id: "t",
      attempt_id: null,
      bundle_scope: "ignored",
      created_at: "2026-11-30T03:00:00Z",
      claims: [claim("a", "check"), claim("fix", "fixes")],
      relations: [
        { relation_id: "r1", kind: "supports", from: "a", to: "fix", group: "g", recorded_at: "2026-11-30T03:00:00Z" },
        {
          relation_id: "r2",
          kind: "supports",
          from: "ghost",
          to: "fix",
          group: "g",
          recorded_at: "2026-11-30T03:00:00Z",
        },
      ],
      verification: {
        trials: [
          {
            trial_id: "t1",
            claim_id: "a",
            outcome: "pass",
            duration_ms: 1,
            signature: null,
            recorded_at: "2026-11-30T03:00:00Z",
          },
        ],
        typed_diff: [],
      },
      refutation: null,
      claim_strength: "observed",
      known_threats: [],
      promotion_state: null,
      receipts: [],
      supersedes_claim_version_id: null,
      episodes: [],
      aliases: [],
      evidence_refs: [],
    };
    const r = await run("forge-export", [], { cwd: dir, input: JSON.stringify(bundle) + "\n" });
    t.is(r.code, 0, r.stderr);
    const [e] = jsonl(r.stdout);
    t.true(e!.degraded as boolean);
    t.deepEqual(e!.markers, ["dangling_ref:relation:r2", "dangling_ref:relation_version:r2"]);
    t.is(e!.scope, "ignored", "a bundle keeps its own scope");
    const k = compileScope(readScope(storeAt(join(dir, ".forge")), "ignored"));
    t.false(k.index.has("ghost"));
    t.deepEqual(
      k.index.get("fix")!.terms.map((x) => x.members.map((m) => m.from)),
      [["a"]]
    );
  }
);

test("forge-export usage errors exit 2 with one stderr line", async (t) => {
  const dir = scratch(tempRepo("forge-export-"));
  for (const argv of [["--bogus"], ["file.json"], ["--scope", "no spaces"]]) {
    const r = await run("forge-export", argv, { cwd: dir });
    t.is(r.code, 2, argv.join(" "));
    t.is(r.stdout, "");
    t.regex(r.stderr, /^forge-export: [^\n]+\(see 'forge-export -h'\)\n$/);
  }
});
