import test from "ava";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lastRunFile, readLastRun, saveLastRun } from "./last_run.js";
import { newReport } from "./report.js";

const line = (k: string): string => JSON.stringify({ target_key: k, plan_kind: "CheckRerun" });

test("saveLastRun() keeps the report and only the history lines the run added", (t) => {
  const ws = mkdtempSync(join(tmpdir(), "forge-last-run-"));
  const rep = { ...newReport({}), iterations: 2 };
  saveLastRun(ws, rep, [line("a"), line("b")], [line("a"), line("b"), line("c"), "not json", line("d")]);
  const got = readLastRun(ws)!;
  t.is(got.report.iterations, 2);
  t.deepEqual(
    got.trace.map((x) => x.target_key),
    ["c", "d"]
  );
});

test("saveLastRun() finds the run's lines after the history dropped its oldest", (t) => {
  const ws = mkdtempSync(join(tmpdir(), "forge-last-run-"));
  saveLastRun(ws, newReport({}), [line("a"), line("b")], [line("b"), line("c")]);
  t.deepEqual(
    readLastRun(ws)!.trace.map((x) => x.target_key),
    ["c"]
  );
  saveLastRun(ws, newReport({}), [], [line("x")]);
  t.deepEqual(
    readLastRun(ws)!.trace.map((x) => x.target_key),
    ["x"]
  );
});

test("readLastRun(): none kept is null; a file that is not a kept run is one error", (t) => {
  const ws = mkdtempSync(join(tmpdir(), "forge-last-run-"));
  t.is(readLastRun(ws), null);
  saveLastRun(ws, newReport({}), [], []);
  writeFileSync(lastRunFile(ws), "{");
  t.throws(() => readLastRun(ws), { message: /^\.forge\/pilot\/report\.json: not a kept run/ });
});
