import test from "ava";
import { parseArgv } from "@forge/cli";
import { parseStartOptions } from "./start.js";
import startCommand from "./start.js";

function parse(argv: string[]) {
  return parseStartOptions(parseArgv(argv, startCommand.args), argv);
}

test("parseStartOptions() pairs each --check with the --criterion before it and keeps commas in texts", (t) => {
  const o = parse([
    "--task",
    "t",
    "--constraint",
    "a, b and c",
    "--criterion",
    "one",
    "--check",
    "node a.js",
    "--criterion",
    "two",
    "--criterion=three",
    "--check=node c.js",
  ]);
  t.deepEqual(o.constraints, ["a, b and c"]);
  t.deepEqual(o.criteria, [
    { text: "one", argv: ["node", "a.js"] },
    { text: "two", argv: null },
    { text: "three", argv: ["node", "c.js"] },
  ]);
  t.deepEqual([o.maxRounds, o.promptBudget, o.checkTimeoutMs, o.domain], [20, 6000, 120_000, null]);
});

test("parseStartOptions() makes the task the one criterion when none is given", (t) => {
  t.deepEqual(parse(["--task", "ship it"]).criteria, [{ text: "ship it", argv: null }]);
});

for (const [argv, re] of [
  [["--criterion", "x"], /missing --task/],
  [["--task", "t", "--check", "x"], /--check must follow/],
  [["--task", "t", "--criterion", "c", "--check", "a", "--check", "b"], /--check must follow/],
  [["--task", "t", "--max-rounds", "0"], /--max-rounds/],
  [["--task", "t", "--domain", "../x"], /--domain/],
] as Array<[string[], RegExp]>) {
  test(`parseStartOptions() refuses ${argv.join(" ")}`, (t) => {
    t.throws(() => parse(argv), { code: "E_USAGE", message: re });
  });
}
