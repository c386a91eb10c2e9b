import test from "ava";
import { bindPositionals, parseArgv, type Parsed } from "@forge/cli";
import move, { parseMoveOptions } from "./move.js";

function parse(argv: string[]) {
  const p = parseArgv(argv, move.args) as Parsed;
  bindPositionals(p, move.args);
  return parseMoveOptions(p);
}

test("parseMoveOptions() takes the ref (or -) then the column", (t) => {
  t.deepEqual(parse(["12", "doing"]), { ref: "12", status: "doing" });
  t.deepEqual(parse(["-", "blocked", "--json"]), { ref: "-", status: "blocked" });
});

for (const bad of ["closed", "DONE", "open"]) {
  test(`parseMoveOptions() rejects the column '${bad}'`, (t) => {
    t.throws(() => parse(["1", bad]), { message: `invalid status '${bad}' (one of todo|doing|blocked|done)` });
  });
}

test("the move command needs both positionals", (t) => {
  t.throws(() => parse(["1"]), { message: "missing <todo|doing|blocked|done>" });
  t.throws(() => parse([]), { message: "missing <ref|->" });
});
