import test from "ava";
import { PassThrough } from "node:stream";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgv, type Ctx } from "@forge/cli";
import edit, { parseEditOptions } from "./edit.js";

const cwd = realpathSync(mkdtempSync(join(tmpdir(), "forge-edit-")));
test.after.always(() => rmSync(cwd, { recursive: true, force: true }));
const ctx = {
  io: { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, cwd },
} as unknown as Ctx;
async function parse(argv: string[]) {
  const p = parseArgv(argv, edit.args);
  p.ref = "1";
  return parseEditOptions(ctx, p);
}

test("parseEditOptions() collects add/remove lists, the base and the milestone", async (t) => {
  const o = await parse([
    "--add-label",
    "a,b",
    "--remove-label",
    "c",
    "--add-assignee",
    "@me",
    "-B",
    "release/1.x",
    "-m",
    "v2",
  ]);
  t.deepEqual(
    [o.addLabels, o.removeLabels, o.addAssignees, o.base, o.milestone],
    [["a", "b"], ["c"], ["@me"], "release/1.x", "v2"]
  );
});

test("parseEditOptions() refuses an edit that changes nothing", async (t) => {
  await t.throwsAsync(parse([]), { message: "nothing to edit" });
});

test("parseEditOptions() refuses a base git would not accept as a branch name", async (t) => {
  await t.throwsAsync(parse(["--base", "a b"]), { message: "invalid branch name 'a b'" });
  await t.throwsAsync(parse(["--base=--upload-pack=x"]), { message: "invalid branch name '--upload-pack=x'" });
});

test("parseEditOptions() refuses an empty or two-line title and clashing milestone flags", async (t) => {
  await t.throwsAsync(parse(["-t", " "]), { message: "title must not be empty" });
  await t.throwsAsync(parse(["-t", "a\nb"]), { message: "title must be one line" });
  await t.throwsAsync(parse(["-m", "x", "--remove-milestone"]), { message: /only one of --milestone/ });
});
