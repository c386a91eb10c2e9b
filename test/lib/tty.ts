/**
 * Running fixed command text on a pseudo-terminal through util-linux
 * `script`, for the TTY rendering tests (skipped where it is missing).
 */
import test from "ava";
import { spawnSync } from "node:child_process";
import { run } from "./run.js";

/** Whether util-linux `script` is here. */
export const hasScript = spawnSync("script", ["-qc", "true", "/dev/null"]).status === 0;

/** `test`, or `test.skip` where there is no `script`. */
export const ttyTest = hasScript ? test : test.skip;

/** Run fixed command text on a pseudo-TTY; returns what the terminal got, with \r\n as \n. */
export async function onTty(
  cwd: string,
  command: string,
  env: Record<string, string | undefined> = {}
): Promise<string> {
  const r = await run("script", ["-qec", command, "/dev/null"], { cwd, env: { TERM: "xterm", ...env } });
  if (r.code !== 0) throw new Error(`${command}: exit ${r.code}: ${r.stdout}${r.stderr}`);
  return r.stdout.replace(/\r\n/g, "\n");
}
