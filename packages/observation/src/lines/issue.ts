/** `issue` lines: closed issues that claim a fix — how they were closed, by what, with what evidence. */
import type { IssueLine, NodeLine } from "@forge/contract";
import { cmp } from "@forge/kernel";
import type { ObserveInputs, PrInput } from "../inputs.js";

/**
 * The issue lines, by number: issues closed as fixed (closed as completed,
 * a fix label, or a PR that closes them); other closed issues, and those
 * closed as not planned that no PR closes, claim no fix and get no line.
 * @param prById the PRs by id
 * @param fixedLabels the labels whose closing claims a fix
 */
export function issueLines(
  inputs: ObserveInputs,
  nodes: readonly NodeLine[],
  prById: ReadonlyMap<string, PrInput>,
  fixedLabels: readonly string[]
): IssueLine[] {
  const mergedBy = new Map<string, string>();
  for (const m of [...inputs.merges].sort((x, y) => cmp(x.createdAt, y.createdAt) || cmp(x.id, y.id))) {
    if (m.verdict !== "merged") continue;
    const pr = prById.get(m.pr);
    for (const i of pr?.closes ?? []) if (!mergedBy.has(i)) mergedBy.set(i, m.id);
  }
  const fixesFor = new Map<string, string[]>();
  for (const nd of nodes) {
    if (nd.claim_kind !== "fixes") continue;
    const issue = nd.subject.issue;
    if (typeof issue === "string") fixesFor.set(issue, [...(fixesFor.get(issue) ?? []), nd.claim_id]);
  }
  const closingPrs = new Map<string, PrInput[]>();
  for (const p of [...inputs.prs].sort((x, y) => x.number - y.number)) {
    for (const i of p.closes) closingPrs.set(i, [...(closingPrs.get(i) ?? []), p]);
  }
  const issues: IssueLine[] = [];
  for (const i of [...inputs.issues].sort((x, y) => x.number - y.number)) {
    if (i.state !== "closed") continue;
    const closing = closingPrs.get(i.id) ?? [];
    // Closed as fixed: closed as completed (gh's stateReason COMPLETED, stored by `--reason completed`), a fix
    // label, or a PR that closes it. Closed as not planned claims no fix, label or not; other closed issues neither.
    const reason = i.stateReason === "completed" ? "COMPLETED" : i.stateReason === "not_planned" ? "NOT_PLANNED" : null;
    const labelled = reason !== "NOT_PLANNED" && i.labels.some((l) => fixedLabels.includes(l));
    if (closing.length === 0 && !labelled && reason !== "COMPLETED") continue;
    const merge = mergedBy.get(i.id);
    // Keys in sorted order (see the node lines).
    issues.push({
      closed_at: i.closedAt,
      closed_by: merge ? `merge:${merge}` : null,
      closing_prs: closing.map((p) => ({ id: p.id, number: p.number, state: p.state })),
      fix_evidence: (fixesFor.get(i.id) ?? []).sort(cmp),
      id: i.id,
      kind: "issue",
      labels: [...i.labels].sort(cmp),
      number: i.number,
      state: i.state,
      state_reason: reason,
    });
  }
  return issues;
}
