/**
 * The loop's bench case: `forge-observe --json | forge-plan --json` on a
 * store of 10,000 entities (9,000 issues, 1,000 PRs) and a scope of 10,000
 * trials, against the read floor of the same files in the same run: target
 * ≤ 1.3× the floor (issue 33; DESIGN §6 asks ≤ 500 ms, one pilot
 * iteration's own overhead).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Case } from "./bench_lib.js";
import { generateEvidence } from "./gen_evidence.js";
import { generateStore } from "./gen_store.js";

/**
 * Generate the store under `bench` and return the case.
 * @param bench the bench folder (`.bench/`)
 * @param bin the built executables
 * @param root the repository root
 */
export function loopCases(bench: string, bin: string, root: string): Case[] {
  const t0 = performance.now();
  const dir = join(bench, "loop-10k");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const gen = generateStore(dir, { issues: 9_000, prs: 1_000, seed: 1 });
  const ev = generateEvidence(join(bench, "loop-10k-evidence"), { imports: 100, perImport: 100 });
  cpSync(join(ev.store, "evidence"), join(gen.store, "evidence"), { recursive: true });
  // Its own repository (no commit: no base tree), so git finds this folder and not the one around .bench/.
  execFileSync("git", ["init", "-q", dir]);
  process.stderr.write(
    `generated ${gen.issues.length + gen.prs.length} entities and ${ev.trials} trials for the loop in ` +
      `${Math.round(performance.now() - t0)} ms\n`
  );
  const pipe = `${join(bin, "forge-observe")} --json --scope ${ev.scope} | ${join(bin, "forge-plan")} --json`;
  return [
    {
      name: `observe | plan @10k entities, ${ev.trials / 1000}k trials`,
      target: { kind: "ratio", max: 1.3 },
      note: "two processes in a pipe (sh -c) against one floor process; issue 33's target (≤ 1.3× the floor)",
      baseline: {
        label: "read floor (node reads every issue.md, pr.md and import file)",
        argv: ["node", join(root, "tools", "dist", "loop_floor.js"), gen.store],
        cwd: dir,
      },
      subject: {
        label: "forge-observe --json | forge-plan --json",
        argv: ["sh", "-c", `set -e; ${pipe}`],
        cwd: dir,
        check: (out) => {
          const last = out.trimEnd().split("\n").pop() ?? "";
          return /"kind":"(plan|halt)"/.test(last) ? undefined : `no plan or halt line: ${last.slice(0, 120)}`;
        },
      },
    },
  ];
}
