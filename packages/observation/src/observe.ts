/**
 * observe(): the store's public surfaces → observation lines (spec/loop.md
 * §1). Pure and deterministic: the scope's fold of imports re-compiled,
 * re-scheduled and assessed by the kernel; verdicts, flake rates and
 * syndromes (active or cleared) against the trees that are current now
 * (the base branch's code tree, open PRs' current patches); CI runs, PRs,
 * issues and merge records read as they are. Nothing is invented: a
 * missing or malformed input is a marker, and markers describe the current
 * state. Each line kind is built in its own file (lines/); this composes them.
 */
import type { Observation, ObservationLine } from "@forge/contract";
import { kernelView, viewConfig } from "@forge/evidence";
import { canonicalLine } from "./canonical_line.js";
import { DEFAULT_OBSERVE_CONFIG, type ObserveConfig, type ObserveInputs } from "./inputs.js";
import { degradationLines } from "./lines/degradation.js";
import { headerLine } from "./lines/header.js";
import { issueLines } from "./lines/issue.js";
import { nodeLines } from "./lines/node.js";
import { prLines } from "./lines/pr.js";
import { syndromeLines } from "./lines/syndrome.js";
import { unverifiedLines } from "./lines/unverified.js";

/**
 * Observe.
 * @returns the observation, its lines in order by `observationLines`
 * @example observationLines(observe(inputs)).map(canonicalJson)
 */
export function observe(inputs: ObserveInputs, config: Partial<ObserveConfig> = {}): Observation {
  const cfg: ObserveConfig = {
    ...DEFAULT_OBSERVE_CONFIG,
    ...config,
    kernel: { ...DEFAULT_OBSERVE_CONFIG.kernel, ...config.kernel },
  };
  const made = viewConfig(cfg.precision_micros, cfg.kernel);
  const view = inputs.kernel ?? kernelView(inputs.state.kernel, cfg.precision_micros, cfg.kernel);
  if (view.made_with !== made) throw new Error(`observe: a kernel view made with ${view.made_with}, not ${made}`);
  const prById = new Map(inputs.prs.map((p) => [p.id, p]));
  // Typed-diff categories exported by act results (episodes `typed_diff`), latest first wins per claim.
  const effects = typedDiffs(inputs.state.episodes);
  const { nodes, current, verdictOf } = nodeLines(inputs, view, effects, cfg.precision_micros);
  const syndromes = syndromeLines(view, nodes, current, verdictOf);
  const degradations = degradationLines(inputs, view, prById);
  const prs = prLines(inputs, nodes, effects);
  const issues = issueLines(inputs, nodes, prById, cfg.fixed_labels);
  const unverified = unverifiedLines(issues, nodes, verdictOf);
  const header = headerLine(inputs, view, cfg, { nodes, current, syndromes, issues, degradations, unverified });
  return { header, nodes, syndromes, prs, issues, degradations, unverified };
}

/**
 * The lines in stream order: the header, nodes, syndromes, PRs, issues,
 * degradation markers, unverified claims.
 */
export function observationLines(o: Observation): ObservationLine[] {
  return [o.header, ...o.nodes, ...o.syndromes, ...o.prs, ...o.issues, ...o.degradations, ...o.unverified];
}

/** The observation as JSON-lines text (canonical JSON: the same store gives the same bytes). */
export function observationText(o: Observation): string {
  return [...observationTextLines(o)].join("");
}

/** observationText's lines one at a time, each with its newline: a writer sends the first before the rest are made. */
export function* observationTextLines(o: Observation): Generator<string> {
  for (const l of observationLines(o)) yield canonicalLine(l) + "\n";
}

/** `typed_diff` episodes: the latest category per patched check claim. */
function typedDiffs(episodes: ObserveInputs["state"]["episodes"]): Map<string, string> {
  const out = new Map<string, { at: string; id: string; category: string }>();
  for (const e of episodes) {
    if (e.kind !== "typed_diff" || e.claim_id === null) continue;
    const prev = out.get(e.claim_id);
    if (!prev || e.recorded_at > prev.at || (e.recorded_at === prev.at && e.episode_id > prev.id)) {
      out.set(e.claim_id, { at: e.recorded_at, id: e.episode_id, category: e.outcome });
    }
  }
  return new Map([...out].map(([k, v]) => [k, v.category]));
}
