/**
 * What an observation is made of: the public surfaces of the store, read
 * once (gather.ts), as plain data the pure `observe()` turns into lines.
 */
import type { KernelView, ScopeState } from "@forge/evidence";

/** A CI run record (`.forge/ci/runs/<id>/summary.md`), with whether each step's log is still there. */
export interface RunInput {
  id: string;
  status: string;
  headSha: string;
  /** null: a record from before code trees. */
  codeTree: string | null;
  patchSha256: string | null;
  /** The PR id, or null. */
  pr: string | null;
  envSha256: string;
  createdAt: string;
  completedAt: string | null;
  steps: Array<{ name: string; outcome: string; logSha256: string | null; log: boolean }>;
}

/** A PR (`pr.md`). */
export interface PrInput {
  id: string;
  number: number;
  state: string;
  baseRefName: string;
  baseSha: string | null;
  headSha: string | null;
  patchSha256: string;
  previousPatchSha256: string[];
  closes: string[];
  ci: string | null;
  createdAt: string;
}

/** An issue (`issue.md`): only what an observation needs. */
export interface IssueInput {
  id: string;
  number: number;
  state: string;
  closedAt: string | null;
  labels: string[];
  /** The stored reason of a close (`forge-issue close --reason`): `completed`, `not_planned`, or none. */
  stateReason?: string | null;
}

/** A merge record (`.forge/merges/<id>.md`). */
export interface MergeInput {
  id: string;
  pr: string;
  patchSha256: string;
  verdict: string;
  commit: string | null;
  baseRefName: string;
  createdAt: string;
}

/** Everything `observe()` reads. */
export interface ObserveInputs {
  scope: string;
  /** The base branch, its tip and the tip's code tree (null when the branch does not exist). */
  base: { ref: string; sha: string | null; tree: string | null };
  state: ScopeState;
  /**
   * The kernel's view of `state.kernel` (gather's, maybe from its cache), made with the
   * observation's precision and kernel configuration; then `state.kernel` may lack the
   * payloads the view was made from. Absent: `observe()` makes it from `state.kernel`.
   */
  kernel?: KernelView;
  runs: RunInput[];
  prs: PrInput[];
  issues: IssueInput[];
  merges: MergeInput[];
  /** Files that could not be read, as `<kind>:<id or name>` (each becomes an `unreadable:` marker). */
  unreadable: string[];
}

/** The knobs of an observation. */
export interface ObserveConfig {
  /** The widest 95 % interval of a flake rate that counts as decided (micros). */
  precision_micros: number;
  /** Kernel overrides (fragile threshold, min_trials, infrastructure rule, bounds). */
  kernel: Partial<import("@forge/kernel").KernelConfig>;
  /**
   * Labels whose closing claims a fix (forge has no state reason): a closed
   * issue with one of them, or one a PR `closes`, is "closed as fixed" and
   * needs evidence; other closed issues (docs, questions) claim nothing.
   */
  fixed_labels: readonly string[];
}

/** The defaults. */
export const DEFAULT_OBSERVE_CONFIG: Readonly<ObserveConfig> = Object.freeze({
  precision_micros: 300_000,
  kernel: {},
  fixed_labels: Object.freeze(["bug"]),
});
