import test from "ava";
import { parseArgv } from "@forge/cli";
import diff, { parseDiffOptions } from "./diff.js";

const parse = (argv: string[]) => {
  const p = parseArgv(argv, diff.args);
  p.ref = "1";
  return parseDiffOptions(p);
};

test("parseDiffOptions() reads --name-only and --patch", (t) => {
  t.deepEqual(parse([]), { ref: "1", nameOnly: false, patch: false });
  t.deepEqual(parse(["--name-only"]), { ref: "1", nameOnly: true, patch: false });
  t.deepEqual(parse(["--patch"]), { ref: "1", nameOnly: false, patch: true });
});

test("parseDiffOptions() refuses --name-only with --patch", (t) => {
  t.throws(() => parse(["--name-only", "--patch"]), { message: "specify only one of --name-only and --patch" });
});
