/**
 * `run --hosts FILE` (spec/hosts.md): every act the run starts gets `--hosts FILE`, so its trials fan
 * out over those ssh hosts. The file is checked before anything runs or is written, with forge-act's
 * own check (@forge/runner's readHosts), so a bad file is one usage line naming it (exit 2), not an act
 * error in every iteration; so is FORGE_ACT_HOSTS, which the acts inherit when `--hosts` is not given
 * (relative to the workspace, the acts' working directory). GNU parallel must be installed here (exit 1).
 */
import { resolve } from "node:path";
import { isForgeError, UsageError } from "@forge/core";
import { checkParallel, readHosts } from "@forge/runner";
import type { LoopConfig } from "./flags.js";

/**
 * Check the hosts the acts will use, if any.
 * @throws UsageError naming the flag (or variable), the file and the line of a bad hosts file; ForgeError (exit 1)
 *   when GNU parallel is not installed
 */
export async function checkHosts(c: LoopConfig, env: NodeJS.ProcessEnv): Promise<void> {
  const given = c.hosts ?? (env.FORGE_ACT_HOSTS ? resolve(c.workspace, env.FORGE_ACT_HOSTS) : null);
  if (given === null) return;
  try {
    readHosts(given, given);
  } catch (err) {
    if (!isForgeError(err)) throw err;
    throw new UsageError(`${c.hosts !== null ? "--hosts" : "FORGE_ACT_HOSTS"}: ${err.message}`);
  }
  await checkParallel(env);
}
