/**
 * forge-pr's human output on a terminal, through util-linux `script` (a
 * pseudo-TTY): aligned columns under a header (number, state, CI verdict,
 * title, branch), colour only without NO_COLOR, `key: value` views.
 * Skipped where `script` is not the util-linux one.
 */
import test from "ava";
import { golden } from "./lib/golden.js";
import { prFixtureRepo } from "./lib/pr_fixture.js";
import { removeScratch } from "./lib/scratch.js";
import { onTty, ttyTest } from "./lib/tty.js";

test.after.always(removeScratch);

const maybe = ttyTest;

maybe("forge-pr list on a TTY prints aligned columns under a header, no colour under NO_COLOR", async (t) => {
  const cwd = await prFixtureRepo();
  const out = await onTty(cwd, "forge-pr list --state all");
  golden(t, "pr/tty_list.txt", out);
  t.false(out.includes("\x1b["));
});

maybe("forge-pr list on a TTY colours the numbers by state when NO_COLOR is unset", async (t) => {
  const cwd = await prFixtureRepo();
  const out = await onTty(cwd, "forge-pr list --state all", { NO_COLOR: undefined });
  t.regex(out, /\x1b\[32m#6\x1b\[0m {2}OPEN/);
  t.regex(out, /\x1b\[35m#4\x1b\[0m {2}MERGED/);
  t.regex(out, /\x1b\[90m#2\x1b\[0m {2}DRAFT/);
  t.is(out.replace(/\x1b\[[0-9;]*m/g, ""), await onTty(cwd, "forge-pr list --state all"));
});

maybe("forge-pr view on a TTY prints 'key: value' lines", async (t) => {
  const cwd = await prFixtureRepo();
  golden(t, "pr/tty_view_1.txt", await onTty(cwd, "forge-pr view 1"));
});
