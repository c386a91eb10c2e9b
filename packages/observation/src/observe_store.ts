/** observeStore(): gather the store around a folder and observe it (what forge-observe and forge-plan run). */
import { openStore } from "@forge/core";
import type { Observation } from "@forge/contract";
import { gather } from "./gather.js";
import type { ObserveConfig } from "./inputs.js";
import { observe } from "./observe.js";

/** Options of `observeStore`. */
export interface ObserveStoreOptions {
  scope: string;
  /** The base branch (default: the branch HEAD is on, else `main`). */
  base?: string;
  config: Partial<ObserveConfig>;
}

/**
 * Observe the store around `cwd`.
 * @throws ForgeError: no store, a corrupt import log
 * @example await observeStore(process.cwd(), process.env, { scope: "default", config: {} })
 */
export async function observeStore(
  cwd: string,
  env: NodeJS.ProcessEnv,
  opts: ObserveStoreOptions
): Promise<Observation> {
  const store = openStore({ cwd, env });
  // git runs here (it finds the repository itself; outside one, the base is unknown).
  const { fixed_labels: fixedLabels, precision_micros: precisionMicros, kernel } = opts.config;
  const inputs = await gather(store, cwd, {
    scope: opts.scope,
    base: opts.base,
    env,
    fixedLabels,
    precisionMicros,
    kernel,
  });
  return observe(inputs, opts.config);
}
