/**
 * The evidence as one page (`forge-observe --html`, `forge-pilot report
 * --html`): what is unresolved first, then every check as a row (its
 * verdict word, its fail rate with the 95 % interval on a 0–1 axis, its
 * trials and their outcomes in order), each PR's paired experiment, the
 * failure signatures, the loop's trace and halt, and where it all came
 * from. A pure function of the observation's lines (forge-observe's
 * output, the same lines the text report reads) and the evidence detail:
 * the same store gives the same bytes (nothing here reads a clock).
 */
import type { DegradationLine, IssueLine, NodeLine, ObservationLine, PrLine, SyndromeLine } from "@forge/contract";
import type { ObservationHeader, UnverifiedLine } from "@forge/contract";
import { esc } from "./escape.js";
import { page, table, verdict } from "./page.js";
import { outcomeStrip, rateBar } from "./svg.js";

/** What the page shows besides the observation: the trials in order, the signatures' sightings, the imports. */
export interface PageDetail {
  /** Per claim id: one letter per trial in recorded order (`p`, `f`, `e`). */
  outcomes: Readonly<Record<string, string>>;
  /** Per signature: first and last recorded. */
  seen: Readonly<Record<string, { first: string; last: string }>>;
  /** Import (batch) ids in fold order. */
  imports: readonly string[];
  store_version: number;
}

/** One attempt of the loop (`.forge/pilot/history.jsonl`). */
export interface TraceRow {
  target_key: string;
  plan_kind: string;
  outcome_signature?: string | null;
  recorded_at?: string | null;
}

/** The loop's part of the page (forge-pilot only). */
export interface LoopPart {
  /** The last run's halt, or null when no run was recorded. */
  halt: { reason: string; detail: string } | null;
  /** The last run's counts in one line (the text report's second line), or null. */
  summary: string | null;
  trace: readonly TraceRow[];
  /** The text report's findings, word for word. */
  findings: readonly string[];
}

/** The page's input. */
export interface ReportPageInput {
  title: string;
  lines: readonly ObservationLine[];
  detail: PageDetail;
  forge_version: string;
  /** Issue numbers by id (a `fixes` claim names its issue by id). */
  issue_numbers?: Readonly<Record<string, number>>;
  loop?: LoopPart;
}

/**
 * Render the page.
 * @example renderReportPage({ title: "forge", lines, detail, forge_version: "0.1.0" })
 */
export function renderReportPage(input: ReportPageInput): string {
  const v = view(input);
  const body = [
    heading(v, input),
    unresolvedPart(v, input),
    checksPart(v, input.detail),
    prsPart(v),
    syndromesPart(v, input.detail),
    issuesPart(v),
    input.loop ? loopPart(input.loop) : "",
    provenancePart(v, input),
  ];
  return page(input.title, body.join(""));
}

// --- internal ---

interface View {
  head: ObservationHeader | null;
  nodes: NodeLine[];
  checks: NodeLine[];
  prs: PrLine[];
  syndromes: SyndromeLine[];
  issues: IssueLine[];
  degradations: DegradationLine[];
  unverified: UnverifiedLine[];
  issueNo: (id: string) => string;
}

function view(input: ReportPageInput): View {
  const of = <K extends ObservationLine["kind"]>(k: K): Extract<ObservationLine, { kind: K }>[] =>
    input.lines.filter((l): l is Extract<ObservationLine, { kind: K }> => l.kind === k);
  const head = of("observation")[0] ?? null;
  const nodes = of("node");
  const issues = of("issue");
  const prs = of("pr").sort((a, b) => a.number - b.number);
  const prNo = new Map(prs.map((p) => [p.patch_sha256, p.number]));
  const base = head?.base_tree ?? null;
  // Base first, then each PR's patch by number, then older trees; by step within.
  const rank = (n: NodeLine): [number, string, string] => {
    const patch = n.patch_sha256 ?? null;
    const group = patch === null ? (n.tree === base || base === null ? 0 : 3) : prNo.has(patch) ? 1 : 2;
    const key = patch === null ? String(n.tree ?? "") : `${String(prNo.get(patch) ?? 0).padStart(9, "0")} ${patch}`;
    return [group * 2 + (n.current ? 0 : 1), key, `${stepOf(n)} ${n.claim_id}`];
  };
  const checks = nodes
    .filter((n) => n.claim_kind === "check")
    .map((n) => [rank(n), n] as const)
    .sort(([a], [b]) => a[0] - b[0] || cmp(a[1], b[1]) || cmp(a[2], b[2]))
    .map(([, n]) => n);
  const issueNo = (id: string): string =>
    String(issues.find((i) => i.id === id)?.number ?? input.issue_numbers?.[id] ?? id.slice(0, 8));
  return {
    head,
    nodes,
    checks,
    prs,
    syndromes: of("syndrome"),
    issues,
    degradations: of("degradation"),
    unverified: of("unverified"),
    issueNo,
  };
}

function heading(v: View, input: ReportPageInput): string {
  const h = v.head;
  const where = h
    ? `scope <b>${esc(h.scope)}</b>, base ${esc(h.base_ref)} at <code>${esc(short(h.base_sha))}</code> ` +
      `(code tree <code>${esc(short(h.base_tree))}</code>): ${h.counts.current_claims} current claims of ` +
      `${h.counts.claims}, ${h.counts.trials} trials, ${h.counts.runs} runs, ${h.counts.open_prs} open PRs, ` +
      `${h.counts.imports} imports`
    : "no observation header";
  const halt = input.loop?.halt
    ? `<p id="halt">halted: ${haltWords(input.loop.halt)}` +
      `${input.loop.summary ? `<br><span class="meta">${esc(input.loop.summary)}</span>` : ""}</p>\n`
    : "";
  return `<h1>${esc(input.title)}</h1>\n<p>${where}</p>\n${halt}`;
}

/** The text report's unresolved words when the loop gave them, else the observation's own. */
function unresolvedPart(v: View, input: ReportPageInput): string {
  const said = input.loop?.findings.length
    ? input.loop.findings.filter((f) => /unresolved|unverified|exhausted/.test(f))
    : observedOpen(v);
  for (const m of v.head?.markers ?? []) said.push(`marker ${m}: degraded evidence`);
  if (input.loop && !input.loop.halt) said.push("no loop run recorded (forge-pilot run): the loop's trace is empty");
  const items = said.length
    ? `<ul class="plain">${said.map((s) => `<li>${esc(s)}</li>`).join("\n")}</ul>\n`
    : `<p>nothing is unresolved in this observation</p>\n`;
  return `<h2 id="unresolved">Unresolved (${said.length})</h2>\n${items}`;
}

/** What the observation leaves open: undecided bounds, unresolved typed diffs, unverified claims. */
function observedOpen(v: View): string[] {
  const out: string[] = [];
  for (const n of v.checks) {
    if (!n.current) continue;
    if (n.bound && !n.bound.decided)
      out.push(`${stepOf(n)} at ${at(n)}: ${n.verdict}, ${n.trials} trials — unresolved`);
    else if (n.flake_rate && !n.flake_rate.decided) {
      out.push(`${stepOf(n)} at ${at(n)}: flaky, rate undecided, ${n.trials} trials — unresolved`);
    }
  }
  for (const p of v.prs) {
    const open = Object.entries(p.effects).filter(([, c]) => OPEN.includes(c));
    if (open.length) out.push(`PR #${p.number}: unresolved: ${open.map(([s, c]) => `${s} ${c}`).join(", ")}`);
  }
  for (const u of v.unverified) {
    const who = u.issue ? `issue #${u.issue.number}` : u.claim_id;
    out.push(`${who}: unverified (${u.why})`);
  }
  return out;
}

const OPEN = [
  "inconclusive",
  "error",
  "skipped",
  "spurious_fixed",
  "spurious_regressed",
  "flaky_baseline",
  "flaky_patched",
];

function checksPart(v: View, d: PageDetail): string {
  const rows = v.checks.map((n) => {
    const o = d.outcomes[n.claim_id] ?? "";
    const open = (n.bound && !n.bound.decided) || (n.flake_rate && !n.flake_rate.decided);
    return [
      `<td id="check-${esc(n.claim_id)}" data-verdict="${esc(n.verdict)}">${esc(stepOf(n))}</td>`,
      `${esc(at(n))}${n.current ? "" : ` <span class="meta">(not current)</span>`}`,
      `${verdict(n.verdict)}${open ? ` <span class="open">— unresolved</span>` : ""}`,
      rateCell(n),
      `<td class="n">${n.trials}</td>`,
      `<td class="n">${n.passes}/${n.fails}/${n.errors}</td>`,
      outcomeStrip(o),
    ];
  });
  const head = [
    "check",
    "code tree",
    "verdict",
    "fail rate, 95 % interval (0–1)",
    "trials",
    "pass/fail/error",
    "trials in order",
  ];
  const claims = v.nodes
    .filter((n) => n.claim_kind !== "check")
    .sort(
      (a, b) => cmp(a.claim_kind, b.claim_kind) || cmp(claimWhat(a, v), claimWhat(b, v)) || cmp(a.claim_id, b.claim_id)
    )
    .map((n) => [
      `<td id="claim-${esc(n.claim_id)}">${esc(n.claim_kind)}</td>`,
      esc(claimWhat(n, v)),
      verdict(n.verdict),
      `<td class="n">${esc(belief(n.belief_micros))}</td>`,
    ]);
  const other = claims.length ? `<h3>Other claims</h3>\n${table(["claim", "about", "verdict", "belief"], claims)}` : "";
  return `<h2 id="checks">Checks (${rows.length})</h2>\n${table(head, rows)}${other}`;
}

/** A check's fail rate as text and as its interval on the 0–1 axis. */
function rateCell(n: NodeLine): string {
  const counted = n.passes + n.fails;
  const point = counted > 0 ? Math.round((n.fails / counted) * 1_000_000) : null;
  const f = n.flake_rate;
  const b = n.bound;
  let low = 0;
  let high = 1_000_000;
  let text = "no bound";
  if (f) {
    [low, high] = [f.low_micros, f.high_micros];
    text = `${pct(f.rate_micros)} [${pct(low)}, ${pct(high)}]`;
  } else if (b && b.rate === "fail") {
    [low, high] = [b.low_micros, b.upper_micros];
    text = b.method === "wilson" ? `[${pct(low)}, ${pct(high)}]` : `≤ ${pct(high)}`;
  } else if (b) {
    [low, high] = [1_000_000 - b.upper_micros, 1_000_000 - b.low_micros];
    text = `≥ ${pct(low)}`;
  }
  const label = esc(`fail rate ${text}`);
  return `<span class="mono">${esc(text)}</span> ${rateBar(low, f ? f.rate_micros : point, high, label)}`;
}

function prsPart(v: View): string {
  const parts = v.prs.map((p) => {
    const word = prVerdict(p, v);
    const replaced = p.previous_patch_sha256.length;
    const cats = Object.entries(p.effects).sort(([a], [b]) => cmp(a, b));
    const steps = [...new Set([...p.checks, ...cats.map(([s]) => s)])].sort();
    const rows = steps.map((s) => {
      const patched = bestAt(v, s, p.patch_sha256, null);
      const baseline = bestAt(v, s, null, patched?.tree ?? v.head?.base_tree ?? null);
      const cat = p.effects[s] ?? null;
      const cls = cat === "fixed" ? "FAIL_TO_PASS" : cat === "still_passing" ? "PASS_TO_PASS" : "";
      return [esc(s), side(baseline), side(patched), cat ? verdict(cat) : `<span class="none">no diff</span>`, cls];
    });
    const f2p = cats.filter(([, c]) => c === "fixed").map(([s]) => s);
    const p2p = cats.filter(([, c]) => c === "still_passing").map(([s]) => s);
    const fixes = v.nodes
      .filter((n) => n.claim_kind === "fixes" && n.subject?.patch_sha256 === p.patch_sha256)
      .sort((a, b) => cmp(a.claim_id, b.claim_id))
      .map(
        (n) =>
          `fixes #${esc(v.issueNo(String(n.subject?.issue ?? "")))}: ${verdict(n.verdict)}, ` +
          esc(belief(n.belief_micros))
      );
    return (
      `<h3 id="pr-${p.number}" data-verdict="${esc(word.key)}">` +
      `PR #${p.number}: ${verdict(word.key)} ${esc(word.text)}` +
      ` <span class="meta">${esc(p.state)}, patch <code>${esc(short(p.patch_sha256))}</code>` +
      `${replaced ? `, replaced ${replaced} patch(es)` : ""}</span></h3>\n` +
      (rows.length
        ? table(["check", "baseline", "patched", "typed diff", "class"], rows)
        : `<p class="none">no checks at this patch</p>\n`) +
      `<p>FAIL_TO_PASS: ${esc(f2p.join(", ") || "none")}; PASS_TO_PASS: ${esc(p2p.join(", ") || "none")}<br>` +
      `${fixes.length ? fixes.join("<br>") : "no fixes claim for this patch"}</p>\n`
    );
  });
  const title = `<h2 id="prs">Pull requests: paired experiments (${v.prs.length})</h2>\n`;
  return title + (parts.join("") || "<p>no PRs</p>\n");
}

/** A PR's word: what its experiment says, the way the text report says it. */
function prVerdict(p: PrLine, v: View): { key: string; text: string } {
  const fixes = v.nodes.filter((n) => n.claim_kind === "fixes" && n.subject?.patch_sha256 === p.patch_sha256);
  const cats = Object.entries(p.effects);
  const regressed = cats
    .filter(([, c]) => c === "regressed")
    .map(([s]) => s)
    .sort();
  const open = cats
    .filter(([, c]) => OPEN.includes(c))
    .map(([s, c]) => `${s} ${c}`)
    .sort();
  const issues = (ns: NodeLine[]): string => ns.map((n) => `#${v.issueNo(String(n.subject?.issue ?? ""))}`).join(", ");
  const tail = open.length ? `; unresolved: ${open.join(", ")}` : "";
  const verified = fixes.filter((n) => n.verdict === "verified");
  if (verified.length && !regressed.length)
    return { key: "fixes", text: `${issues(verified)} (nothing regressed${tail})` };
  if (regressed.length) return { key: "regresses", text: `${regressed.join(", ")}${tail}` };
  if (fixes.length) return { key: "unverified", text: `fixes ${issues(fixes)} unverified — unresolved${tail}` };
  if (!cats.length) return { key: "unknown", text: "no paired experiment yet — unresolved" };
  return { key: "no_change", text: `no change${tail}` };
}

/** The check node of a step at a patch (or, with patch null, at a tree): the one with the most trials. */
function bestAt(v: View, step: string, patch: string | null, tree: string | null): NodeLine | undefined {
  return v.checks
    .filter((n) => stepOf(n) === step && (n.patch_sha256 ?? null) === patch && (patch !== null || n.tree === tree))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.trials - a.trials || cmp(a.claim_id, b.claim_id))[0];
}

function side(n: NodeLine | undefined): string {
  if (!n) return `<span class="none">no trials</span>`;
  return `${verdict(n.verdict)} <span class="meta">${n.fails}/${n.passes + n.fails} failed</span> ${rateCell(n)}`;
}

function syndromesPart(v: View, d: PageDetail): string {
  const rows = [...v.syndromes]
    .sort((a, b) => Number(b.active) - Number(a.active) || cmp(a.signature, b.signature))
    .map((s) => {
      const seen = d.seen[s.signature];
      const where = [
        ...new Set(
          s.claim_ids
            .map((id) => v.nodes.find((n) => n.claim_id === id))
            .map((n) => (n ? `${stepOf(n)} at ${at(n)}` : "?"))
        ),
      ];
      return [
        `<td id="syndrome-${esc(s.signature)}"><code>${esc(s.signature)}</code></td>`,
        s.active ? `<b>active</b>${s.failing_claim_ids.length ? " (stable failure)" : " (mixed)"}` : "cleared",
        `<td class="n">${s.trials}</td>`,
        esc(where.sort().join("; ")),
        esc(seen?.first ?? "?"),
        esc(seen?.last ?? "?"),
      ];
    });
  const head = ["signature", "state", "failures", "checks", "first seen", "last seen"];
  const title = `<h2 id="syndromes">Failure signatures (${rows.length})</h2>\n`;
  return title + (rows.length ? table(head, rows) : "<p>none</p>\n");
}

function issuesPart(v: View): string {
  if (!v.issues.length) return "";
  const rows = [...v.issues]
    .sort((a, b) => a.number - b.number)
    .map((i) => {
      const held = v.nodes.some((n) => i.fix_evidence.includes(n.claim_id) && n.verdict === "verified");
      return [
        `<td id="issue-${i.number}">#${i.number}</td>`,
        esc(`${i.state}${i.state_reason ? ` (${i.state_reason})` : ""}`),
        esc(i.closed_by ?? (i.closing_prs.map((p) => `PR #${p.number}`).join(", ") || "-")),
        verdict(held ? "verified" : "unverified"),
      ];
    });
  const title = `<h2 id="issues">Issues closed as fixed (${rows.length})</h2>\n`;
  return title + table(["issue", "state", "closed by", "fix evidence"], rows);
}

function haltWords(h: { reason: string; detail: string }): string {
  return `<b>${esc(h.reason)}</b>${h.detail ? ` (${esc(h.detail)})` : ""}`;
}

function loopPart(loop: LoopPart): string {
  const rows = loop.trace.map((t, i) => [
    `<td class="n">${i + 1}</td>`,
    `<code>${esc(t.target_key)}</code>`,
    esc(t.plan_kind),
    esc(t.outcome_signature ?? "-"),
    esc(t.recorded_at ?? "-"),
  ]);
  const halt = loop.halt ? `<p>halt: ${haltWords(loop.halt)}</p>\n` : `<p class="none">no run recorded</p>\n`;
  const findings = loop.findings.length
    ? `<h3>Findings (the text report's words)</h3>\n` +
      `<ul class="plain">${loop.findings.map((f) => `<li>${esc(f)}</li>`).join("\n")}</ul>\n`
    : "";
  const trace = rows.length
    ? table(["#", "target", "plan", "outcome", "recorded"], rows)
    : "<p>no attempts recorded</p>\n";
  const title = `<h2 id="loop">The loop: each iteration's target, plan and outcome, then the halt</h2>\n`;
  return title + trace + halt + findings;
}

function provenancePart(v: View, input: ReportPageInput): string {
  const h = v.head;
  const trees = [...new Set(v.nodes.map((n) => n.tree).filter((t): t is string => typeof t === "string"))].sort();
  const patches = [
    ...new Set(v.nodes.map((n) => n.patch_sha256).filter((t): t is string => typeof t === "string")),
  ].sort();
  const rows = [
    ["forge version", esc(input.forge_version)],
    ["store version", String(input.detail.store_version)],
    ["observation", esc(`${h?.schema_version ?? "?"}, scope ${h?.scope ?? "?"}`)],
    ["base", esc(`${h?.base_ref ?? "?"} ${h?.base_sha ?? "?"}`)],
    [
      "code trees",
      trees.map((t) => `<code>${esc(t)}</code>${t === h?.base_tree ? " (base)" : ""}`).join("<br>") || "none",
    ],
    ["patches", patches.map((p) => `<code>${esc(p)}</code>`).join("<br>") || "none"],
    ["markers", esc((h?.markers ?? []).join(" ") || "none")],
    [
      `imports (${input.detail.imports.length})`,
      `<details><summary>import ids, in fold order</summary>` +
        `<code>${input.detail.imports.map(esc).join("<br>")}</code></details>`,
    ],
  ];
  return `<h2 id="provenance">Provenance</h2>\n${table(["", ""], rows)}`;
}

function stepOf(n: NodeLine): string {
  return typeof n.subject?.step === "string" ? n.subject.step : n.claim_id;
}

function at(n: NodeLine): string {
  const t = short(n.tree);
  if (!n.patch_sha256) return t;
  return `${t}+${short(n.patch_sha256)}${n.pr ? ` (PR #${n.pr.number})` : ""}`;
}

function claimWhat(n: NodeLine, v: View): string {
  const s = n.subject ?? {};
  if (n.claim_kind === "fixes")
    return `issue #${v.issueNo(String(s.issue ?? ""))} by patch ${short(String(s.patch_sha256 ?? ""))}`;
  if (typeof s.step === "string") return `${s.step} at ${at(n)}`;
  return n.claim_id;
}

function short(s: string | null | undefined): string {
  return typeof s === "string" && s ? s.slice(0, 12) : "-";
}

function pct(micros: number): string {
  return (micros / 1_000_000).toFixed(2);
}

function belief(m: number | null | undefined): string {
  return m == null ? "no belief" : `belief ${pct(m)}`;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
