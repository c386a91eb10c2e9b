import test from "ava";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { bindPositionals, parseArgv } from "@forge/cli";
import create, { parseCreateOptions, readNotes } from "./create.js";
import { removeTemps, tempCtx } from "@forge/cli";

test.after.always(removeTemps);

const parse = (argv: string[], notes = "") => {
  const args = parseArgv(argv, create.args);
  bindPositionals(args, create.args);
  return parseCreateOptions(args, notes);
};

test("parseCreateOptions() reads gh's flags: --title/-t, --target", (t) => {
  t.deepEqual(parse(["v1.0", "-t", "First", "--target", "main"], "notes"), {
    tag: "v1.0",
    notes: "notes",
    title: "First",
    target: "main",
  });
  t.deepEqual(parse(["v1.0"]), { tag: "v1.0", notes: "", title: undefined, target: undefined });
});

const BAD: Array<[string, string[], RegExp]> = [
  ["a tag with a slash", ["v1/x"], /invalid tag/],
  ["a tag with ..", ["v1..2"], /invalid tag/],
  ["a tag starting with -", ["--", "-v1"], /invalid tag/],
  ["a two-line title", ["v1", "-t", "a\nb"], /title must be one line/],
  ["an empty title", ["v1", "-t", " "], /title must not be empty/],
  ["a target that looks like a flag", ["v1", "--target=--all"], /invalid --target/],
  ["an empty target", ["v1", "--target="], /invalid --target/],
];
for (const [what, argv, msg] of BAD) {
  test(`parseCreateOptions() refuses ${what} (usage error)`, (t) => {
    const err = t.throws(() => parse(argv), { message: msg });
    t.is((err as { exitCode?: number }).exitCode, 2);
  });
}

test("readNotes() takes --notes, --notes-file or stdin, and refuses both", async (t) => {
  const ctx = tempCtx("from stdin\n");
  writeFileSync(join(ctx.root, "n.md"), "from file\n");
  const args = (argv: string[]) => parseArgv(["v1", ...argv], create.args);
  t.is(await readNotes(ctx, args(["-n", "inline"])), "inline");
  t.is(await readNotes(ctx, args(["-F", "n.md"])), "from file\n");
  t.is(await readNotes(ctx, args(["--notes-file", "-"])), "from stdin\n");
  t.is(await readNotes(ctx, args([])), "");
  await t.throwsAsync(readNotes(ctx, args(["-n", "x", "-F", "n.md"])), {
    message: /only one of --notes and --notes-file/,
  });
  await t.throwsAsync(readNotes(ctx, args(["-F", "missing.md"])), { message: "cannot read --notes-file 'missing.md'" });
});
