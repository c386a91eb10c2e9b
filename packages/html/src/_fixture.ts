/**
 * Made-up input of a given size, for the size tests and the bench
 * (`html_report`, `html_board`): `checks` current check nodes at the base,
 * each with `trials` outcomes (half the checks flaky, at fail rates from 5 to 50 %, the worst
 * case for the strips' size), a PR
 * with a typed diff, a syndrome; and `n` issues for the board. Deterministic
 * (a fixed linear congruential sequence), so two calls give the same page.
 */
import type { NodeLine, ObservationLine } from "@forge/contract";
import type { BoardInput } from "./board.js";
import type { ReportPageInput } from "./report_page.js";

const hex = (i: number, n: number): string => i.toString(16).padStart(n, "0").slice(-n);

/** A report page's input with `checks` × `trials`. */
export function manyChecks(checks: number, trials: number): ReportPageInput {
  let seed = 12345;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const tree = "a".repeat(40);
  const outcomes: Record<string, string> = {};
  const nodes: NodeLine[] = [];
  for (let c = 0; c < checks; c++) {
    const id = `check:${hex(c, 32)}`;
    const flaky = c % 2 === 0;
    const rate = 0.05 * (1 + ((c / 2) % 10));
    let o = "";
    for (let t = 0; t < trials; t++) o += flaky ? (rnd() < rate ? "f" : rnd() < 0.01 ? "e" : "p") : "p";
    outcomes[id] = o;
    const fails = o.split("f").length - 1;
    const errors = o.split("e").length - 1;
    const n = trials - errors;
    nodes.push({
      belief_micros: 900_000,
      bound: { decided: true, low_micros: 0, method: "clopper-pearson", rate: "fail", upper_micros: 3_000 },
      caveat: false,
      claim_id: id,
      claim_kind: "check",
      claim_version_id: `${id}@1`,
      current: true,
      duration_ms: 100,
      env_fingerprints: [],
      errors,
      fails,
      flake_rate: flaky
        ? { rate_micros: Math.round((fails / n) * 1e6), low_micros: 170_000, high_micros: 230_000, decided: true }
        : null,
      flaky: 0,
      fragile_reasons: [],
      head_sha: "b".repeat(40),
      infra: 0,
      kind: "node",
      lower_micros: null,
      passes: n - fails,
      patch_sha256: null,
      pr: null,
      signatures: fails ? [`sig-v1:${hex(c, 32)}`] : [],
      subject: { step: `${String(c).padStart(3, "0")}-check`, tree, patch_sha256: null },
      superseded_by: [],
      support_members: 0,
      tree,
      trials: n,
      verdict: flaky ? "flaky" : "passing",
    });
  }
  const lines: ObservationLine[] = [
    {
      kind: "observation",
      schema_version: "forge-observation/v1",
      scope: "default",
      base_ref: "main",
      base_sha: "b".repeat(40),
      base_tree: tree,
      health: {
        total_claim_versions: checks,
        total_relation_versions: 0,
        total_episodes: checks * trials,
        fragile_node_count: 0,
        syndrome_count: 0,
        degradation_count: 0,
        unverified_claim_count: 0,
        supersession_candidate_count: 0,
        last_import_at: null,
      },
      markers: [],
      counts: {
        imports: 1,
        claims: checks,
        current_claims: checks,
        trials: checks * trials,
        syndromes: 0,
        active_syndromes: 0,
        runs: trials,
        unexported_runs: 0,
        prs: 0,
        open_prs: 0,
        closed_issues: 0,
        merges: 0,
      },
      config: { precision_micros: 300_000, fragile_threshold_micros: 900_000, min_trials: 3, fixed_labels: ["bug"] },
      oracles: { conservative: { bound_reached: false, refused: null } },
    } as ObservationLine,
    ...nodes,
  ];
  return {
    title: `${checks} checks × ${trials} trials`,
    lines,
    detail: { outcomes, seen: {}, imports: ["c".repeat(64)], store_version: 2 },
    forge_version: "0.1.0",
  };
}

/** A board of `n` issues: every fifth closed, every seventh blocked, two labels and an assignee each. */
export function manyIssues(n: number): BoardInput {
  const cards = Array.from({ length: n }, (_, i) => ({
    number: n - i,
    title: `Issue number ${n - i}: something to do with the importer's retry loop`,
    labels: [
      { name: "bug", color: "d73a4a" },
      { name: i % 7 === 0 ? "blocked" : "area:import", color: "0e8a16" },
    ],
    assignees: ["alice"],
    blocked: i % 7 === 0,
    meta: "",
  }));
  return {
    title: "forge-issue board",
    columns: [
      { name: "open", cards: cards.filter((_, i) => i % 5 !== 0 && i % 7 !== 0) },
      { name: "blocked", cards: cards.filter((_, i) => i % 5 !== 0 && i % 7 === 0) },
      { name: "closed", cards: cards.filter((_, i) => i % 5 === 0) },
    ],
  };
}

/** The elements a page may hold: anything else in a page is markup that came from data. */
const ELEMENTS = new Set(
  (
    "html head meta title style body h1 h2 h3 p b br span code ul li table thead tbody tr th td svg path rect " +
    "details summary div section"
  ).split(" ")
);

/**
 * The tags of a page (or of a DOM as a browser serialised it) that could act: an element outside the page's
 * own, an event handler, a `src`/`href`/`action`, a `url(` or `javascript:` in an attribute.
 * @returns the offending tags (none: nothing live)
 */
export function liveMarkup(html: string): string[] {
  const out: string[] = [];
  // An attribute's quoted value is text (esc leaves no `"` in it): its words are not attributes.
  for (const m of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"]|"[^"]*")*)>/g)) {
    const [tag, name] = [m[0], m[1]!.toLowerCase()];
    const attrs = (m[2] ?? "").replace(/"[^"]*"/g, '""');
    if (name === "!doctype") continue;
    if (/\sstyle="[^"]*(url\(|expression|@import)/i.test(m[2] ?? "")) out.push(tag.slice(0, 120));
    if (
      !ELEMENTS.has(name) ||
      /\s(on[a-z]+|src|href|action|formaction|xlink:href)\s*=|url\(|javascript:/i.test(attrs)
    ) {
      out.push(tag.slice(0, 120));
    }
  }
  return out;
}
