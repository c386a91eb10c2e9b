/**
 * A merge outcome as forge-merge prints it: the human line for stderr and
 * the JSON line (`forge-merge pr` and `forge-pr merge` both print these).
 */
import { printable } from "@forge/core";
import type { MergeResult } from "./merge_pr.js";

/**
 * The human line for stderr (the JSON line is the contract; this is porcelain).
 * @example formatMerge({verdict: "conflict", conflicts: ["a.txt"], …})
 * // "pull request #2 conflicts with main: a.txt (record 1234abcd)"
 */
export function formatMerge(r: MergeResult, tick = ""): string {
  const pr = `pull request #${r.pr.number}`;
  const rec = r.record ? ` (record ${r.record.slice(0, 8)})` : "";
  switch (r.verdict) {
    case "merged": {
      const closed = r.closedIssues.map((i) => (i.number ? `#${i.number}` : i.id.slice(0, 8)));
      const issues = r.closedIssues.length ? `; closed ${closed.join(" ")}` : "";
      const co = r.checkout === "updated" ? "checkout updated" : `only the ref moved; the checkout is not on ${r.base}`;
      return `${tick}Merged ${pr} into ${r.base} at ${r.commit!.slice(0, 12)} (${co})${issues}${rec}`;
    }
    case "conflict":
      return `${pr} conflicts with ${r.base}: ${r.conflicts.map(shown).join(" ")}${rec}; ${r.base} unchanged`;
    case "ci-failed":
      return `${pr}: CI failed${r.failedStep ? ` at step ${r.failedStep}` : ""}${rec}; ${r.base} unchanged`;
    case "already-merged": {
      const l = r.landed;
      const other = l ? (l.number ? `#${l.number}` : l.pr.slice(0, 8)) : "";
      const by = l ? ` by pull request ${other} (record ${l.record.slice(0, 8)}, same ${l.by})` : "";
      return `${pr} is already merged${by}; nothing was changed`;
    }
  }
}

export { MERGE_FIELDS } from "./fields.js";

/** The JSON line: keys sorted, like every forge record. */
export function mergeJson(r: MergeResult): Record<string, unknown> {
  const o = r as unknown as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]])
  );
}

/** A name safe on one stderr line: control characters shown as `?`. */
function shown(s: string): string {
  return printable(s, 200);
}
