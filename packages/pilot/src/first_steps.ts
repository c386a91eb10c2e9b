/**
 * What a project with no evidence yet should do next, in words a newcomer
 * knows (no CI steps, no CI runs, runs not exported): the halt detail of a
 * `missing_kernel_payload` halt, the same in `run` and in `explain`/`plan`.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { isCiStepName } from "@forge/core";

/** The names in a folder, or none when it cannot be read. */
function names(dir: string): string[] {
  try {
    return existsSync(dir) ? readdirSync(dir) : [];
  } catch {
    return [];
  }
}

/**
 * The next step for a store with no evidence.
 * @param workspace the repository
 * @param exportsRuns whether the caller exports completed CI runs itself (`run`'s pick-up does; `explain` does not)
 */
export function firstSteps(workspace: string, exportsRuns: boolean): string {
  const ci = join(workspace, ".forge", "ci");
  const steps = names(join(ci, "steps")).filter(isCiStepName);
  const runs = names(join(ci, "runs")).filter((n) => !n.startsWith("."));
  const again = "then `forge-pilot run` again";
  if (steps.length === 0) {
    return (
      "no CI steps yet: add executable scripts named like 10-test to .forge/ci/steps/, run `forge-ci run`, " + again
    );
  }
  if (runs.length === 0) return `no CI runs yet: run \`forge-ci run\` first (${steps.length} steps), ${again}`;
  if (exportsRuns) {
    return (
      `${runs.length} CI run(s) but no evidence from them (none completed, or the export failed): ` +
      `check \`forge-ci list\`, run \`forge-ci list --json | forge-export\`, ${again}`
    );
  }
  return (
    `${runs.length} CI run(s) not exported yet: \`forge-pilot run\` exports them first and plans from them ` +
    "(or run `forge-ci list --json | forge-export`)"
  );
}
