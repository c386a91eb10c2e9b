/**
 * Integrity end to end (issue 32): the one JSON-lines reader refuses a line
 * over its cap with one line naming the limit, forge-plan names the bad
 * field of an observation line.
 */
import test from "ava";
import { rmSync } from "node:fs";
import { jsonl, run, tempRepo } from "./lib/run.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function repo(prefix: string): string {
  const dir = tempRepo(prefix);
  made.push(dir);
  return dir;
}

test("a 20 MB stdin line is one error line naming the limit: forge-plan, forge-issue view -", async (t) => {
  const dir = repo("forge-integrity-cap-");
  const long = `{"kind":"observation","scope":"${"x".repeat(20_000_000)}"}\n`;
  const p = await run("forge-plan", ["--json"], { cwd: dir, input: long });
  t.deepEqual([p.code, p.stdout, p.stderr], [1, "", "forge-plan: stdin line 1: longer than the 16 MiB line limit\n"]);
  const v = await run("forge-issue", ["view", "-"], { cwd: dir, input: `{"number":"${"1".repeat(20_000_000)}"}\n` });
  t.is(v.code, 1);
  t.is(v.stdout, "");
  t.is(v.stderr, "forge-issue view: stdin line 1: longer than the 16 MiB line limit\n");
});

test("forge-plan names the observation line and field it cannot read, exit 1, nothing on stdout", async (t) => {
  const dir = repo("forge-integrity-plan-");
  const o = await run("forge-observe", ["--json"], { cwd: dir });
  t.is(o.code, 0, o.stderr);
  const header = jsonl(o.stdout)[0]!;
  const cases: Array<[string, string]> = [
    [JSON.stringify({ ...header, markers: { a: 1 } }), "stdin line 1: observation line: field 'markers'"],
    [
      `${JSON.stringify(header)}\n{"kind":"node","claim_id":"c","claim_kind":"check","current":true,"verdict":"x"}`,
      "stdin line 2: node line: field 'passes': expected a number",
    ],
  ];
  for (const [input, message] of cases) {
    const p = await run("forge-plan", ["--json"], { cwd: dir, input: input + "\n" });
    t.is(p.code, 1, p.stderr);
    t.is(p.stdout, "");
    t.true(p.stderr.startsWith(`forge-plan: ${message}`), p.stderr);
    t.is(p.stderr.split("\n").length, 2, p.stderr);
  }
});
