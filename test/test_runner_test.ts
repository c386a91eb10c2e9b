// scripts/test.mjs on small planted projects: the last line tells the whole run, and a crashed runner, a file
// that never started or a timeout fails the command (issue 31: "1148 passed, 1 failed" hid 46 unrun files).
import test from "ava";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** A project of two test files run one at a time; PLANT (read in ava's own process) plants a fault. */
function project(): string {
  const dir = scratch(mkdtempSync(join(tmpdir(), "forge-test-runner-")));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(realpathSync(join(ROOT, "node_modules", "ava")), join(dir, "node_modules", "ava"));
  writeFileSync(
    join(dir, "ava.config.mjs"),
    `const plant = process.env.PLANT;
// ava's main process (not scripts/test.mjs, which reads this file too to list the test files)
if (process.argv[1]?.endsWith("cli.mjs")) {
  if (plant === "crash") setTimeout(() => { throw new Error("planted crash"); }, 200);
  if (plant === "exit") setTimeout(() => process.exit(0), 200);
}
export default { files: ["*_test.js"], concurrency: 1, timeout: plant === "timeout" ? "4s" : "20s" };
`
  );
  const slow = `await new Promise((r) => setTimeout(r, process.env.PLANT ? 12000 : 10))`;
  writeFileSync(join(dir, "a_test.js"), `import test from "ava";\ntest("a", async (t) => { ${slow}; t.pass(); });\n`);
  // Both files are slow when a fault is planted: whichever ava runs first (it promises no order) hits the timeout.
  writeFileSync(join(dir, "b_test.js"), `import test from "ava";\ntest("b", async (t) => { ${slow}; t.pass(); });\n`);
  return dir;
}

function runTests(cwd: string, plant: string): Promise<{ code: number | null; last: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "test.mjs")], {
      cwd,
      env: { ...process.env, PLANT: plant },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, last: out.trimEnd().split("\n").at(-1) ?? "" }));
  });
}

test("a clean run passes and its last line counts the tests", async (t) => {
  const r = await runTests(project(), "");
  t.is(r.last, "2 passed, 0 failed");
  t.is(r.code, 0);
});

test("ava crashing mid-run fails the command and the last line says so", async (t) => {
  const r = await runTests(project(), "crash");
  t.is(r.last, "0 passed, 0 failed, 2 files not run, runner crashed: Error: planted crash");
  t.not(r.code, 0);
});

test("ava exiting 0 before a file started fails the command: files not run, no plan", async (t) => {
  const r = await runTests(project(), "exit");
  t.is(
    r.last,
    "0 passed, 0 failed, 2 files not run, runner crashed: the TAP stream ended without its plan and summary"
  );
  t.not(r.code, 0);
});

test("a timeout (on which ava 7's TAP reporter crashes) fails the command and names the timeout", async (t) => {
  const r = await runTests(project(), "timeout");
  t.regex(r.last, /^0 passed, 0 failed, 2 files not run, timed out, runner crashed: \S/);
  t.not(r.code, 0);
});
