/**
 * FragileNode: a current check with mixed outcomes whose flake rate is not
 * decided yet (urgent, ≥ 0.80, until it is: then it is resolved as
 * flaky(rate, interval)); current passing checks whose bound is wider than
 * the precision (one target per code tree and patch: the last such step is
 * rerun, the steps before it run as its setup and gain the same trials); or
 * a derived claim below the verification threshold (the smallest support
 * set that flips its verdict).
 */
import type { Modifier, NodeLine } from "@forge/contract";
import { cmp, MICROS, trialsToBound, trialsToDecide } from "@forge/kernel";
import { BASE_MICROS } from "../config.js";
import { type Found, rerunDraft, stepOf, type TargetContext } from "./_context.js";

/**
 * The base urgency of undecided passing checks: below a syndrome, a thin
 * export and an undecided flake rate, above the kinds whose plans add no
 * trial of a check (decide.ts also makes an oracle wait for them).
 */
export const UNDECIDED_PASSING_MICROS = 700_000;

const pct2 = (m: number): string => (m / MICROS).toFixed(2);

/** The target of a fragile node, or null. */
export function fragileNode(n: NodeLine, c: TargetContext): Found | null {
  if (!n.current) return null;
  const id = n.claim_id;
  if (n.claim_kind === "check") {
    if (n.verdict === "passing") return undecidedPassing(n, c);
    const fr = n.flake_rate;
    if (n.verdict !== "flaky" || !fr || fr.decided) return null;
    const need = trialsToDecide(n.fails, n.trials, c.precision) - n.trials;
    const draft = rerunDraft(c, n, need, "flake rate undecided");
    const now = `[${pct2(fr.low_micros)}, ${pct2(fr.high_micros)}]`;
    return {
      key: `fragile:${id}`,
      base_micros: Math.max(BASE_MICROS.FragileNode, MICROS - (n.belief_micros ?? 0)),
      modifiers: setupSteps(n, c),
      refs: [id],
      plan_why: draft
        ? `about ${need} more trials narrow the flake rate's 95 % interval (now ${now}) to at most ` +
          `${pct2(c.precision)} wide`
        : "no commit known for its tree",
      draft,
    };
  }
  if (n.claim_kind === "patch_effect" || n.claim_kind === "fixes") return null;
  if (n.belief_micros === null || n.verdict === "verified" || n.verdict === "contradicted") return null;
  return {
    key: `fragile:${id}`,
    base_micros: MICROS - n.belief_micros,
    refs: [id],
    plan_why: "smallest support set that flips the verdict",
    draft: {
      plan_kind: "OracleMinimalPerturbation",
      params: { target_node_id: id, max_removed_nodes: c.cfg.max_removed_nodes },
      max_runs: 0,
      description: `minimal perturbation of ${id}`,
      why: "below threshold",
    },
  };
}

/**
 * A passing check whose Clopper–Pearson bound is wider than the precision (an older line: too few trials), its
 * trials from one environment (from several: ComparabilityDrift's).
 */
function undecided(n: NodeLine, bound: number): boolean {
  return n.verdict === "passing" && n.env_fingerprints.length <= 1 && !(n.bound?.decided ?? n.trials >= bound);
}

/** The undecided passing checks of each tree and patch, in step order (built once per observation). */
const groups = new WeakMap<TargetContext, Map<string, NodeLine[]>>();

function groupsOf(c: TargetContext, bound: number): Map<string, NodeLine[]> {
  let g = groups.get(c);
  if (g) return g;
  g = new Map();
  for (const x of c.o.nodes) {
    if (!x.current || x.claim_kind !== "check" || x.head_sha === null || x.tree === null || stepOf(x) === null)
      continue;
    if (!undecided(x, bound)) continue;
    const k = `${x.tree} ${x.patch_sha256 ?? "-"}`;
    const xs = g.get(k);
    if (xs) xs.push(x);
    else g.set(k, [x]);
  }
  for (const xs of g.values()) xs.sort((a, b) => cmp(stepOf(a)!, stepOf(b)!) || cmp(a.claim_id, b.claim_id));
  groups.set(c, g);
  return g;
}

/**
 * How many steps run before a check's step as its setup (at the base: the
 * base's steps; at a patch: the steps with evidence there): a rerun of a
 * later step gives each of them a trial too, so among equally urgent
 * reruns the later step goes first (+0.001 a step).
 */
function setupSteps(n: NodeLine, c: TargetContext): Modifier[] {
  const step = stepOf(n);
  if (step === null) return [];
  const steps = n.patch_sha256 === null ? c.baseSteps : (patchStepsOf(c).get(n.patch_sha256) ?? []);
  let before = 0;
  for (const s of steps) if (cmp(s, step) < 0) before++;
  return before > 0 ? [{ delta_micros: 1_000 * before, name: "setup_steps" }] : [];
}

/** The steps of the current checks at each patch, distinct (built once per observation). */
const patchSteps = new WeakMap<TargetContext, Map<string, string[]>>();

function patchStepsOf(c: TargetContext): Map<string, string[]> {
  let m = patchSteps.get(c);
  if (m) return m;
  const sets = new Map<string, Set<string>>();
  for (const x of c.o.nodes) {
    const s = stepOf(x);
    if (x.claim_kind !== "check" || !x.current || x.patch_sha256 === null || s === null) continue;
    const set = sets.get(x.patch_sha256);
    if (set) set.add(s);
    else sets.set(x.patch_sha256, new Set([s]));
  }
  m = new Map([...sets].map(([k, v]) => [k, [...v]]));
  patchSteps.set(c, m);
  return m;
}

/**
 * The target of the undecided passing checks at `n`'s tree and patch, found
 * at the last of them in step order (null at the others): its rerun runs
 * the steps before it as its setup, so one act gives every one of them the
 * trials the widest bound still needs.
 */
function undecidedPassing(n: NodeLine, c: TargetContext): Found | null {
  const bound = trialsToBound(c.precision);
  if (!undecided(n, bound) || stepOf(n) === null || n.head_sha === null || n.tree === null) return null;
  const group = groupsOf(c, bound).get(`${n.tree} ${n.patch_sha256 ?? "-"}`) ?? [];
  if (group.at(-1) !== n) return null;
  const need = Math.max(1, bound - Math.min(...group.map((x) => x.trials)));
  const steps = group.map((x) => stepOf(x)!);
  const at = n.pr ? ` at PR #${n.pr.number}'s patch` : "";
  const draft = rerunDraft(c, n, need, "passing not bounded");
  const which = steps.length === 1 ? steps[0]! : `${steps.length} passing checks (${steps.join(", ")})`;
  return {
    key: `fragile:${n.claim_id}`,
    base_micros: UNDECIDED_PASSING_MICROS,
    modifiers: setupSteps(n, c),
    refs: group.map((x) => x.claim_id).sort(cmp),
    plan_why:
      `${which}${at}: too few trials to bound the fail rate by ${pct2(c.precision)} at 95 % ` +
      `(Clopper–Pearson needs ${bound}); rerun ${stepOf(n)}${steps.length > 1 ? ", the others as its setup" : ""}`,
    draft,
  };
}
