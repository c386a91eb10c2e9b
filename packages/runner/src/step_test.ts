import test from "ava";
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

/** Whether `pid` is a live process (not gone, not a zombie). */
function isAlive(pid: number): boolean {
  try {
    // The state is the field after the `(comm)`, which may itself hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Wait until `cond()` holds, checking on every turn of the event loop (no
 * fixed sleep: a loaded machine only makes it take longer), failing after a
 * generous deadline.
 */
async function until(what: string, cond: () => boolean, deadlineMs = 60_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 10));
  }
}

/** The pid a background child wrote to its ready file, once it has written it. */
async function readyPid(file: string): Promise<number> {
  await until(`ready file ${file}`, () => /^\d+\n$/.test(readIfThere(file)));
  return Number(readIfThere(file));
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * A step whose background child writes its own pid to `ready` (then
 * sleeps), so a test knows the child exists instead of guessing when.
 * The pid is written to a temp name and renamed, so a reader never sees half.
 */
function withChild(ready: string, after: string): string {
  return `#!/bin/sh\nsh -c 'echo $$ > "$0.tmp"; mv "$0.tmp" "$0"; sleep 300' "${ready}" ${after}\n`;
}

const spec = (s: { dir: string; file: string; log: string }, extra = {}) => ({
  name: "10-s",
  argv: [s.file],
  cwd: s.dir,
  env: process.env,
  log: s.log,
  tree: s.dir,
  ...extra,
});

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
  const s = script("");
  const ready = join(s.dir, "child.pid");
  writeFileSync(s.file, withChild(ready, "&\nsleep 300"));
  const t0 = Date.now();
  const running = startStep(spec(s, { timeout: 3 }));
  const child = await readyPid(ready);
  t.true(isAlive(child), "the background child runs until the timeout");
  const r = await running.done;
  t.like(r, { outcome: "timeout", exitCode: null });
  t.regex(r.signature ?? "", /^sig-v1:/);
  t.true(Date.now() - t0 < 90_000, `took ${Date.now() - t0} ms: the step would sleep 300 s`);
  await until("the background child to die", () => !isAlive(child));
  t.false(isAlive(child), "the background child is gone too");
});

test("cancel kills the process group and records cancelled; reap kills what a passing step left", async (t) => {
  // The cancel comes once the background child exists (its pid file), not after a guessed delay.
  const s = script("");
  const ready = join(s.dir, "child.pid");
  writeFileSync(s.file, withChild(ready, "&\nsleep 30"));
  const running = startStep(spec(s));
  const child = await readyPid(ready);
  running.cancel();
  const r = await running.done;
  t.like(r, { outcome: "cancelled", exitCode: null, signature: undefined });
  await until("the cancelled child to die", () => !isAlive(child));

  // The step exits only after its background child has written its pid, so the child exists when it passes.
  const s2 = script("");
  const ready2 = join(s2.dir, "child.pid");
  const waitAndExit = `>/dev/null 2>&1 &\nwhile [ ! -s "${ready2}" ]; do sleep 0.01; done\nexit 0`;
  writeFileSync(s2.file, withChild(ready2, waitAndExit));
  const p = startStep(spec(s2));
  t.like(await p.done, { outcome: "pass" });
  const child2 = await readyPid(ready2);
  t.true(isAlive(child2), "left running until the run ends");
  p.reap();
  await until("the reaped child to die", () => !isAlive(child2));
  t.pass();
});
