/** Test support: temp stores and a small bundle (not a test file). */
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeAt, type Store } from "@forge/core";
import type { ClaimVersion, Relation, Trial } from "@forge/kernel";
import { BUNDLE_SCHEMA, type EvidenceBundle } from "./bundle.js";

/** A new empty store in a temp folder. */
export function tempStore(): Store {
  const dir = join(realpathSync(mkdtempSync(join(tmpdir(), "forge-evidence-"))), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}

/** A fixed clock. */
export const NOW = (): Date => new Date("2026-11-30T03:00:00Z");

/** The producer the tests use. */
export const PRODUCER = { name: "test", version: "0.0.0" };

export function claimV(id: string, kind = "check"): ClaimVersion {
  return {
    claim_id: id,
    claim_version_id: `${id}@1`,
    kind,
    subject: { step: id },
    statement: `${id} passes`,
    recorded_at: "2026-11-30T02:00:00Z",
    supersedes_claim_version_id: null,
  };
}

export function trialOf(id: string, claim: string, outcome: "pass" | "fail", run = "run1"): Trial {
  return {
    trial_id: id,
    claim_id: claim,
    outcome,
    duration_ms: 12,
    signature: outcome === "fail" ? "sig-v1:" + "ab".repeat(16) : null,
    recorded_at: "2026-11-30T02:00:00Z",
    env_fingerprint: "e".repeat(64),
    receipt_ref: `ci-run:${run}`,
    run_id: run,
    retry_of: null,
  };
}

export function supportsRel(from: string, to: string, group: string | null = null): Relation {
  return { relation_id: `${from}>${to}`, kind: "supports", from, to, group, recorded_at: "2026-11-30T02:00:00Z" };
}

/** A bundle: two checks (one passing, one failing) and a `fixes` claim both support jointly. */
export function sampleBundle(over: Partial<EvidenceBundle> = {}): EvidenceBundle {
  return {
    schema_version: BUNDLE_SCHEMA,
    bundle_id: "ci:run1",
    candidate_id: "tree:abc",
    eval_id: "ci",
    version_id: "abc",
    trace_id: "run1",
    attempt_id: "run1",
    bundle_scope: "default",
    created_at: "2026-11-30T02:00:00Z",
    claims: [claimV("c-test"), claimV("c-lint"), claimV("fix", "fixes")],
    relations: [supportsRel("c-test", "fix", "g"), supportsRel("c-lint", "fix", "g")],
    verification: {
      trials: [trialOf("run1:test", "c-test", "pass"), trialOf("run1:lint", "c-lint", "fail")],
      typed_diff: [],
    },
    refutation: null,
    claim_strength: "observed",
    known_threats: ["unreviewed-pr"],
    promotion_state: null,
    receipts: [{ argv: [".forge/ci/steps/10-test"], exit_code: 0, duration_ms: 12, log_digest: null }],
    supersedes_claim_version_id: null,
    episodes: [],
    aliases: [{ alias: "check:test", claim_id: "c-test" }],
    evidence_refs: [{ ref_id: "ci-run:run1", kind: "ci-run", path: ".forge/ci/runs/run1/summary.md", digest: null }],
    ...over,
  };
}
