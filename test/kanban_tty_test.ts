/**
 * Human output of tasks, labels and milestones on a terminal, through
 * util-linux `script` (a pseudo-TTY): the task board grouped by column,
 * aligned tables, colour only without NO_COLOR. Skipped where `script` is
 * not the util-linux one.
 */
import test from "ava";
import { golden } from "./lib/golden.js";
import { kanbanRepo } from "./lib/kanban_fixture.js";
import { removeScratch } from "./lib/scratch.js";
import { onTty, ttyTest } from "./lib/tty.js";

test.after.always(removeScratch);

const maybe = ttyTest;

let cwd = "";
test.before(async () => {
  cwd = await kanbanRepo();
});

maybe("forge-task list on a TTY is a board: a heading per column, aligned rows, empty columns shown", async (t) => {
  const out = await onTty(cwd, "forge-task list");
  golden(t, "task/tty_board.txt", out);
  t.false(out.includes("\x1b["));
});

maybe("forge-task list --status on a TTY shows only the asked columns, in board order", async (t) => {
  golden(t, "task/tty_board_done_todo.txt", await onTty(cwd, "forge-task list -s done,todo"));
});

maybe("forge-task list on a TTY prints nothing when no task matches", async (t) => {
  t.is(await onTty(cwd, "forge-task list -a nobody"), "");
});

maybe("forge-task list on a TTY makes headings bold and numbers coloured when NO_COLOR is unset", async (t) => {
  const out = await onTty(cwd, "forge-task list", { NO_COLOR: undefined });
  t.regex(out, /^\x1b\[1mDOING \(1\)\x1b\[0m$/m);
  t.regex(out, /^\x1b\[35m#4\x1b\[0m {2}Set up CI/m);
  t.is(out.replace(/\x1b\[[0-9;]*m/g, ""), await onTty(cwd, "forge-task list"));
});

maybe("forge-task view on a TTY prints 'key: value' lines", async (t) => {
  golden(t, "task/tty_view_1.txt", await onTty(cwd, "forge-task view 1"));
});

maybe("forge-label list on a TTY is gh's NAME DESCRIPTION COLOR table, names in their own colour", async (t) => {
  golden(t, "label/tty_list.txt", await onTty(cwd, "forge-label list"));
  const out = await onTty(cwd, "forge-label list", { NO_COLOR: undefined });
  t.regex(out, /^\x1b\[38;2;215;58;74mbug\x1b\[0m {2}/m);
});

maybe("forge-milestone list on a TTY is an aligned table", async (t) => {
  golden(t, "milestone/tty_list.txt", await onTty(cwd, "forge-milestone list --state all"));
});
