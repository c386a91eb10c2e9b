#!/usr/bin/env node
// The demo (`pnpm demo`): the closed loop on a sample repository with
// planted defects (tools/sample_repo.ts: a stable failure with a fix PR, a
// ~20 % flaky check, a regressing PR, an updated PR, an issue closed with no
// evidence, a run whose log was deleted), then `forge-pilot run` to an
// honest halt, and its report, as text and as one HTML page (report.txt and
// report.html beside the sample repository). Every command shown is exactly the command
// run (an argv array, printed as it is run; no shell).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const bin = join(root, "bin");
const env = {
  ...process.env,
  PATH: `${bin}:${process.env.PATH}`,
  NO_COLOR: "1",
  FORGE_AUTHOR: process.env.FORGE_AUTHOR || "demo",
};
delete env.FORGE_DIR;
const dir = join(mkdtempSync(join(tmpdir(), "forge-demo-")), "sample");

/** Show an argv as a shell line (quoted where needed), run it, print what it printed. */
function step(why, argv, cwd = dir) {
  const shown = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
  console.log(`\n# ${why}\n$ ${cwd === dir ? "" : `(cd ${cwd}) `}${shown}`);
  const r = spawnSync(argv[0], argv.slice(1), { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.stderr) process.stdout.write(r.stderr.replace(/^(?=.)/gm, "  (stderr) "));
  if (r.status !== 0) console.log(`  (exit ${r.status})`);
  return r;
}

const t0 = Date.now();
const made = step(
  "a sample repository with planted defects (prints what it planted)",
  [process.execPath, join(root, "tools", "dist", "sample_repo.js"), dir, "1"],
  root
);
if (made.status !== 0) process.exit(1);
step("what the loop sees first", ["forge-pilot", "observe"]);
step("what it would do first, and why", ["forge-pilot", "explain"]);
const run = step("the loop: observe > plan > act > export, until it halts (one stderr line per iteration)", [
  "forge-pilot",
  "run",
]);
// The report beside the text output: the run's text report, and the same run as one page (no script, no URL).
const out = dirname(dir);
writeFileSync(join(out, "report.txt"), run.stdout ?? "");
const html = step("the report as one self-contained HTML page (the evidence behind every word)", [
  "forge-pilot",
  "report",
  "--html",
  "-o",
  join(out, "report.html"),
]);
step("the history it keeps (loop-local, gitignored): the last attempts", [
  "tail",
  "-n",
  "3",
  ".forge/pilot/history.jsonl",
]);
if (html.status === 0)
  console.log(`\nthe report: ${join(out, "report.txt")} (text), ${join(out, "report.html")} (HTML)`);
console.log(`\ndone in ${((Date.now() - t0) / 1000).toFixed(1)} s; the sample repository stays in ${dir}`);
process.exitCode = run.status === 0 ? 0 : 1;
