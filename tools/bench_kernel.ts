/**
 * The kernel and evidence lane's bench cases: folding a scope of 10,000
 * trials and computing every belief (target ≤ 200 ms, against a floor that
 * reads and parses the same import files), and one `forge-export` of a CI
 * run record with 100 steps into an empty import log (against `node -e 0`
 * reading the same file). The fold runs as one bundled CommonJS file, the
 * way the executables in bin/ (and forge-observe) do.
 */
import { mkdirSync } from "node:fs";
import { buildSync } from "esbuild";
import { writeStoreVersion } from "@forge/core";
import { join } from "node:path";
import type { Case } from "./bench_lib.js";
import { generateEvidence } from "./gen_evidence.js";

/**
 * Generate the evidence store under `bench` and return the cases.
 * @param bench the bench folder (`.bench/`)
 * @param bin the built executables
 * @param root the repository root
 */
export function kernelCases(bench: string, bin: string, root: string): Case[] {
  const t0 = performance.now();
  const ev = generateEvidence(join(bench, "evidence-10k"), { imports: 100, perImport: 100 });
  process.stderr.write(
    `generated ${ev.trials} trials in ${ev.imports} imports in ${Math.round(performance.now() - t0)} ms\n`
  );
  // Bundled like the executables in bin/ (one CommonJS file), as forge-observe will be.
  const fold = join(bench, "fold_scope.cjs");
  buildSync({
    entryPoints: [join(root, "tools", "fold_scope.ts")],
    outfile: fold,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    conditions: ["source"],
    logLevel: "warning",
    alias: { "js-yaml": join(root, "scripts", "stubs", "js-yaml.cjs") },
  });
  const exportDir = join(bench, "evidence-10k");
  // A store of this forge's version, in a folder named .forge (FORGE_DIR must name a store; an unmarked
  // folder is a version-1 store, which every command refuses until migrated).
  const exportStore = join(exportDir, "export", ".forge");
  mkdirSync(exportStore, { recursive: true });
  writeStoreVersion(exportStore);
  return [
    {
      name: `fold + beliefs @${ev.trials / 1000}k trials`,
      target: { kind: "ms", max: 200 },
      baseline: {
        label: "read floor (node reads and parses the same import files)",
        argv: ["node", fold, ev.store, ev.scope, "--floor"],
        cwd: ev.dir,
      },
      subject: {
        label: "fold_scope (readScope + compile + schedule + evaluate + assess)",
        argv: ["node", fold, ev.store, ev.scope],
        cwd: ev.dir,
        check: (out) => (JSON.parse(out).trials === ev.trials ? undefined : `expected ${ev.trials} trials: ${out}`),
      },
    },
    {
      name: "forge-export of a 100-trial CI run",
      target: { kind: "ms", max: 300 },
      note: "each run first removes export/.forge/evidence, so every export is a real import into an empty log",
      baseline: {
        label: "node -e 0 < the same record",
        argv: ["sh", "-c", `exec node -e 0 < ${ev.runRecord}`],
        cwd: exportDir,
      },
      subject: {
        label: "forge-export < run100.jsonl",
        cwd: exportDir,
        argv: [
          "sh",
          "-c",
          `rm -rf export/.forge/evidence && FORGE_DIR=export/.forge exec ${join(bin, "forge-export")} --scope ` +
            `export-bench < ${ev.runRecord}`,
        ],
        check: (out) =>
          out.split("\n").filter(Boolean).length === 1 && JSON.parse(out).counts.trials === 100
            ? undefined
            : `unexpected output: ${out.slice(0, 80)}`,
      },
    },
  ];
}
