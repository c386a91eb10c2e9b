/**
 * The pictures' bench cases (spec/html.md): the evidence page of 100 checks
 * × 1,000 trials rendered and written by one process (target ≤ 1 s, the
 * file ≤ 1 MB; baseline: the same process making the same input and
 * writing nothing), and `forge-issue list --html` of 1,000 issues (the page
 * ≤ 500 KB; baseline: the same list as JSON lines). The page script is
 * bundled as the executables are (one CommonJS file).
 */
import { join } from "node:path";
import { buildSync } from "esbuild";
import type { Case } from "./bench_lib.js";

/**
 * The cases.
 * @param bench the bench folder (`.bench/`)
 * @param bin the built executables
 * @param root the repository root
 * @param issues a generated store of at least 1,000 issues (its folder)
 */
export function htmlCases(bench: string, bin: string, root: string, issues: string): Case[] {
  const page = join(bench, "html_page.cjs");
  buildSync({
    entryPoints: [join(root, "tools", "html_page.ts")],
    outfile: page,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    conditions: ["source"],
    logLevel: "warning",
  });
  const out = join(bench, "html_page.html");
  const under = (max: number) => (stdout: string) => {
    const bytes = Number(stdout.trim().split("\n").pop());
    return bytes > 0 && bytes <= max ? undefined : `${stdout.trim().slice(0, 40)} bytes, not within ${max}`;
  };
  const fi = join(bin, "forge-issue");
  return [
    {
      name: "html report of 100 checks × 1000 trials, written",
      target: { kind: "ms", max: 1000 },
      baseline: {
        label: "the same input made, nothing rendered",
        argv: ["node", page, out, "100", "1000", "--floor"],
        cwd: bench,
      },
      subject: {
        label: "renderReportPage + write (≤ 1 MB)",
        argv: ["node", page, out, "100", "1000"],
        cwd: bench,
        check: under(1_000_000),
      },
    },
    {
      name: "html board of 1000 issues (forge-issue list --html)",
      target: { kind: "ratio", max: 1.5 },
      baseline: {
        label: "forge-issue list -s all -L 1000 --json",
        argv: [fi, "list", "-s", "all", "-L", "1000", "--json"],
        cwd: issues,
      },
      subject: {
        label: "forge-issue list -s all -L 1000 --html (≤ 500 KB)",
        argv: ["sh", "-c", `${fi} list -s all -L 1000 --html | wc -c`],
        cwd: issues,
        check: under(500_000),
      },
    },
  ];
}
