/** A temporary repository on main with CI steps (`.forge/ci/steps/<name>`, `#!/bin/sh` scripts), committed. */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, tempRepo } from "./run.js";
import { scratch } from "./scratch.js";

/**
 * @param steps step name → the script's body (a `#!/bin/sh` line is put first)
 * @example stepsRepo("forge-act-e2e-", { "10-unit": "exit 0" })
 */
export function stepsRepo(prefix: string, steps: Record<string, string>, files: Record<string, string> = {}): string {
  const dir = scratch(tempRepo(prefix));
  const d = join(dir, ".forge", "ci", "steps");
  mkdirSync(d, { recursive: true });
  for (const [name, text] of Object.entries(steps)) {
    writeFileSync(join(d, name), `#!/bin/sh\n${text}\n`);
    chmodSync(join(d, name), 0o755);
  }
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  return dir;
}
