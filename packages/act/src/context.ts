/** What every executor is handed: the store, the repository, the caller's environment and the act's limits. */
import type { Store } from "@forge/core";
import type { Limits } from "./_clock.js";
import type { SharedSetups } from "./_setup.js";

/** The world of one act. */
export interface ActContext {
  store: Store;
  /** The top of the repository (worktrees are made from it). */
  top: string;
  env: NodeJS.ProcessEnv;
  limits: Limits;
  /** The act's id: the title of its CI runs. */
  actId: string;
  /** The worktrees trials share (setup once per worktree); absent: every trial in a fresh worktree. */
  setups?: SharedSetups;
  /** `--hosts`: a GNU parallel sshlogin file; the act's trials fan out over those hosts (all replicates at once). */
  hosts?: string;
}
