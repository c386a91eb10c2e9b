import test from "ava";
import { PassThrough } from "node:stream";
import { parseArgv, type Ctx } from "@forge/cli";
import edit, { parseEditOptions } from "./edit.js";

const ctx = {
  io: { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd: "/" },
} as unknown as Ctx;
const parse = (argv: string[]) => {
  const p = parseArgv(argv, edit.args);
  p.ref = p._[0];
  return parseEditOptions(ctx, p);
};

test("parseEditOptions() collects the assignee lists and the issue", async (t) => {
  const o = await parse(["1", "--add-assignee", "@me,bob", "--remove-assignee", "carol", "--issue", "#4"]);
  t.deepEqual([o.addAssignees, o.removeAssignees, o.issue, o.removeIssue], [["@me", "bob"], ["carol"], "#4", false]);
});

test("parseEditOptions() refuses an edit that changes nothing", async (t) => {
  await t.throwsAsync(parse(["1"]), { message: "nothing to edit" });
});

test("parseEditOptions() refuses --issue with --remove-issue", async (t) => {
  await t.throwsAsync(parse(["1", "--issue", "2", "--remove-issue"]), { message: /only one of --issue/ });
});

test("parseEditOptions() refuses --body-file - when refs come from stdin", async (t) => {
  await t.throwsAsync(parse(["-", "-F", "-"]), { message: /stdin cannot carry both/ });
});
