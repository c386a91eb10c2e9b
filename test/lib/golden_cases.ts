/**
 * Golden cases for a noun's executable, the pattern of issue_golden_test.ts:
 * stdout in `<case>.jsonl` (`.txt` for human and jq output), stderr in
 * `<case>.stderr` when there is any, the read after a write in
 * `<case>.then.jsonl`; an error is exactly one stderr line.
 */
import type { ExecutionContext } from "ava";
import { golden, scrub } from "./golden.js";
import { run } from "./run.js";

/** One golden case. */
export interface Case {
  /** Golden base name under test/golden/<dir>/. */
  name: string;
  args: string[];
  /** Expected exit code (0). */
  code?: number;
  input?: string;
  /** A read run after the command (by `thenProg`, default the same executable). */
  then?: string[];
  thenProg?: string;
}

/** Run a case in `cwd` and compare with its goldens. */
export async function checkCase(
  t: ExecutionContext,
  prog: string,
  dir: string,
  c: Case,
  cwd: string,
  keep: ReadonlySet<string>,
  since: string
): Promise<void> {
  const clean = (s: string): string => scrub(s, { keep, since, repo: cwd });
  const r = await run(prog, c.args, { cwd, input: c.input });
  t.is(r.code, c.code ?? 0, r.stderr);
  const ext = c.args.includes("--json") && !c.args.includes("--jq") ? "jsonl" : "txt";
  golden(t, `${dir}/${c.name}.${ext}`, clean(r.stdout), true);
  golden(t, `${dir}/${c.name}.stderr`, clean(r.stderr), true);
  if (r.code !== 0) {
    t.is(r.stderr.split("\n").length, 2, "an error is one stderr line");
    t.is(r.stdout, "", "an error prints nothing on stdout");
  }
  if (c.then) {
    const after = await run(c.thenProg ?? prog, c.then, { cwd });
    t.is(after.code, 0, after.stderr);
    golden(t, `${dir}/${c.name}.then.jsonl`, clean(after.stdout));
  }
}
