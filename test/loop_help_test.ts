/**
 * Help of the loop's executables within the budgets (subcommand: 8 lines,
 * 250 bytes), as golden text: forge-act, and forge-pilot's compact -h
 * (every verb) and its long --help (the defaults and why).
 */
import test from "ava";
import { golden } from "./lib/golden.js";
import { run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

function within(t: import("ava").ExecutionContext, s: string): void {
  t.true(s.split("\n").length - (s.endsWith("\n") ? 1 : 0) <= 8, s);
  t.true(Buffer.byteLength(s) <= 250, `${Buffer.byteLength(s)} bytes`);
}

test("forge-act -h: within the budget, golden (its --help is the full page: help_full_test)", async (t) => {
  const dir = scratch(tempRepo("forge-loop-help-"));
  const r = await run("forge-act", ["-h"], { cwd: dir });
  t.is(r.code, 0);
  within(t, r.stdout);
  golden(t, "help/forge-act.txt", r.stdout);
});

test("forge-pilot -h (and each verb's): within the budget, golden; --help is the long form", async (t) => {
  const dir = scratch(tempRepo("forge-loop-help-"));
  for (const argv of [["-h"], [], ["run", "-h"], ["observe", "-h"], ["plan", "-h"], ["explain", "-h"]]) {
    const r = await run("forge-pilot", argv, { cwd: dir });
    t.is(r.code, 0, argv.join(" "));
    within(t, r.stdout);
    golden(t, "help/forge-pilot.txt", r.stdout);
  }
  const long = await run("forge-pilot", ["run", "--help"], { cwd: dir });
  golden(t, "help/forge-pilot-long.txt", long.stdout);
  t.is((await run("forge-pilot", ["--version"], { cwd: dir })).stdout, "forge-pilot 0.1.0\n");
});
