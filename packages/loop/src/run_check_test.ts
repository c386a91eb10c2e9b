import test from "ava";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCheck, tailLine } from "./run_check.js";

const cwd = mkdtempSync(join(tmpdir(), "loop-run-"));
const env = { PATH: process.env.PATH };
const node = process.execPath;

test("runCheck() gives the exit code, in the workspace, with no shell", async (t) => {
  const ok = await runCheck([node, "-e", "process.stdout.write(process.cwd())"], { cwd, env, timeoutMs: 120_000 });
  t.deepEqual([ok.exitCode, ok.timedOut, ok.spawnError], [0, false, null]);
  t.true(ok.tail.endsWith(cwd.split("/").pop()!));
  const bad = await runCheck([node, "-e", "process.exit(3)"], { cwd, env, timeoutMs: 120_000 });
  t.is(bad.exitCode, 3);
  // Shell syntax is just an argument: nothing is expanded or run.
  const lit = await runCheck(["echo", "a; touch pwned", "$(touch pwned2)"], { cwd, env, timeoutMs: 120_000 });
  t.is(lit.tail, "a; touch pwned $(touch pwned2)");
  t.false(existsSync(join(cwd, "pwned")) || existsSync(join(cwd, "pwned2")));
});

test("runCheck() kills a check at its timeout: no exit code, timedOut", async (t) => {
  const r = await runCheck([node, "-e", "setTimeout(() => {}, 60000)"], { cwd, env, timeoutMs: 300 });
  t.deepEqual([r.exitCode, r.timedOut], [null, true]);
  t.true(r.durationMs < 5000);
});

test("runCheck() keeps only the tail of a big output and digests it", async (t) => {
  const r = await runCheck([node, "-e", "for (let i = 0; i < 20000; i++) console.log('line ' + i)"], {
    cwd,
    env,
    timeoutMs: 10_000,
    maxOutput: 1024,
  });
  t.is(r.tail, "line 19999");
  t.regex(r.logDigest!, /^[0-9a-f]{64}$/);
});

test("runCheck() reports a program that cannot start as a spawn error, not a failure", async (t) => {
  const r = await runCheck(["no-such-program-forge-loop"], { cwd, env, timeoutMs: 120_000 });
  t.deepEqual([r.exitCode, r.spawnError, r.logDigest], [null, "ENOENT", null]);
});

test("tailLine() names the failure, not a test runner's footer", (t) => {
  const node = [
    "TAP version 13",
    "# Subtest: adds",
    "not ok 1 - adds",
    "error: 'Expected values to be strictly equal: 3 !== 4'",
    "1..1",
    "# tests 1",
    "# pass 0",
    "# fail 1",
    "# duration_ms 1197.4",
  ];
  t.is(tailLine(node, true), "error: 'Expected values to be strictly equal: 3 !== 4'");
  t.is(tailLine(["ok 1 - adds", "# pass 1", "# duration_ms 12"], false), "ok 1 - adds");
  t.is(tailLine(["all good"], false), "all good");
  t.is(tailLine(["# duration_ms 3"], true), "# duration_ms 3");
  t.is(tailLine([], true), "");
});

test("runCheck() of a failing node test reports the failure line", async (t) => {
  const script =
    "console.log('not ok 1 - adds'); console.log('# fail 1'); console.log('# duration_ms 9.1'); process.exit(1)";
  const r = await runCheck([node, "-e", script], { cwd, env, timeoutMs: 120_000 });
  t.is(r.exitCode, 1);
  t.is(r.tail, "not ok 1 - adds");
});
