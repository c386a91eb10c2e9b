/**
 * The real pipe: a temp repo with two CI steps (one passing, one failing
 * with a random number in its output), `forge-ci run` twice, then
 * `forge-ci list --json | forge-export`. The failing step's check claim has
 * two failed trials sharing one signature (a syndrome); the passing one has
 * two passing trials. Exporting again writes nothing new.
 */
import test from "ava";
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { compileScope, readScope, scopeHealth } from "@forge/evidence";
import { assess } from "@forge/kernel";
import { git, jsonl, run, sh, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

function repo(): string {
  const dir = scratch(tempRepo("forge-export-pipe-"));
  const steps = join(dir, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  writeFileSync(join(steps, "10-pass"), "#!/bin/sh\necho all good\n");
  // A different number every run: the signature must mask it.
  writeFileSync(
    join(steps, "20-fail"),
    '#!/bin/sh\necho "assertion failed: expected 0, got $$$(date +%N)" >&2\nexit 1\n'
  );
  for (const s of ["10-pass", "20-fail"]) chmodSync(join(steps, s), 0o755);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "two steps"]);
  return dir;
}

test(
  "forge-ci run twice, then forge-ci list --json | forge-export: a syndrome on the failing check, two passes on " +
    "the other",
  async (t) => {
    const dir = repo();
    for (let i = 0; i < 2; i++)
      t.is((await run("forge-ci", ["run"], { cwd: dir })).code, 1, "the failing step fails the run");
    const runs = jsonl((await run("forge-ci", ["list", "--json"], { cwd: dir })).stdout);
    t.is(runs.length, 2);
    const r = await sh("forge-ci list --json | forge-export", { cwd: dir });
    t.is(r.code, 0, r.stderr);
    t.is(r.stderr, "");
    const entries = jsonl(r.stdout);
    t.deepEqual(
      entries.map((e) => [e.status, e.degraded]),
      [
        ["imported", false],
        ["imported", false],
      ]
    );
    t.is(readdirSync(join(dir, ".forge", "evidence", "imports")).length, 2);

    const state = readScope(storeAt(join(dir, ".forge")), "default");
    const claimOf = (step: string): string => state.claim_versions.find((c) => c.subject.step === step)!.claim_id;
    const a = assess(compileScope(state));
    const failing = a.nodes.find((n) => n.id === claimOf("20-fail"))!;
    const passing = a.nodes.find((n) => n.id === claimOf("10-pass"))!;
    t.is(failing.kind, "check");
    t.deepEqual([failing.trials.n, failing.trials.f], [2, 2]);
    t.is(failing.belief_micros, 250_000);
    t.true(failing.fragile);
    t.deepEqual([passing.trials.n, passing.trials.s], [2, 2]);
    t.is(passing.belief_micros, 750_000);
    t.true(passing.caveat, "two trials is below min_trials: a calibration caveat");
    t.is(a.syndromes.length, 1);
    t.deepEqual(a.syndromes[0]!.claims, [failing.id]);
    t.is(a.syndromes[0]!.trials, 2);
    t.regex(a.syndromes[0]!.signature, /^sig-v1:[0-9a-f]{32}$/);
    const h = scopeHealth(state);
    t.is(h.syndrome_count, 1);
    t.is(h.degradation_count, 0);

    const again = await sh("forge-ci list --json | forge-export", { cwd: dir });
    t.deepEqual(
      jsonl(again.stdout).map((e) => e.status),
      ["already_imported", "already_imported"]
    );
    t.is(readdirSync(join(dir, ".forge", "evidence", "imports")).length, 2);
  }
);
