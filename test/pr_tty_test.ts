/**
 * forge-pr's human output on a terminal, through util-linux `script` (a
 * pseudo-TTY): aligned columns under a header (number, state, CI verdict,
 * title, branch), colour only without NO_COLOR, `key: value` views.
 * Skipped where `script` is not the util-linux one.
 */
import test from "ava";
import { spawnSync } from "node:child_process";
import { golden } from "./lib/golden.js";
import { prFixtureRepo } from "./lib/pr_fixture.js";
import { run } from "./lib/run.js";
import { removeScratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const hasScript = spawnSync("script", ["-qc", "true", "/dev/null"]).status === 0;
const maybe = hasScript ? test : test.skip;

/** Run fixed command text on a pseudo-TTY; returns what the terminal got, with \r\n as \n. */
async function onTty(cwd: string, command: string, env: Record<string, string | undefined> = {}): Promise<string> {
  const r = await run("script", ["-qec", command, "/dev/null"], { cwd, env: { TERM: "xterm", ...env } });
  if (r.code !== 0) throw new Error(`${command}: exit ${r.code}: ${r.stdout}${r.stderr}`);
  return r.stdout.replace(/\r\n/g, "\n");
}

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
