/**
 * @module
 * Test support (the `@forge/kernel/testing` entry point, not part of the
 * kernel's API): a seeded PRNG (mulberry32) and a generator of random kernel
 * batches, for property tests here and in the packages that use the kernel.
 */
import { type ClaimVersion, KERNEL_SCHEMA, type KernelBatch, type Relation, type Trial } from "./model.js";

/** A seeded generator of floats in [0, 1). */
export type Rng = () => number;

/** mulberry32: small, fast, good enough for tests; the same seed gives the same stream. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [lo, hi]. */
export function int(r: Rng, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

/** A shuffled copy (Fisher–Yates). */
export function shuffle<T>(r: Rng, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(r, 0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Options of `genBatch`. */
export interface GenOptions {
  checks?: number;
  derived?: number;
  maxTrials?: number;
  /** Chance of a back edge (a possible cycle) per relation. */
  cycleChance?: number;
  /** Chance that a relation joins a joint group. */
  groupChance?: number;
  /** Prefix for ids (to make disjoint deltas). */
  prefix?: string;
  /** Existing claim ids relations and trials may point at. */
  existing?: { checks: string[]; derived: string[] };
}

const SIGS = ["sig-v1:" + "a".repeat(32), "sig-v1:" + "b".repeat(32), "sig-v1:" + "c".repeat(32)];

function ts(r: Rng): string {
  const day = int(r, 1, 28);
  const h = int(r, 0, 23);
  return `2026-01-${String(day).padStart(2, "0")}T${String(h).padStart(2, "0")}:00:00Z`;
}

/**
 * A random batch: check claims with trials (runs, retries, errors,
 * signatures) and derived claims supported by earlier claims (a DAG, plus
 * back edges at `cycleChance`), some supports in joint groups.
 */
export function genBatch(r: Rng, opts: GenOptions = {}): KernelBatch {
  const p = opts.prefix ?? "";
  const nChecks = opts.checks ?? int(r, 1, 6);
  const nDerived = opts.derived ?? int(r, 0, 5);
  const claims: ClaimVersion[] = [];
  const trials: Trial[] = [];
  const relations: Relation[] = [];
  const checks = [...(opts.existing?.checks ?? [])];
  const derived = [...(opts.existing?.derived ?? [])];
  // Run ids are shared between a batch and its deltas: a delta can add to a run.
  const runs = Array.from({ length: 4 }, (_, i) => `run${i}`);
  for (let i = 0; i < nChecks; i++) {
    const id = `${p}check${i}`;
    checks.push(id);
    claims.push({
      claim_id: id,
      claim_version_id: `${id}@1`,
      kind: "check",
      subject: { step: `s${i}` },
      statement: `step s${i} passes`,
      recorded_at: "2026-01-01T00:00:00Z",
      supersedes_claim_version_id: null,
    });
  }
  const trialTargets = opts.existing ? checks : checks.slice(-nChecks);
  for (const id of trialTargets) {
    const k = int(r, 0, opts.maxTrials ?? 6);
    const bias = r();
    for (let j = 0; j < k; j++) {
      const fail = r() < bias * 0.6;
      const run = r() < 0.7 ? runs[int(r, 0, runs.length - 1)]! : null;
      trials.push({
        trial_id: `${p}${id}-t${j}`,
        claim_id: id,
        outcome: r() < 0.05 ? "error" : fail ? "fail" : "pass",
        duration_ms: int(r, 1, 500),
        signature: fail ? SIGS[int(r, 0, SIGS.length - 1)]! : null,
        recorded_at: ts(r),
        env_fingerprint: "e".repeat(64),
        receipt_ref: null,
        run_id: run,
        retry_of: run !== null && r() < 0.2 ? runs[int(r, 0, runs.length - 1)]! : null,
      });
    }
  }
  const groupChance = opts.groupChance ?? 0.3;
  for (let i = 0; i < nDerived; i++) {
    const id = `${p}claim${i}`;
    const kind = ["patch_effect", "fixes", "criterion"][int(r, 0, 2)]!;
    claims.push({
      claim_id: id,
      claim_version_id: `${id}@1`,
      kind,
      subject: {},
      statement: `${kind} ${i}`,
      recorded_at: "2026-01-01T00:00:00Z",
      supersedes_claim_version_id: null,
    });
    const pool = [...checks, ...derived];
    const nSup = int(r, 0, 3);
    for (let j = 0; j < nSup && pool.length > 0; j++) {
      const from = pool[int(r, 0, pool.length - 1)]!;
      relations.push({
        relation_id: `${p}${id}-r${j}`,
        kind: "supports",
        from,
        to: id,
        group: r() < groupChance ? `g${int(r, 0, 1)}` : null,
        recorded_at: ts(r),
      });
    }
    derived.push(id);
  }
  if ((opts.cycleChance ?? 0) > 0) {
    for (let i = 0; i + 1 < derived.length; i++) {
      if (r() < opts.cycleChance!) {
        relations.push({
          relation_id: `${p}back${i}`,
          kind: "supports",
          from: derived[derived.length - 1]!,
          to: derived[i]!,
          group: null,
          recorded_at: ts(r),
        });
      }
    }
  }
  return { schema_version: KERNEL_SCHEMA, claims, trials, relations };
}
