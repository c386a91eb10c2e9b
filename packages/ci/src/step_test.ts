import test from "ava";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStep } from "./step.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function script(text: string, mode = 0o755): { dir: string; file: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), "forge-step-"));
  made.push(dir);
  const file = join(dir, "10-s");
  writeFileSync(file, text);
  chmodSync(file, mode);
  return { dir, file, log: join(dir, "10-s.log") };
}

/** Processes whose command line contains `mark`. */
function alive(mark: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", mark], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

const spec = (s: { dir: string; file: string; log: string }, extra = {}) => ({ name: "10-s", argv: [s.file], cwd: s.dir, env: process.env, log: s.log, tree: s.dir, ...extra });

test("a passing step: exit 0, stdout and stderr in its log, no signature", async (t) => {
  const s = script("#!/bin/sh\necho out\necho err >&2\n");
  const r = await startStep(spec(s)).done;
  t.like(r, { outcome: "pass", exitCode: 0 });
  t.is(r.signature, undefined);
  t.is(readFileSync(s.log, "utf8"), "out\nerr\n");
});

test("a failing step: its exit code and a signature of its log's tail", async (t) => {
  const s = script("#!/bin/sh\necho broke at $$\nexit 3\n");
  const r = await startStep(spec(s)).done;
  t.like(r, { outcome: "fail", exitCode: 3 });
  t.regex(r.signature ?? "", /^sig-v1:[0-9a-f]{32}$/);
  t.deepEqual(r.signatureText, ["broke at <n>"]);
});

test("a file that is not executable fails with 126 and says why in its log", async (t) => {
  const s = script("#!/bin/sh\nexit 0\n", 0o644);
  const r = await startStep(spec(s)).done;
  t.like(r, { outcome: "fail", exitCode: 126 });
  t.regex(readFileSync(s.log, "utf8"), /permission denied \(chmod \+x it\)/);
});

test("a timeout kills the step's whole process group and records timeout", async (t) => {
  const mark = `forge-step-timeout-${process.pid}`;
  const s = script(`#!/bin/sh\nsh -c 'sleep 30; : ${mark}' &\nsleep 30\n`);
  const t0 = Date.now();
  const r = await startStep(spec(s, { timeout: 1 })).done;
  t.like(r, { outcome: "timeout", exitCode: null });
  t.regex(r.signature ?? "", /^sig-v1:/);
  t.true(Date.now() - t0 < 10_000);
  await new Promise((res) => setTimeout(res, 200));
  t.deepEqual(alive(mark), [], "the background child is gone too");
});

test("cancel kills the process group and records cancelled; reap kills what a passing step left", async (t) => {
  const mark = `forge-step-cancel-${process.pid}`;
  const s = script(`#!/bin/sh\nsh -c 'sleep 30; : ${mark}' &\nsleep 30\n`);
  const running = startStep(spec(s));
  setTimeout(() => running.cancel(), 300);
  const r = await running.done;
  t.like(r, { outcome: "cancelled", exitCode: null, signature: undefined });
  await new Promise((res) => setTimeout(res, 200));
  t.deepEqual(alive(mark), []);

  const mark2 = `forge-step-reap-${process.pid}`;
  const s2 = script(`#!/bin/sh\nsh -c 'sleep 30; : ${mark2}' >/dev/null 2>&1 &\nexit 0\n`);
  const p = startStep(spec(s2));
  t.like(await p.done, { outcome: "pass" });
  t.true(alive(mark2).length > 0, "left running until the run ends");
  p.reap();
  await new Promise((res) => setTimeout(res, 200));
  t.deepEqual(alive(mark2), []);
});
