import test from "ava";
import { parseArgv } from "@forge/cli";
import edit, { parseEditOptions } from "./edit.js";

const parse = (argv: string[]) => {
  const p = parseArgv(argv, edit.args);
  p.milestone = p._[0];
  return parseEditOptions(p);
};

test("parseEditOptions() reads a new title, due date and description", (t) => {
  t.deepEqual(parse(["v1", "-t", "v1.0", "--due", "2026-03-01", "-d", "x"]), {
    ref: "v1",
    title: "v1.0",
    dueOn: "2026-03-01T00:00:00Z",
    description: "x",
  });
});

test("parseEditOptions() takes '' to remove the due date and the description", (t) => {
  t.deepEqual(parse(["v1", "--due", "", "-d", ""]), { ref: "v1", title: undefined, dueOn: null, description: "" });
});

test("parseEditOptions() refuses an edit that changes nothing", (t) => {
  t.throws(() => parse(["v1"]), { message: "specify at least one of --title, --due, or --description" });
});
