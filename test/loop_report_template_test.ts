/**
 * forge-loop's round report without trial and error (issue 31, item 14):
 * `report-template <loop>` prints a report for the open round that `next`
 * accepts once its summary is filled; the smallest report in `next --help`
 * (and the README) is accepted as it stands; a contradicted claim's detail
 * names the failure, not a test runner's footer.
 */
import test, { type ExecutionContext } from "ava";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, tempRepo, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const env = { FORGE_NOW: "2026-12-01T09:00:00Z" };

function loop(cwd: string, args: string[], input?: string): Promise<Ran> {
  return run("forge-loop", args, { cwd, input, env });
}

/** A repo and a loop with two criteria: one check passes, one fails like `node --test` does. */
async function started(t: ExecutionContext): Promise<{ dir: string; id: string; criteria: string[] }> {
  const dir = scratch(tempRepo("forge-loop-template-"));
  writeFileSync(join(dir, "ok.js"), "process.exit(0)\n");
  const failing = [
    "console.log('TAP version 13')",
    "console.log('not ok 1 - parses dates')",
    "console.log('# tests 1')",
    "console.log('# fail 1')",
    "console.log('# duration_ms 1197.4')",
    "process.exit(require('fs').existsSync('fixed') ? 0 : 1)",
  ].join("\n");
  writeFileSync(join(dir, "dates.js"), failing + "\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "checks"]);
  const r = await loop(dir, [
    "start",
    "--task",
    "make the checks pass",
    "--criterion",
    "ok passes",
    "--check",
    "node ok.js",
    "--criterion",
    "dates parse",
    "--check",
    "node dates.js",
    "--json",
  ]);
  t.is(r.code, 0, r.stderr);
  const rec = jsonl(r.stdout)[0]!;
  return { dir, id: rec.loop_id as string, criteria: (rec.criteria as Array<{ id: string }>).map((c) => c.id) };
}

test("report-template prints a report for the open round that next accepts once filled", async (t) => {
  const { dir, id, criteria } = await started(t);
  const tpl = await loop(dir, ["report-template", id.slice(0, 8)]);
  t.is(tpl.code, 0, tpl.stderr);
  t.is(tpl.stderr, "");
  const report = JSON.parse(tpl.stdout) as Record<string, unknown> & {
    evidence: { claims: Array<{ targetId: string; evidenceRefs: string[] }> };
  };
  t.is(report.format, "loopforge.round-report");
  const status = jsonl((await loop(dir, ["status", id, "--json", "roundId"])).stdout)[0]!;
  t.is(report.roundId, status.roundId);
  t.deepEqual(
    report.evidence.claims.map((c) => c.targetId),
    criteria
  );
  t.deepEqual(report.evidence.claims[0]!.evidenceRefs, ["command:node ok.js"]);
  // Filled minimally: a summary, and only the claim that holds.
  report.summary = "made ok.js pass";
  report.evidence.claims = report.evidence.claims.slice(0, 1);
  writeFileSync(join(dir, "report.json"), JSON.stringify(report));
  const next = await loop(dir, ["next", id, "-F", "report.json", "--json", "decision,findings"]);
  t.is(next.code, 0, next.stderr);
  const d = jsonl(next.stdout)[0]!;
  t.is(d.decision, "accepted", JSON.stringify(d));
  t.deepEqual(
    (d.findings as Array<{ status: string }>).map((f) => f.status),
    ["verified"]
  );
  // The next round's template names the new round and only the criterion still open.
  const again = JSON.parse((await loop(dir, ["report-template", id])).stdout) as typeof report;
  t.not(again.roundId, report.roundId);
  t.deepEqual(
    again.evidence.claims.map((c) => c.targetId),
    [criteria[1]]
  );
});

test("the smallest report of next --help is accepted as it stands", async (t) => {
  const { dir, id } = await started(t);
  const help = await loop(dir, ["next", "--help"]);
  t.is(help.code, 0);
  const m = /The smallest valid report: (\{.*\})/.exec(help.stdout.replace(/\n\s+/g, " "));
  t.truthy(m, help.stdout);
  const next = await loop(dir, ["next", id, "-F", "-", "--json", "decision"], m![1]);
  t.is(next.code, 0, next.stderr);
  t.is(jsonl(next.stdout)[0]!.decision, "accepted");
  const readme = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");
  t.true(readme.includes(m![1]!), "the README shows the same report");
});

test("a contradicted claim's detail is the failure line, not node's duration footer", async (t) => {
  const { dir, id } = await started(t);
  const report = JSON.parse((await loop(dir, ["report-template", id])).stdout) as Record<string, unknown>;
  report.summary = "claimed both";
  const next = await loop(dir, ["next", id, "-F", "-", "--json", "decision,findings"], JSON.stringify(report));
  t.is(next.code, 0, next.stderr);
  const d = jsonl(next.stdout)[0]!;
  t.is(d.decision, "rejected");
  const bad = (d.findings as Array<{ status: string; detail: string }>).find((f) => f.status === "contradicted")!;
  t.regex(bad.detail, /not ok 1 - parses dates/);
  t.notRegex(bad.detail, /duration_ms/);
});
