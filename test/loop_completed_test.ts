/**
 * Closed as completed (issue 25): an issue closed with gh's stateReason
 * COMPLETED, with no PR that closes it and no fixes claim, is an unverified
 * claim the loop names (`UnverifiedClaimVersion`, and the pilot's finding
 * `issue #N: closed as completed, unverified: …`); one closed as not
 * planned never is. A plain close (no `--reason`) stores gh's default,
 * COMPLETED.
 */
import test from "ava";
import { jsonl, run, sh, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

test("closed as completed with nothing behind it is unverified; closed as not planned is no claim", async (t) => {
  const dir = scratch(tempRepo("forge-completed-"));
  const made = await sh(
    [
      "forge-issue create -t 'login fails' >/dev/null",
      "forge-issue create -t 'dark mode' >/dev/null",
      "forge-issue create -t 'typo' >/dev/null",
      "forge-issue close 1 --reason completed >/dev/null",
      "forge-issue close 2 --reason 'not planned' >/dev/null",
      "forge-issue close 3 >/dev/null",
    ].join(" && "),
    { cwd: dir }
  );
  t.is(made.code, 0, made.stderr);
  const obs = jsonl((await run("forge-observe", ["--json"], { cwd: dir })).stdout);
  const issues = obs.filter((o) => o.kind === "issue");
  t.deepEqual(
    issues.map((i) => [i.number, i.state_reason]),
    [
      [1, "COMPLETED"],
      // A plain close stores gh's default stateReason, COMPLETED (GitHub records a close without a reason so).
      [3, "COMPLETED"],
    ]
  );
  const plan = await run("forge-plan", ["--json"], { cwd: dir, input: "" });
  const targets = jsonl(plan.stdout).filter((l) => l.kind === "target");
  t.true(
    targets.some((x) => x.target_kind === "UnverifiedClaimVersion" && x.key === `unverified:issue:${issues[0]!.id}`),
    plan.stdout + plan.stderr
  );
  const pilot = await run("forge-pilot", ["run", "--json"], { cwd: dir });
  const report = JSON.parse(pilot.stdout.trim().split("\n").pop()!) as { findings: string[] };
  t.true(report.findings.includes("issue #1: closed as completed, unverified: no patch"), report.findings.join("\n"));
  t.true(report.findings.includes("issue #3: closed as completed, unverified: no patch"), report.findings.join("\n"));
  t.false(
    report.findings.some((f) => /^issue #2:/.test(f)),
    report.findings.join("\n")
  );
});
