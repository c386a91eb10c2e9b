/**
 * One loop iteration's own work, checks excluded, as `forge-pilot run` does
 * it: `forge-observe --json --scope S | forge-plan --json`, then
 * `forge-export --scope S` of an act result (a fresh one per call, so every
 * export is a real import). The bench times this whole process. Every tool
 * runs as an argv array.
 *
 * usage: node tools/dist/loop_iteration.js <bin> <repo> [scope]
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

function run(argv: string[], cwd: string, input: string): string {
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd, input, encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${argv.join(" ")}: exit ${r.status}: ${r.stderr.split("\n")[0]}`);
  return r.stdout;
}

const [bin, repo, scope = "default"] = process.argv.slice(2);
if (!bin || !repo) {
  process.stderr.write("usage: node tools/dist/loop_iteration.js <bin> <repo> [scope]\n");
  process.exit(2);
}
// The scope as forge-pilot passes it to both ends of the iteration.
const obs = run([join(bin, "forge-observe"), "--json", "--scope", scope], repo, "");
const plan = run([join(bin, "forge-plan"), "--json", "--history", join(repo, ".forge", "pilot", "history.jsonl")], repo, obs);
const id = `bench-${process.pid}-${Date.now()}`;
const now = new Date().toISOString().slice(0, 19) + "Z";
const result = {
  kind: "act_result", schema_version: "forge-act-result/v1", id, plan_id: "bench", target_key: "bench", plan_kind: "OracleConservative", advisory: false,
  started_at: now, completed_at: now, known_threats: [], trials: [], typed_diff: null, oracle: { oracle: "conservative", bound_reached: false },
};
const ex = run([join(bin, "forge-export"), "--scope", scope], repo, JSON.stringify(result) + "\n");
process.stdout.write(JSON.stringify({ observe_lines: obs.split("\n").filter(Boolean).length, plan_lines: plan.split("\n").filter(Boolean).length, imported: ex.includes('"imported"') }) + "\n");
