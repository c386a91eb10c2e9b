import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { kernelCases } from "./bench_kernel.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

// `pnpm bench` reports a case that cannot run as ABORTED, not as a figure: each kernel case's
// subject and baseline must run once here, exit 0 with nothing on stderr, and pass the case's own check.
test("every kernel bench case runs (fold + beliefs, forge-export of a 100-trial run into a fresh store)", (t) => {
  const bench = mkdtempSync(join(tmpdir(), "forge-bench-"));
  const cases = kernelCases(bench, join(ROOT, "bin"), ROOT);
  t.true(cases.length >= 2);
  for (const c of cases) {
    for (const cmd of [c.baseline, c.subject]) {
      const r = spawnSync(cmd.argv[0]!, cmd.argv.slice(1), { cwd: cmd.cwd, encoding: "utf8" });
      t.is(r.status, 0, `${c.name}: ${cmd.label}: ${r.stderr.split("\n")[0]}`);
      t.is(r.stderr, "", `${c.name}: ${cmd.label}`);
      t.is(cmd.check?.(r.stdout), undefined, `${c.name}: ${cmd.label}`);
    }
  }
});
