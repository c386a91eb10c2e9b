/**
 * forge-loop's CI step claims (`ci:<step>`) read a run record as forge-ci
 * does: a summary.md edited after it was written (still valid YAML, so only
 * its `recordSha256` seal finds it) or one that no longer parses is named
 * (`unreadable:run:<id>`) and the step is unavailable; its value is never
 * trusted and no other run stands in for it.
 */
import test, { type ExecutionContext } from "ava";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonl, run } from "./lib/run.js";
import { removeScratch } from "./lib/scratch.js";
import { stepsRepo } from "./lib/steps_repo.js";

test.after.always(removeScratch);

const env = { FORGE_NOW: "2026-12-01T09:00:00Z" };

/** A repo with one CI step that fails, run once by forge-ci; returns the repo and the run's summary.md. */
async function failedRun(t: ExecutionContext): Promise<{ dir: string; summary: string; id: string }> {
  const dir = stepsRepo("forge-loop-ci-step-", { "10-test": "exit 1" });
  const ci = await run("forge-ci", ["run"], { cwd: dir, env });
  t.is(ci.code, 1, ci.stderr);
  const runs = join(dir, ".forge", "ci", "runs");
  const [id] = readdirSync(runs).filter((n) => /^[0-9a-f-]{36}$/.test(n));
  return { dir, summary: join(runs, id!, "summary.md"), id: id! };
}

/** One round whose report says the CI step passed; returns its findings. */
async function claimPassed(t: ExecutionContext, dir: string): Promise<Array<Record<string, unknown>>> {
  const s = await run("forge-loop", ["start", "--task", "ci passes", "--criterion", "the CI step passes", "--json"], {
    cwd: dir,
    env,
  });
  t.is(s.code, 0, s.stderr);
  const rec = jsonl(s.stdout)[0]!;
  const cr = (rec.criteria as Array<{ id: string }>)[0]!.id;
  const report = JSON.stringify({
    format: "loopforge.round-report",
    outcome: "success",
    continuation: "continue",
    summary: "the CI step passes",
    violations: [],
    disposition: "goal_complete",
    evidence: {
      checks: [{ name: "ci:10-test", status: "passed" }],
      claims: [{ id: "c", targetId: cr, evidenceRefs: ["ci:10-test"] }],
    },
  });
  const r = await run("forge-loop", ["next", rec.loop_id as string, "-F", "-", "--json"], {
    cwd: dir,
    env,
    input: report,
  });
  t.is(r.code, 0, r.stderr);
  const out = jsonl(r.stdout)[0]!;
  t.not(out.status, "complete", "a damaged run record completed the loop");
  return out.findings as Array<Record<string, unknown>>;
}

test("the intact failed run contradicts a claim that the step passed", async (t) => {
  const { dir } = await failedRun(t);
  const f = await claimPassed(t, dir);
  t.deepEqual(
    f.map((x) => [x.status, x.observed]),
    [
      ["contradicted", "failed"],
      ["contradicted", "contradicted"],
    ]
  );
});

test("a summary.md edited from fail to pass (still valid YAML) is named damaged, never read as a pass", async (t) => {
  const { dir, summary, id } = await failedRun(t);
  const text = readFileSync(summary, "utf8");
  const forged = text.replace(/outcome: "?fail"?/, "outcome: pass").replace(/verdict: "?fail"?/, "verdict: pass");
  t.not(forged, text);
  writeFileSync(summary, forged);
  const f = await claimPassed(t, dir);
  t.deepEqual(
    f.map((x) => x.status),
    ["unavailable", "unavailable"]
  );
  t.is(f[0]!.observed, "unavailable");
  const file = `.forge/ci/runs/${id}/summary.md`;
  t.true(
    (f[0]!.detail as string).startsWith(`unreadable:run:${id}: ${file}: field 'recordSha256'`),
    f[0]!.detail as string
  );
  t.true((f[1]!.detail as string).includes(`unreadable:run:${id}`), f[1]!.detail as string);
});

test("a summary.md that no longer parses is named, not skipped as if there were no run", async (t) => {
  const { dir, summary, id } = await failedRun(t);
  writeFileSync(summary, readFileSync(summary, "utf8").replace(/^---\n/, "---\nstatus: [\n"));
  const f = await claimPassed(t, dir);
  t.deepEqual(
    f.map((x) => x.status),
    ["unavailable", "unavailable"]
  );
  t.regex(f[0]!.detail as string, new RegExp(`^unreadable:run:${id}: \\.forge/ci/runs/${id}/summary\\.md`));
});
