/**
 * forge-pilot's findings: what the loop now knows of each check, PR, issue
 * and target it investigated, in the verdict words, from the last
 * observation and the act results: a pure function, so the report's words
 * are tested without running a loop (test/pilot_findings_test.ts).
 */
function pct(micros) {
  return (micros / 1_000_000).toFixed(2);
}

/** Typed-diff categories that say nothing of the patch: a check in one is unresolved, never "no effect" nor "nothing regressed". */
const UNRESOLVED = ["inconclusive", "error", "skipped", "spurious_fixed", "spurious_regressed", "flaky_baseline", "flaky_patched"];

/**
 * A check's line in the verdict words, with how it is known (its trials). A
 * flake rate the budget left wider than the precision is unresolved.
 */
function checkLine(label, n) {
  const f = n.flake_rate;
  if (n.verdict === "flaky" && f) return `${label}: flaky, fail rate ${pct(f.rate_micros)} [${pct(f.low_micros)}, ${pct(f.high_micros)}], ${n.trials} trials${f.decided ? "" : " (rate undecided — unresolved)"}`;
  if (n.verdict === "passing") return `${label}: passing, ${n.trials} trials (fail rate ≤ ${Math.min(1, 3 / Math.max(1, n.trials)).toFixed(2)} at 95 %, rule of three)`;
  if (n.verdict === "failing") return `${label}: failing, ${n.trials} trials, ${(n.signatures ?? []).length === 1 ? "one signature" : `${(n.signatures ?? []).length} signatures`}`;
  return `${label}: ${n.verdict ?? "unknown"}, ${n.trials} trials — unresolved`;
}

/** What the loop now knows of each check, PR, issue and target it investigated, in the verdict words. */
export function findings(obs, results, lastTargets, issueNumbers = new Map(), firstTargets = []) {
  const out = [];
  const head = obs.find((o) => o.kind === "observation") ?? {};
  const nodes = obs.filter((o) => o.kind === "node");
  const steps = new Set();
  for (const r of results) {
    if (r.plan_kind === "CheckRerun" && r.stats) steps.add(r.stats.step);
  }
  for (const t of lastTargets) for (const ref of t.refs ?? []) {
    const n = nodes.find((x) => x.claim_id === ref && x.claim_kind === "check");
    if (n) steps.add(n.subject?.step);
  }
  const atBase = (n) => n.claim_kind === "check" && (n.subject?.patch_sha256 ?? null) === null && (head.base_tree == null || n.tree == null || n.tree === head.base_tree);
  const most = (xs) => xs.sort((a, b) => b.trials - a.trials)[0];
  for (const step of [...steps].filter(Boolean).sort()) {
    const n = most(nodes.filter((x) => atBase(x) && x.subject?.step === step));
    if (n) out.push(checkLine(step, n));
  }
  // A step rerun at a PR's patch: what the loop knows of it there (the base's line is not about that code).
  const patched = new Map();
  for (const r of results) if (r.plan_kind === "CheckRerun" && r.stats?.patch_sha256) patched.set(`${r.stats.step} ${r.stats.patch_sha256}`, r.stats);
  for (const [, s] of [...patched].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const n = most(nodes.filter((x) => x.claim_kind === "check" && x.subject?.step === s.step && x.subject?.patch_sha256 === s.patch_sha256));
    if (n) out.push(checkLine(`${s.step} at ${n.pr ? `PR #${n.pr.number}` : `patch ${s.patch_sha256.slice(0, 12)}`}'s patch`, n));
  }
  const prs = obs.filter((o) => o.kind === "pr");
  const issues = obs.filter((o) => o.kind === "issue");
  const issueNo = (id) => issues.find((i) => i.id === id)?.number ?? issueNumbers.get(id) ?? id.slice(0, 8);
  const byPr = new Map();
  for (const r of results) if (r.plan_kind === "PairedPatch" && r.typed_diff) byPr.set(r.version_id ?? "", r);
  const seen = new Set();
  for (const r of [...byPr.values()].reverse()) {
    const prId = String(r.candidate_id ?? "").replace(/^pr:/, "");
    if (seen.has(prId)) continue;
    seen.add(prId);
    const pr = prs.find((p) => p.id === prId);
    const no = pr ? `PR #${pr.number}` : `PR ${prId.slice(0, 8)}`;
    const cats = r.typed_diff;
    const runs = `${r.sides?.baseline?.reps ?? "?"}+${r.sides?.patched?.reps ?? "?"} runs`;
    const regressed = cats.filter((d) => d.category === "regressed").map((d) => d.check);
    const fixed = cats.filter((d) => d.category === "fixed").map((d) => d.check);
    const held = (r.fixes ?? []).filter((f) => f.holds);
    if (held.length > 0) {
      // Flakes of a check already flaky at the base were not counted against the rule: said, not hidden.
      const flakes = cats.filter((d) => (held[0].flaky_at_base ?? []).includes(d.check) && d.category !== "still_passing" && d.category !== "flaky_baseline");
      // A check left out of PASS_TO_PASS because it flaked at the base stays unresolved: "nothing regressed" is not about it.
      const open = cats.filter((d) => UNRESOLVED.includes(d.category) && !flakes.includes(d));
      const note = (flakes.length ? `; ${flakes.map((d) => `${d.check} ${d.category}`).join(", ")}: flaky at the base, not counted` : "")
        + (open.length ? `; unresolved: ${open.map((d) => `${d.check} ${d.category}`).join(", ")}` : "");
      out.push(`${no}: fixes ${held.map((f) => `#${issueNo(f.issue)}`).join(", ")} (${fixed.join(", ")} fixed, nothing regressed, ${runs}${note})`);
    }
    else if (regressed.length > 0) out.push(`${no}: regresses ${regressed.join(", ")} (${runs})`);
    else if (fixed.length > 0 && (r.fixes ?? []).length > 0) {
      // It closes issues, but SWE-bench's rule did not hold (a check broke, flaked or went undecided): no fix claimed.
      const broke = cats.filter((d) => (r.fixes[0].broken ?? []).includes(d.check)).map((d) => `${d.check} ${d.category}`);
      out.push(`${no}: ${fixed.join(", ")} fixed; fixes ${r.fixes.map((f) => `#${issueNo(f.issue)}`).join(", ")} unresolved (${[...broke, runs].join(", ")})`);
    } else if (fixed.length > 0) out.push(`${no}: fixes ${fixed.join(", ")} (no issue it closes, ${runs})`);
    else {
      // A check flaky on either side says nothing about the patch: unresolved, never "no effect".
      const unresolved = cats.filter((d) => UNRESOLVED.includes(d.category));
      const same = cats.filter((d) => d.category === "still_passing" || d.category === "still_failing").map((d) => d.check);
      const open = unresolved.map((d) => `${d.check} ${d.category}`).join(", ");
      if (unresolved.length === 0) out.push(`${no}: no effect (${cats.map((d) => `${d.check} ${d.category}`).join(", ")}, ${runs})`);
      else if (same.length > 0) out.push(`${no}: no change in ${same.join(", ")}; unresolved: ${open} (${runs})`);
      else out.push(`${no}: unresolved (${open}, ${runs})`);
    }
  }
  for (const i of issues) {
    if (i.state !== "closed" && i.state !== "CLOSED") continue;
    if ((i.fix_evidence ?? []).length > 0) out.push(`issue #${i.number}: closed, verified (${i.fix_evidence.length} fixes claim${i.fix_evidence.length > 1 ? "s" : ""})`);
    else out.push(`issue #${i.number}: closed, unverified: ${i.closed_by ? `closed by ${i.closed_by}, no fixes claim` : "no patch"}`);
  }
  // A degraded export the loop saw at first and no longer sees, though no act was aimed at it: said, not dropped.
  const acted = new Set(results.map((r) => r.target_key));
  const still = new Set(lastTargets.map((t) => t.key));
  for (const t of firstTargets) {
    if (t.target_kind !== "ThinExport" || acted.has(t.key) || still.has(t.key)) continue;
    const why = t.key.startsWith("thin_export:missing_log:") ? "a later run re-recorded the step at the same code tree; the lost log stays lost" : "no longer a target at the end";
    out.push(`target ${t.key}: cleared without an act (${why})`);
  }
  for (const t of lastTargets) if (t.exhausted) out.push(`target ${t.key}: exhausted${t.exhausted_why ? ` (${t.exhausted_why})` : ""} after ${t.attempts} attempt${t.attempts === 1 ? "" : "s"} — unresolved`);
  return out;
}
