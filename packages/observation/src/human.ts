/** The human summary of an observation (without `--json`): a thin rendering of the same lines. */
import { subjectCheck, type NodeLine, type Observation } from "@forge/contract";

const pct = (m: number): string => `${Math.round(m / 10_000)}%`;
const short = (s: unknown): string => (typeof s === "string" ? s.slice(0, 12) : "-");

/** One check or claim, one line. */
function nodeLine(n: NodeLine): string {
  const subj = n.subject;
  const what = subjectCheck(subj) ?? n.claim_id;
  const at = `${short(n.tree ?? subj.head_sha)}${n.patch_sha256 ? `+${short(n.patch_sha256)}` : ""}`;
  const pr = n.pr ? ` #${n.pr.number}` : "";
  let tail = `${n.passes}/${n.trials} passed`;
  const f = n.flake_rate;
  if (f) {
    tail +=
      `, fail rate ${pct(f.rate_micros)} [${pct(f.low_micros)}, ${pct(f.high_micros)}]` +
      ` ${f.decided ? "decided" : "undecided"}`;
  } else if (n.bound) {
    const b = n.bound;
    tail +=
      `, ${b.rate} rate ≤ ${pct(b.upper_micros)} at 95 % (${b.method})` +
      ` ${b.decided ? "decided" : "undecided — unresolved"}`;
  }
  return `  ${String(n.verdict).padEnd(12)} ${String(n.claim_kind).padEnd(12)} ${what} @${at}${pr}  ${tail}`;
}

/**
 * The summary: base and health, current claims with their verdicts, active
 * syndromes, markers, unverified claims.
 * @example humanSummary(observe(inputs))
 */
export function humanSummary(o: Observation): string {
  const h = o.header;
  const { health, counts } = h;
  const out = [
    `scope ${h.scope}: base ${h.base_ref} ${short(h.base_sha)} (code tree ${short(h.base_tree)}); ` +
      `${counts.imports} imports, last ${health.last_import_at ?? "never"}`,
    `claims: ${counts.current_claims} current of ${counts.claims}; trials ${counts.trials}; runs ${counts.runs}; ` +
      `open PRs ${counts.open_prs}`,
  ];
  const cur = o.nodes.filter((n) => n.current);
  if (cur.length) out.push("current claims:", ...cur.map(nodeLine));
  const active = o.syndromes.filter((s) => s.active);
  out.push(`syndromes: ${active.length} active, ${o.syndromes.length - active.length} cleared`);
  for (const s of active) {
    out.push(`  ${s.signature} ${s.trials} failures, ${s.failing_claim_ids.length ? "stable" : "mixed"}`);
  }
  if (o.degradations.length) out.push("markers:", ...o.degradations.map((d) => `  ${d.marker}`));
  if (o.unverified.length) out.push("unverified:", ...o.unverified.map((u) => `  ${u.claim_id} (${u.why})`));
  return out.join("\n") + "\n";
}
