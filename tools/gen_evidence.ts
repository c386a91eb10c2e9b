/**
 * A generated evidence scope for the kernel benchmarks: `imports` imports
 * through the real lane, each a CI-run-like bundle of `perImport` trials of
 * check claims on one of ten trees (seeded outcomes, a few signatures),
 * plus derived `fixes` claims supported by joint groups of checks. Also a
 * CI run record with `perImport` steps (`run100.jsonl`) for the export bench.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatTimestamp, storeAt, writeStoreVersion } from "@forge/core";
import {
  BUNDLE_SCHEMA,
  type EvidenceBundle,
  exportBundle,
  importProjectionBatch,
  type ImportRecord,
  transformEnvelopeV3,
} from "@forge/evidence";
import type { ClaimVersion, Relation, Trial } from "@forge/kernel";
import { rng } from "@forge/kernel/testing";

/** What was generated. */
export interface EvidenceSummary {
  dir: string;
  store: string;
  scope: string;
  trials: number;
  imports: number;
  /** A file with one CI run record of `perImport` steps. */
  runRecord: string;
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");
const at = (i: number): string => formatTimestamp(new Date(Date.UTC(2026, 10, 1) + i * 60_000));

/**
 * Generate the scope under `dir` (replaced).
 * @param opts `imports` (100) × `perImport` (100) trials
 */
export function generateEvidence(
  dir: string,
  opts: { imports?: number; perImport?: number; seed?: number } = {}
): EvidenceSummary {
  const imports = opts.imports ?? 100;
  const per = opts.perImport ?? 100;
  const r = rng(opts.seed ?? 1);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, ".forge"), { recursive: true });
  writeStoreVersion(join(dir, ".forge"));
  const store = storeAt(join(dir, ".forge"));
  const records: ImportRecord[] = [];
  const failRate = Array.from({ length: per }, () => (r() < 0.2 ? r() * 0.5 : 0));
  for (let i = 0; i < imports; i++) {
    const tree = i % 10;
    const run = `run-${hex(i, 6)}`;
    const claims: ClaimVersion[] = [];
    const trials: Trial[] = [];
    const relations: Relation[] = [];
    for (let s = 0; s < per; s++) {
      const id = `check:t${tree}:s${hex(s, 4)}`;
      claims.push({
        claim_id: id,
        claim_version_id: `${id}@1`,
        kind: "check",
        subject: { step: `s${s}`, tree: `t${tree}` },
        statement: `step s${s} passes at t${tree}`,
        recorded_at: at(i),
        supersedes_claim_version_id: null,
      });
      const fail = r() < failRate[s]!;
      trials.push({
        trial_id: `${run}:s${hex(s, 4)}`,
        claim_id: id,
        outcome: fail ? "fail" : "pass",
        duration_ms: Math.floor(r() * 1000),
        signature: fail ? `sig-v1:${hex(s % 7, 32)}` : null,
        recorded_at: at(i),
        env_fingerprint: "e".repeat(64),
        receipt_ref: `ci-run:${run}`,
        run_id: run,
        retry_of: null,
      });
    }
    if (i < 10) {
      for (let k = 0; k < 10; k++) {
        const id = `fixes:t${tree}:${k}`;
        claims.push({
          claim_id: id,
          claim_version_id: `${id}@1`,
          kind: "fixes",
          subject: {},
          statement: `fix ${k} at t${tree}`,
          recorded_at: at(i),
          supersedes_claim_version_id: null,
        });
        for (let m = 0; m < 3; m++) {
          const from = `check:t${tree}:s${hex((k * 3 + m) % per, 4)}`;
          relations.push({
            relation_id: `${id}<${from}`,
            kind: "supports",
            from,
            to: id,
            group: m < 2 ? "g" : null,
            recorded_at: at(i),
          });
        }
      }
    }
    const bundle: EvidenceBundle = {
      schema_version: BUNDLE_SCHEMA,
      bundle_id: `bench:${run}`,
      candidate_id: `tree:t${tree}`,
      eval_id: "ci:bench",
      version_id: `t${tree}`,
      trace_id: run,
      attempt_id: run,
      bundle_scope: "bench",
      created_at: at(i),
      claims,
      relations,
      verification: { trials, typed_diff: [] },
      refutation: null,
      claim_strength: "observed",
      known_threats: [],
      promotion_state: null,
      receipts: [],
      supersedes_claim_version_id: null,
      episodes: [],
      aliases: [],
      evidence_refs: [{ ref_id: `ci-run:${run}`, kind: "ci-run", path: null, digest: null }],
    };
    importProjectionBatch(store, transformEnvelopeV3(exportBundle(bundle, { name: "gen_evidence", version: "0" })), {
      now: () => new Date(at(i)),
      records,
    });
  }
  const runRecord = join(dir, "run100.jsonl");
  writeFileSync(
    runRecord,
    JSON.stringify({
      databaseId: 1,
      number: 1,
      id: "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11",
      status: "completed",
      conclusion: "failure",
      verdict: "fail",
      name: "ci",
      displayTitle: "ci",
      event: "manual",
      headSha: "a".repeat(40),
      patchSha256: null,
      envSha256: "e".repeat(64),
      runner: "local",
      pr: null,
      createdAt: "2026-11-30T03:00:00Z",
      startedAt: "2026-11-30T03:00:00Z",
      updatedAt: "2026-11-30T03:01:00Z",
      completedAt: "2026-11-30T03:01:00Z",
      rerunOf: null,
      steps: Array.from({ length: per }, (_, s) => ({
        name: `${String(s).padStart(2, "0")}-step`,
        outcome: s % 10 === 9 ? "fail" : "pass",
        exitCode: s % 10 === 9 ? 1 : 0,
        durationMs: 10 + s,
        signature: s % 10 === 9 ? `sig-v1:${hex(s, 32)}` : null,
      })),
    }) + "\n"
  );
  return { dir, store: store.dir, scope: "bench", trials: imports * per, imports, runRecord };
}
