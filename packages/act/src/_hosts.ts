/**
 * `--hosts`: an act's trials over ssh hosts through forge-ci's GNU parallel backend (spec/hosts.md), every arm
 * (a side of a paired experiment, or a rerun's one tree) `k` replicates at once. Each trial is a CI run as a
 * local one is; an attempt lost to infrastructure is no trial (the batch's attempts.jsonl keeps it).
 */
import { checkedPosture, runOnHosts, type HostArm, type HostsResult } from "@forge/runner";
import type { ActContext } from "./context.js";

/** Run `arms` × `k` over the act's hosts; `until`: the target step (its setup before it, in every trial). */
export async function hostRuns(
  ctx: ActContext & { hosts: string },
  arms: HostArm[],
  k: number,
  until?: string
): Promise<HostsResult> {
  const posture = await checkedPosture(ctx.store, ctx.top, ctx.env, undefined, false);
  return runOnHosts({
    store: ctx.store,
    top: ctx.top,
    hostsFile: ctx.hosts,
    arms,
    replicates: k,
    posture,
    continueOnError: true,
    until,
    env: ctx.env,
  });
}
