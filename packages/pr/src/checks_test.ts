import test from "ava";
import { parseArgv } from "@forge/cli";
import { bucketOf, checksExit, elapsed, type CheckRow } from "./_checks.js";
import checks, { checkRow, parseChecksOptions } from "./checks.js";

const row = (bucket: CheckRow["bucket"], over: Partial<CheckRow> = {}): CheckRow => ({
  bucket,
  completedAt: "",
  description: "",
  event: "pull_request",
  link: "",
  name: "x",
  startedAt: "",
  state: "",
  workflow: "ci",
  ...over,
});

test("bucketOf() maps gh's states to its buckets", (t) => {
  t.deepEqual(
    [
      "SUCCESS",
      "SKIPPED",
      "NEUTRAL",
      "FAILURE",
      "TIMED_OUT",
      "ERROR",
      "ACTION_REQUIRED",
      "CANCELLED",
      "IN_PROGRESS",
      "PENDING",
    ].map(bucketOf),
    ["pass", "skipping", "skipping", "fail", "fail", "fail", "fail", "cancel", "pending", "pending"]
  );
});

test("checksExit() is gh's: 1 with a failing check, else 8 with a pending one, else 0 (cancelled alone is 0)", (t) => {
  t.is(checksExit([row("pass"), row("fail"), row("pending")]), 1);
  t.is(checksExit([row("pass"), row("pending")]), 8);
  t.is(checksExit([row("pass"), row("cancel"), row("skipping")]), 0);
});

test("elapsed() and the row: a Go duration, cancel printed as fail", (t) => {
  t.is(elapsed(row("pass", { startedAt: "2020-01-01T00:00:00Z", completedAt: "2020-01-01T00:01:26Z" })), "1m26s");
  t.is(elapsed(row("pass")), "0");
  t.deepEqual(checkRow(row("cancel", { name: "sad tests", link: "sweet link" })), [
    "sad tests",
    "fail",
    "0",
    "sweet link",
    "",
  ]);
});

test("parseChecksOptions() refuses --interval and --fail-fast without --watch, as gh does", (t) => {
  const p = (argv: string[]) => parseChecksOptions(parseArgv(argv, checks.args));
  t.throws(() => p(["-i", "5"]), { message: "cannot use `--interval` flag without `--watch` flag" });
  t.throws(() => p(["--fail-fast"]), { message: "cannot use `--fail-fast` flag without `--watch` flag" });
  t.like(p(["--watch", "-i", "1"]), { watch: true, interval: 1, failFast: false });
});
