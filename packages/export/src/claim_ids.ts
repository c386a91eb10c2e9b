/**
 * Stable claim ids, derived from what a claim is about, so the same step
 * at the same tree in two runs is the same claim whichever record states it.
 */
import { sha256Hex } from "@forge/evidence";
import { splitCheck } from "@forge/contract";
import type { ClaimVersion } from "@forge/kernel";

/**
 * The tree a check ran on: a base commit plus the sha256 of the patch
 * applied on it (null: none), and the commit's code tree (its git tree
 * without `.forge`, spec/loop.md §4) when the record carries it.
 */
export interface Tree {
  headSha: string;
  patchSha256: string | null;
  /** null or absent: a record from before code trees; its claims keep the commit-keyed derivation. */
  codeTree?: string | null;
}

/**
 * A check is a step or one test of a step (`20-unit › parser › x`, @forge/contract's check names): a test's
 * claim is keyed by its check name, so by step + test id + code tree, exactly as a step's is.
 *
 * `check:<32 hex>`: keyed by the code tree, `sha256("check\n<step>\ntree:<codeTree>\n<patch or ->")`,
 * so `.forge/` commits never split a check's trials; a tree without a code
 * tree (an old record) keeps the commit-keyed `sha256("check\n<step>\n<headSha>\n<patch or ->")`,
 * a separate claim (spec/evidence.md §7).
 * @example checkClaimId("10-test", {headSha: "a".repeat(40), patchSha256: null, codeTree: "b".repeat(40)})
 */
export function checkClaimId(step: string, tree: Tree): string {
  return "check:" + sha256Hex(`check\n${step}\n${treeKey(tree)}\n${tree.patchSha256 ?? "-"}`).slice(0, 32);
}

/** `patch_effect:<32 hex>`: "patch P turns step S from fail to pass on base B" (keyed like checks). */
export function patchEffectClaimId(step: string, tree: Tree): string {
  return (
    "patch_effect:" + sha256Hex(`patch_effect\n${step}\n${treeKey(tree)}\n${tree.patchSha256 ?? "-"}`).slice(0, 32)
  );
}

/** What a claim id is keyed by: `tree:<codeTree>`, or the commit for a record without one. */
function treeKey(tree: Tree): string {
  return tree.codeTree ? `tree:${tree.codeTree}` : tree.headSha;
}

/** `fixes:<32 hex>` = sha256("fixes\n<issue id>\n<patch sha256>")[0:32]: "patch P fixes issue I". */
export function fixesClaimId(issue: string, patchSha256: string): string {
  return "fixes:" + sha256Hex(`fixes\n${issue}\n${patchSha256}`).slice(0, 32);
}

/** `criterion:<loop>:<criterion>`. */
export function criterionClaimId(loopId: string, criterionId: string): string {
  return `criterion:${loopId}:${criterionId}`;
}

/**
 * A short human label of a tree: `<sha12>` or `<sha12>+<patch12>` (the code tree's 12, prefixed `tree:`, when known).
 */
export function treeLabel(tree: Tree): string {
  return (
    (tree.codeTree ? `tree:${tree.codeTree.slice(0, 12)}` : tree.headSha.slice(0, 12)) +
    (tree.patchSha256 ? "+" + tree.patchSha256.slice(0, 12) : "")
  );
}

/**
 * The `check` claim "step S passes at tree T", as CI runs and act results both state it.
 * @param at when it was stated
 * @example checkClaim("10-test", {headSha: "a".repeat(40), patchSha256: null}, at).claim_id === checkClaimId("10-test",
 * tree) // true
 */
export function checkClaim(step: string, tree: Tree, at: string): ClaimVersion {
  const id = checkClaimId(step, tree);
  return {
    claim_id: id,
    claim_version_id: `${id}@1`,
    kind: "check",
    subject: subjectOf(step, tree),
    statement: statementOf(step, tree),
    recorded_at: at,
    supersedes_claim_version_id: null,
  };
}

/**
 * A check's (or patch effect's) subject: `{step, tree, patch_sha256}` when
 * the code tree is known — no commit, so every commit that reaches the tree
 * states the same claim version — else the old `{step, head_sha,
 * patch_sha256}`. The commit a trial ran stays with the run (its receipt,
 * the bundle's `version_id`).
 */
export function subjectOf(check: string, tree: Tree): Record<string, string | null> {
  const { step, test } = splitCheck(check);
  const s: Record<string, string | null> = tree.codeTree
    ? { step, tree: tree.codeTree, patch_sha256: tree.patchSha256 }
    : { step, head_sha: tree.headSha, patch_sha256: tree.patchSha256 };
  // A test's subject names its test (a step's keeps the fields it always had).
  if (test !== null) s.test = test;
  return s;
}

/** What a check claim states: `step S passes at T`, or `test X of step S passes at T`. */
function statementOf(check: string, tree: Tree): string {
  const { step, test } = splitCheck(check);
  return test === null
    ? `step ${step} passes at ${treeLabel(tree)}`
    : `test ${test} of step ${step} passes at ${treeLabel(tree)}`;
}
