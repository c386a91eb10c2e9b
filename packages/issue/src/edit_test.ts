import test from "ava";
import { PassThrough } from "node:stream";
import { parseArgv, type Ctx } from "@forge/cli";
import edit, { parseEditOptions } from "./edit.js";

const ctx = {
  io: { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd: "/" },
} as unknown as Ctx;
const parse = (argv: string[]) => parseEditOptions(ctx, parseArgv(argv, edit.args) as never);

test("parseEditOptions() collects add/remove lists and the milestone", async (t) => {
  const p = parseArgv(
    ["1", "--add-label", "a,b", "--remove-label", "c", "--add-assignee", "@me", "-m", "v2"],
    edit.args
  );
  p.ref = "1";
  const o = await parseEditOptions(ctx, p);
  t.deepEqual([o.addLabels, o.removeLabels, o.addAssignees, o.milestone], [["a", "b"], ["c"], ["@me"], "v2"]);
});

test("parseEditOptions() refuses an edit that changes nothing", async (t) => {
  await t.throwsAsync(parse(["1"]), { message: "nothing to edit" });
});

test("parseEditOptions() refuses --milestone with --remove-milestone", async (t) => {
  await t.throwsAsync(parse(["1", "-m", "x", "--remove-milestone"]), { message: /only one of --milestone/ });
});

test("parseEditOptions() refuses --body with --body-file", async (t) => {
  await t.throwsAsync(parse(["1", "-b", "x", "-F", "f"]), { message: /only one of --body and --body-file/ });
});
