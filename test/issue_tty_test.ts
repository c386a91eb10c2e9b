/**
 * Human output on a terminal, through util-linux `script` (a pseudo-TTY):
 * aligned columns with a header, colour only without NO_COLOR. Skipped where
 * `script` is not the util-linux one.
 */
import test from "ava";
import { fixtureRepo } from "./lib/fixture.js";
import { golden } from "./lib/golden.js";
import { removeScratch } from "./lib/scratch.js";
import { onTty, ttyTest } from "./lib/tty.js";

test.after.always(removeScratch);

const maybe = ttyTest;

maybe("forge-issue list on a TTY prints aligned columns under a header, without colour under NO_COLOR", async (t) => {
  const cwd = await fixtureRepo();
  const out = await onTty(cwd, "forge-issue list --state all");
  golden(t, "issue/tty_list.txt", out);
  t.false(out.includes("\x1b["));
});

maybe("forge-issue list on a TTY colours the numbers when NO_COLOR is unset", async (t) => {
  const cwd = await fixtureRepo();
  const out = await onTty(cwd, "forge-issue list --state all", { NO_COLOR: undefined });
  t.regex(out, /\x1b\[32m#8\x1b\[0m {2}Question about setup/);
  t.regex(out, /\x1b\[35m#6\x1b\[0m {2}Slow list/);
  // Without the colour codes it is the NO_COLOR table, columns still aligned.
  t.is(out.replace(/\x1b\[[0-9;]*m/g, ""), await onTty(cwd, "forge-issue list --state all"));
});

maybe("forge-issue view on a TTY prints 'key: value' lines", async (t) => {
  const cwd = await fixtureRepo();
  golden(t, "issue/tty_view_1.txt", await onTty(cwd, "forge-issue view 1"));
});
