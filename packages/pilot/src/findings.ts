/**
 * forge-pilot's findings: what the loop now knows of every check, PR and
 * issue the graph holds a verdict on in the scope (or, brief, of those whose
 * verdict this run changed: the observation before the run against the one
 * after) and of its targets, in the verdict words with their bounds, from
 * the observation after the last export (the act results give only what
 * was tried and its run counts): a pure function, so the report's words are
 * tested without running a loop (test/pilot_findings_test.ts).
 */
import type {
  ActResult,
  DiffEntry,
  IssueLine,
  NodeLine,
  ObservationHead,
  ObservationLine,
  PairedResult,
  PrLine,
  Target,
  VerdictBoundLine,
} from "./_lines.js";
import { verdictBound } from "@forge/kernel";
import { keyWithLabel } from "./labels.js";
import { checkName, subjectCheck } from "@forge/contract";

function pct(micros: number): string {
  return (micros / 1_000_000).toFixed(2);
}

/** A bound said in two decimals without narrowing it: an upper bound rounded up, a lower one down. */
function up(micros: number): string {
  return (Math.ceil(micros / 10_000) / 100).toFixed(2);
}

function down(micros: number): string {
  return (Math.floor(micros / 10_000) / 100).toFixed(2);
}

/**
 * Typed-diff categories that say nothing of the patch: a check in one is
 * unresolved, never "no effect" nor "nothing regressed".
 */
const UNRESOLVED = [
  "inconclusive",
  "error",
  "skipped",
  "spurious_fixed",
  "spurious_regressed",
  "flaky_baseline",
  "flaky_patched",
];

/** A node's bound: the one forge-observe wrote, or (an older line without one) the kernel's from its counts. */
function boundOf(n: NodeLine, precision: number): VerdictBoundLine {
  return n.bound ?? verdictBound(n.verdict, { n: n.trials ?? 0, f: n.fails ?? 0 }, precision);
}

const METHOD = { "clopper-pearson": "Clopper–Pearson", wilson: "Wilson" } as const;

/**
 * A check's line in the verdict words, with how it is known (its trials) and
 * its bound (spec/loop.md §6): a bound wider than the precision is
 * "— unresolved", never a bare verdict word.
 */
function checkLine(label: string, n: NodeLine, precision: number): string {
  const f = n.flake_rate;
  const b = boundOf(n, precision);
  const open = b.decided ? "" : " — unresolved";
  if (n.verdict === "flaky" && f) {
    const undecided = f.decided ? "" : " (rate undecided — unresolved)";
    const rate = `${pct(f.rate_micros)} [${down(f.low_micros)}, ${up(f.high_micros)}]`;
    return `${label}: flaky, fail rate ${rate}, ${n.trials} trials${undecided}`;
  }
  const bound = `${b.rate} rate ≤ ${up(b.upper_micros)} at 95 %, ${METHOD[b.method] ?? b.method}`;
  if (n.verdict === "passing") return `${label}: passing, ${n.trials} trials (${bound})${open}`;
  if (n.verdict === "failing") {
    const k = (n.signatures ?? []).length;
    return `${label}: failing, ${n.trials} trials, ${k === 1 ? "one signature" : `${k} signatures`} (${bound})${open}`;
  }
  return `${label}: ${n.verdict ?? "unknown"}, ${n.trials} trials — unresolved`;
}

/** The node with the most trials (the list is sorted in place). */
function most(xs: NodeLine[]): NodeLine | undefined {
  return xs.sort((a, b) => b.trials - a.trials)[0];
}

const isNode = (o: ObservationLine): o is NodeLine => o.kind === "node";

/** A check at the base: no patch, at the base tree (or of no known tree). */
function isBaseCheck(n: NodeLine, head: Partial<ObservationHead>): boolean {
  return (
    n.claim_kind === "check" &&
    (n.subject?.patch_sha256 ?? null) === null &&
    (head.base_tree == null || n.tree == null || n.tree === head.base_tree)
  );
}
const isPr = (o: ObservationLine): o is PrLine => o.kind === "pr";
const isIssue = (o: ObservationLine): o is IssueLine => o.kind === "issue";

/** The checks' lines: at the base, then at each PR's patch a step was rerun at. */
function checkFindings(
  obs: readonly ObservationLine[],
  results: readonly ActResult[],
  lastTargets: readonly Target[]
): string[] {
  const out: string[] = [];
  const head = (obs.find((o) => o.kind === "observation") ?? {}) as Partial<ObservationHead>;
  const nodes = obs.filter(isNode);
  const precision = head.config?.precision_micros ?? 300_000;
  const steps = new Set<string | undefined>();
  for (const r of results) {
    if (r.plan_kind === "CheckRerun" && r.stats) steps.add(checkName(r.stats.step, r.stats.test));
  }
  for (const t of lastTargets) {
    for (const ref of t.refs ?? []) {
      const n = nodes.find((x) => x.claim_id === ref && x.claim_kind === "check");
      if (n) steps.add(subjectCheck(n.subject) ?? undefined);
    }
  }
  const atBase = (n: NodeLine): boolean => isBaseCheck(n, head);
  // The whole report: every check the graph holds a verdict on at the base.
  for (const n of nodes) if (n.current && atBase(n)) steps.add(subjectCheck(n.subject) ?? undefined);
  for (const step of [...steps].filter((s): s is string => Boolean(s)).sort()) {
    const n = most(nodes.filter((x) => atBase(x) && subjectCheck(x.subject) === step));
    if (n) out.push(checkLine(step, n, precision));
  }
  // A step rerun at a PR's patch: what the loop knows of it there (the base's line is not about that code).
  const patched = new Map<string, { step?: string; patch_sha256: string }>();
  for (const r of results) {
    const s = r.stats;
    if (r.plan_kind !== "CheckRerun" || !s?.patch_sha256) continue;
    const step = checkName(s.step, s.test);
    patched.set(`${step} ${s.patch_sha256}`, { step, patch_sha256: s.patch_sha256 });
  }
  // And at each open PR's current patch.
  for (const n of nodes) {
    const patch = n.patch_sha256;
    if (!n.current || n.claim_kind !== "check" || !patch || !n.pr) continue;
    const step = subjectCheck(n.subject) ?? undefined;
    patched.set(`${step} ${patch}`, { step, patch_sha256: patch });
  }
  for (const [, s] of [...patched].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const there = (x: NodeLine): boolean =>
      x.claim_kind === "check" && subjectCheck(x.subject) === s.step && x.subject?.patch_sha256 === s.patch_sha256;
    const n = most(nodes.filter(there));
    const where = n?.pr ? `PR #${n.pr.number}` : `patch ${s.patch_sha256.slice(0, 12)}`;
    if (n) out.push(checkLine(`${s.step} at ${where}'s patch`, n, precision));
  }
  return out;
}

/** A belief in micros as the report says it. */
const belief = (m: number | null | undefined): string => (m == null ? "no belief" : `belief ${pct(m)}`);

/**
 * What the graph says of each PR a paired experiment ran in this run, from
 * the observation after the last export (spec/loop.md §6): each check's
 * typed-diff category beside its patch effect's belief, and `fixes #I` only
 * when the `fixes` claim for the PR's patch is `verified`; an unverified one
 * is said with its belief and "— unresolved". The act result gives only the
 * run counts (and the typed diff when the observation has none).
 */
function prFindings(
  obs: readonly ObservationLine[],
  results: readonly ActResult[],
  issueNo: (id: string) => string | number
): string[] {
  const out: string[] = [];
  const prs = obs.filter(isPr);
  const nodes = obs.filter(isNode);
  const head = (obs.find((o) => o.kind === "observation") ?? {}) as Partial<ObservationHead>;
  const precision = head.config?.precision_micros ?? 300_000;
  const byPr = new Map<string, PairedResult & { typed_diff: DiffEntry[] }>();
  for (const r of results) {
    if (r.plan_kind === "PairedPatch" && r.typed_diff) byPr.set(r.version_id ?? "", { ...r, typed_diff: r.typed_diff });
  }
  const seen = new Set<string>();
  const acted = [...byPr.values()].reverse();
  // The whole report: every PR the graph holds a typed diff or a fixes claim for, not only those tried this run.
  const tried = new Set(acted.map((r) => String(r.candidate_id ?? "").replace(/^pr:/, "")));
  for (const p of prs) {
    const known =
      Object.keys(p.effects ?? {}).length > 0 ||
      nodes.some((n) => n.claim_kind === "fixes" && n.subject?.patch_sha256 === p.patch_sha256);
    if (known && !tried.has(p.id))
      acted.push({ candidate_id: `pr:${p.id}`, typed_diff: [] } as unknown as (typeof acted)[0]);
  }
  for (const r of acted) {
    const prId = String(r.candidate_id ?? "").replace(/^pr:/, "");
    if (seen.has(prId)) continue;
    seen.add(prId);
    const pr = prs.find((p) => p.id === prId);
    const no = pr ? `PR #${pr.number}` : `PR ${prId.slice(0, 8)}`;
    const patch = pr?.patch_sha256 ?? r.typed_diff.find((d) => d.patch_sha256)?.patch_sha256 ?? null;
    const effects = Object.entries(pr?.effects ?? {});
    const cats: DiffEntry[] = effects.length
      ? effects.map(([check, category]) => ({ check, category }) as DiffEntry)
      : r.typed_diff;
    const effectBelief = new Map<string, number | null>();
    for (const n of nodes) {
      if (n.claim_kind === "patch_effect" && patch !== null && n.patch_sha256 === patch) {
        effectBelief.set(String(subjectCheck(n.subject)), n.belief_micros);
      }
    }
    const fixesNodes = nodes.filter(
      (n) => n.claim_kind === "fixes" && patch !== null && n.subject?.patch_sha256 === patch
    );
    // The runs of this run's experiment; a PR not tried in this run is said from the graph alone.
    const runs = r.sides ? `${r.sides.baseline?.reps ?? "?"}+${r.sides.patched?.reps ?? "?"} runs` : "earlier runs";
    const withBelief = (d: DiffEntry): string =>
      effectBelief.has(d.check)
        ? `${d.check} ${d.category}, ${belief(effectBelief.get(d.check))}`
        : `${d.check} ${d.category}`;
    const regressed = cats.filter((d) => d.category === "regressed");
    const fixed = cats.filter((d) => d.category === "fixed");
    const said = (ds: DiffEntry[]): string => ds.map((d) => `${d.check} ${d.category}`).join(", ");
    const verified = fixesNodes.filter((n) => n.verdict === "verified");
    const issueOf = (n: NodeLine): string => `#${issueNo(String(n.subject?.issue ?? ""))}`;
    if (verified.length > 0) {
      // Flakes of a check already flaky at the base were not counted against the rule: said, not hidden.
      const flakyAtBase = (r.fixes ?? []).flatMap((f) => f.flaky_at_base ?? []);
      const flakes = cats.filter(
        (d) => flakyAtBase.includes(d.check) && d.category !== "still_passing" && d.category !== "flaky_baseline"
      );
      const open = cats.filter((d) => UNRESOLVED.includes(d.category) && !flakes.includes(d));
      const note =
        (flakes.length ? `; ${said(flakes)}: flaky at the base, not counted` : "") +
        (open.length ? `; unresolved: ${said(open)}` : "");
      const closes = verified.map(issueOf).join(", ");
      const how = `${fixed.map(withBelief).join(", ")}, fixes ${belief(verified[0]!.belief_micros)}`;
      out.push(`${no}: fixes ${closes} (${how}, nothing regressed, ${runs}${note})`);
    } else if (regressed.length > 0) {
      out.push(regressionLine(no, regressed, nodes, head, patch, precision, runs));
    } else if (fixesNodes.length > 0) {
      // A fixes claim the graph holds but does not verify: its belief said, unresolved.
      const claims = fixesNodes.map((n) => `fixes ${issueOf(n)} ${n.verdict} (${belief(n.belief_micros)})`).join(", ");
      const how = fixed.length ? `${fixed.map(withBelief).join(", ")}; ` : "";
      out.push(`${no}: ${how}${claims}, ${runs} — unresolved`);
    } else if (fixed.length > 0 && (r.fixes ?? []).length > 0) {
      // It closes issues, but SWE-bench's rule did not hold (a check broke, flaked or went undecided): no fix claimed.
      const fixes = r.fixes ?? [];
      const broke = cats.filter((d) => (fixes[0]!.broken ?? []).includes(d.check)).map((d) => said([d]));
      const closes = fixes.map((f) => `#${issueNo(f.issue)}`).join(", ");
      const how = fixed.map(withBelief).join("; ");
      out.push(`${no}: ${how}; fixes ${closes} unresolved (${[...broke, runs].join(", ")})`);
    } else if (fixed.length > 0) {
      out.push(`${no}: ${fixed.map(withBelief).join("; ")}; closes no issue (${runs})`);
    } else {
      // A check flaky on either side says nothing about the patch: unresolved, never "no effect".
      const unresolved = cats.filter((d) => UNRESOLVED.includes(d.category));
      const same = cats
        .filter((d) => d.category === "still_passing" || d.category === "still_failing")
        .map((d) => d.check);
      const open = said(unresolved);
      if (unresolved.length === 0) out.push(`${no}: no effect (${said(cats)}, ${runs})`);
      else if (same.length > 0) out.push(`${no}: no change in ${same.join(", ")}; unresolved: ${open} (${runs})`);
      else out.push(`${no}: unresolved (${open}, ${runs})`);
    }
  }
  return out;
}

/**
 * A PR's regression, from the graph: `regresses <step>` only when the step
 * is `passing` at the base and `failing` at the PR's patch, both bounds
 * decided (the one rule, spec/loop.md §6), with its belief (the base's
 * belief that it passes times the patch's that it fails); else said with
 * its belief, what is not bounded, and "— unresolved".
 */
function regressionLine(
  no: string,
  regressed: readonly DiffEntry[],
  nodes: readonly NodeLine[],
  head: Partial<ObservationHead>,
  patch: string | null,
  precision: number,
  runs: string
): string {
  const held: string[] = [];
  const open: string[] = [];
  for (const d of regressed) {
    const base = most(nodes.filter((x) => isBaseCheck(x, head) && subjectCheck(x.subject) === d.check));
    const at = most(
      nodes.filter(
        (x) =>
          x.claim_kind === "check" &&
          patch !== null &&
          subjectCheck(x.subject) === d.check &&
          (x.patch_sha256 ?? x.subject?.patch_sha256) === patch
      )
    );
    const b = base?.belief_micros;
    const p = at?.belief_micros;
    const bel = belief(b != null && p != null ? Math.round((b * (1_000_000 - p)) / 1_000_000) : null);
    const side = (where: string, n: NodeLine | undefined, want: string): string | null => {
      if (!n) return `no trials ${where}`;
      const decided = boundOf(n, precision).decided;
      if (n.verdict === want && decided) return null;
      return `${where}: ${n.verdict ?? "unknown"}, ${n.trials} trials${n.verdict === want ? ", not bounded" : ""}`;
    };
    const why = [side("at the base", base, "passing"), side("at its patch", at, "failing")].filter(Boolean);
    if (why.length === 0) held.push(`${d.check} (${bel}: passing at the base, failing at its patch, both bounded)`);
    else open.push(`${d.check} regressed, ${bel} (${why.join("; ")})`);
  }
  if (held.length === 0) return `${no}: ${open.join(", ")}, ${runs} — unresolved`;
  return `${no}: regresses ${held.join(", ")} (${runs}${open.length ? `; unresolved: ${open.join(", ")}` : ""})`;
}

/** What changes a finding's verdict: its words without the counts, numbers and run counts (`--brief`). */
function verdictWords(line: string): string {
  return line
    .slice(line.indexOf(": ") + 2)
    .replace(/[0-9]+\+[0-9]+ runs|earlier runs/g, "runs")
    .replace(/[0-9]+(\.[0-9]+)?/g, "#");
}

/** A finding's subject: what it is said of (`10-unit`, `10-unit at PR #1's patch`, `PR #1`, `issue #2`). */
function subjectOf(line: string): string {
  return line.slice(0, line.indexOf(": "));
}

/** The halts that stop the loop with targets it could still act on. */
const BUDGET_HALTS = ["time_budget_exhausted", "max_iterations_reached", "external_halt"];

/** How the findings are said beyond the observation and the results. */
export interface FindingsOptions {
  /** The observation before the run: `brief` says only the findings whose verdict differs from it (none: all). */
  before?: readonly ObservationLine[] | null;
  /** The run's halt: on a budget's (time, iterations, external), the targets left open are listed. */
  halt?: string | null;
  /** The halt threshold in micros (the targets left open reach it; default 250 000). */
  thresholdMicros?: number;
}

/**
 * What the loop now knows of each check, PR, issue and target it
 * investigated, in the verdict words.
 * @param obs the last observation's lines
 * @param results the run's act results, in order
 * @param lastTargets the last plan's targets
 * @param issueNumbers issue numbers by id, for issues the observation does not show
 * @param firstTargets the first plan's targets
 * @param brief only the claims whose verdict this run changed (`opts.before` against `obs`), and the targets;
 *   else every claim the loop holds a verdict on in the scope (checks at the base, checks at each open PR's
 *   patch, PRs, issues)
 */
export function findings(
  obs: readonly ObservationLine[],
  results: readonly ActResult[],
  lastTargets: readonly Target[],
  issueNumbers: ReadonlyMap<string, number> = new Map(),
  firstTargets: readonly Target[] = [],
  brief = false,
  opts: FindingsOptions = {}
): string[] {
  const now = claimFindings(obs, results, lastTargets, issueNumbers);
  let shown = now;
  if (brief) {
    const was = new Map(
      claimFindings(opts.before ?? [], [], [], issueNumbers).map((l) => [subjectOf(l), verdictWords(l)])
    );
    shown = now.filter((l) => was.get(subjectOf(l)) !== verdictWords(l));
  }
  return [...shown, ...targetFindings(obs, results, lastTargets, firstTargets, opts)];
}

/** Every claim's finding: checks, PRs, issues. */
function claimFindings(
  obs: readonly ObservationLine[],
  results: readonly ActResult[],
  lastTargets: readonly Target[],
  issueNumbers: ReadonlyMap<string, number>
): string[] {
  const issues = obs.filter(isIssue);
  const nodes = obs.filter(isNode);
  const issueNo = (id: string): string | number =>
    issues.find((i) => i.id === id)?.number ?? issueNumbers.get(id) ?? id.slice(0, 8);
  const out = [...checkFindings(obs, results, lastTargets), ...prFindings(obs, results, issueNo)];
  for (const i of issues) {
    if (i.state !== "closed" && i.state !== "CLOSED") continue;
    const ev = i.fix_evidence ?? [];
    const how = i.state_reason === "COMPLETED" ? "closed as completed" : "closed";
    const held = nodes.filter((n) => ev.includes(n.claim_id) && n.verdict === "verified");
    if (held.length > 0) {
      out.push(`issue #${i.number}: ${how}, verified (${held.length} fixes claim${held.length > 1 ? "s" : ""})`);
    } else if (ev.length > 0) {
      const best = Math.max(...nodes.filter((n) => ev.includes(n.claim_id)).map((n) => n.belief_micros ?? 0), 0);
      out.push(`issue #${i.number}: ${how}, unverified: fixes claim below the threshold (${belief(best)})`);
    } else {
      const why = i.closed_by ? `closed by ${i.closed_by}, no fixes claim` : "no patch";
      out.push(`issue #${i.number}: ${how}, unverified: ${why}`);
    }
  }
  return out;
}

/** The targets' findings: cleared without an act, exhausted, and (a budget's halt) left open. */
function targetFindings(
  obs: readonly ObservationLine[],
  results: readonly ActResult[],
  lastTargets: readonly Target[],
  firstTargets: readonly Target[],
  opts: FindingsOptions
): string[] {
  const out: string[] = [];
  // A degraded export the loop saw at first and no longer sees, though no act was aimed at it: said, not dropped.
  const acted = new Set(results.map((r) => r.target_key));
  const still = new Set(lastTargets.map((t) => t.key));
  for (const t of firstTargets) {
    if (t.target_kind !== "ThinExport" || acted.has(t.key) || still.has(t.key)) continue;
    const why = t.key.startsWith("thin_export:missing_log:")
      ? "a later run re-recorded the step at the same code tree; the lost log stays lost"
      : "no longer a target at the end";
    out.push(`target ${keyWithLabel(t, obs)}: cleared without an act (${why})`);
  }
  for (const t of lastTargets) {
    if (!t.exhausted) continue;
    const why = t.exhausted_why ? ` (${t.exhausted_why})` : "";
    const tries = `${t.attempts} attempt${t.attempts === 1 ? "" : "s"}`;
    out.push(`target ${keyWithLabel(t, obs)}: exhausted${why} after ${tries} — unresolved`);
  }
  // A budget's halt leaves targets the loop would still act on: listed, never dropped.
  if (opts.halt && BUDGET_HALTS.includes(opts.halt)) {
    const threshold = opts.thresholdMicros ?? 250_000;
    for (const t of lastTargets) {
      if (t.exhausted || t.plan_kind === null || t.urgency_micros < threshold) continue;
      out.push(`target ${keyWithLabel(t, obs)}: left open (${opts.halt}), ${t.plan_kind} next — unresolved`);
    }
  }
  return out;
}
