/** `pr` lines: every PR, by number, with its checks, typed-diff effects and runs at its current patch. */
import { subjectCheck, type NodeLine, type PrLine } from "@forge/contract";
import { cmp } from "@forge/kernel";
import type { ObserveInputs } from "../inputs.js";

/**
 * The PR lines, by number.
 * @param effects the latest typed-diff category per patched check claim
 */
export function prLines(
  inputs: ObserveInputs,
  nodes: readonly NodeLine[],
  effects: ReadonlyMap<string, string>
): PrLine[] {
  const runsAt = new Map<string, string[]>();
  for (const run of inputs.runs) {
    if (run.patchSha256) runsAt.set(run.patchSha256, [...(runsAt.get(run.patchSha256) ?? []), run.id]);
  }
  const nodesByPatch = new Map<string, NodeLine[]>();
  for (const nd of nodes) {
    const p = nd.patch_sha256;
    if (p) nodesByPatch.set(p, [...(nodesByPatch.get(p) ?? []), nd]);
  }
  return [...inputs.prs]
    .sort((x, y) => x.number - y.number)
    .map((p) => {
      const at = nodesByPatch.get(p.patchSha256) ?? [];
      const eff: Record<string, string> = {};
      for (const nd of at) {
        // A check's name: its step, or `<step> › <test>` for a test (the typed diff is per test then).
        const step = subjectCheck(nd.subject);
        if (step === null) continue;
        if (nd.claim_kind === "patch_effect") eff[step] = nd.verdict;
        else if (nd.claim_kind === "check" && effects.has(nd.claim_id) && !(step in eff)) {
          eff[step] = effects.get(nd.claim_id)!;
        }
      }
      const checks = [
        ...new Set(at.filter((nd) => nd.claim_kind === "check").map((nd) => subjectCheck(nd.subject) as string)),
      ].sort(cmp);
      // Keys in sorted order (see the node lines).
      return {
        base_ref: p.baseRefName,
        base_sha: p.baseSha,
        checks,
        ci: p.ci,
        closes: [...p.closes].sort(cmp),
        effects: sortedObject(eff),
        head_sha: p.headSha,
        id: p.id,
        kind: "pr",
        number: p.number,
        patch_sha256: p.patchSha256,
        previous_patch_sha256: p.previousPatchSha256,
        runs: [...(runsAt.get(p.patchSha256) ?? [])].sort(cmp),
        state: p.state,
      };
    });
}

function sortedObject(o: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(o).sort(cmp)) out[k] = o[k]!;
  return out;
}
