/**
 * What a target is about, in the names a person knows (a step, a PR's
 * number, an issue's number), read from its refs and the observation: the
 * progress lines, `explain` and the report show it beside the target's key,
 * which stays whole (`forge-plan explain <key>` takes it).
 */
import type { NodeLine, ObservationLine, PrLine } from "./_lines.js";

/** What a label is made from: a target's key and the claim ids, `pr:`, `issue:` refs that justify it. */
export interface Labelled {
  key: string;
  refs?: readonly string[];
}

/** The labels shown at most, then "+N". */
const MAX = 3;

/**
 * A target's label: the steps (with the PR whose patch they are at), PRs
 * and issues its refs name, or "" when none is known.
 * @example targetLabel({ key: "fragile:check:…", refs: ["check:…"] }, obs) // "30-net"
 */
export function targetLabel(t: Labelled, obs: readonly ObservationLine[]): string {
  const nodes = new Map<string, NodeLine>();
  const prs = new Map<string, PrLine>();
  const issues = new Map<string, number>();
  for (const o of obs) {
    if (o.kind === "node") nodes.set(o.claim_id, o);
    else if (o.kind === "pr") prs.set(o.id, o);
    else if (o.kind === "issue") issues.set(o.id, o.number);
  }
  const out: string[] = [];
  const add = (s: string | null): void => {
    if (s && !out.includes(s)) out.push(s);
  };
  for (const ref of t.refs ?? []) {
    if (ref.startsWith("pr:")) {
      const p = prs.get(ref.slice(3));
      add(p ? `PR #${p.number}` : null);
    } else if (ref.startsWith("issue:")) {
      const n = issues.get(ref.slice(6));
      add(n !== undefined ? `issue #${n}` : null);
    } else {
      const n = nodes.get(ref);
      if (!n) continue;
      const step = typeof n.subject?.step === "string" ? n.subject.step : null;
      const at = n.pr ? ` at PR #${n.pr.number}'s patch` : "";
      if (n.claim_kind === "fixes") {
        const i = issues.get(String(n.subject?.issue ?? ""));
        add(i !== undefined ? `fixes issue #${i}${at}` : `fixes${at}`);
      } else add(step ? `${step}${at}` : null);
    }
  }
  out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // A lost log's key names its step.
  const lost = /^thin_export:missing_log:[^:]+:(.+)$/.exec(t.key);
  if (lost) add(lost[1]!);
  if (out.length > MAX) return `${out.slice(0, MAX).join(", ")} +${out.length - MAX}`;
  return out.join(", ");
}

/** The key with its label: `<key> (<label>)`, or the key alone. */
export function keyWithLabel(t: Labelled, obs: readonly ObservationLine[]): string {
  const l = targetLabel(t, obs);
  // A key that names its subject already (a lost log's step) is left as it is.
  return l && !t.key.endsWith(`:${l}`) ? `${t.key} (${l})` : t.key;
}
