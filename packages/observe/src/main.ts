/**
 * forge-observe's command: an interrogator (reads `.forge/`, writes
 * nothing). JSON lines with `--json` (spec/loop.md §1), else the human
 * summary. The observation itself is @forge/observation's.
 */
import { UsageError } from "@forge/core";
import { defineCommand, type Ctx, type FlagsDef, fractionFlag, type Parsed } from "@forge/cli";
import { isScope } from "@forge/evidence";
import { renderReportPage } from "@forge/html";
import {
  DEFAULT_OBSERVE_CONFIG,
  evidenceDetail,
  humanSummary,
  observationLines,
  observationTextLines,
  observeStore,
  type ObserveStoreOptions,
} from "@forge/observation";

/** The version every executable reports. */
export const VERSION = "0.1.0";

/** forge-observe's flags. */
export const FLAGS: FlagsDef = {
  scope: { type: "string", valueHint: "scope", description: "evidence scope (default: default)" },
  base: { type: "string", alias: "B", valueHint: "branch", description: "base branch (default: HEAD's)" },
  precision: { type: "string", valueHint: "w", description: "flake-rate interval width that decides (default: 0.3)" },
  json: { type: "boolean", description: "JSON lines" },
  html: { type: "boolean", description: "one self-contained HTML page (spec/html.md)" },
};

/** Options of one observation. */
export interface ObserveCliOptions extends ObserveStoreOptions {
  json: boolean;
  html: boolean;
}

/**
 * argv → options.
 * @throws UsageError for a bad scope, base or precision
 */
export function parseObserveOptions(args: Parsed): ObserveCliOptions {
  const scope = (args.scope as string | undefined) ?? "default";
  if (!isScope(scope)) throw new UsageError(`invalid scope '${scope.slice(0, 40)}' (letters, digits, . _ : -)`);
  const base = args.base as string | undefined;
  if (base !== undefined && !/^[A-Za-z0-9._/-]{1,200}$/.test(base)) {
    throw new UsageError(`invalid base '${base.slice(0, 40)}'`);
  }
  const precision = args.precision as string | undefined;
  if (args.json === true && args.html === true) throw new UsageError("--json and --html: choose one");
  return {
    scope,
    base,
    json: args.json === true,
    html: args.html === true,
    config: { precision_micros: fractionFlag("precision", precision, DEFAULT_OBSERVE_CONFIG.precision_micros) },
  };
}

export default defineCommand({
  meta: {
    name: "forge-observe",
    version: VERSION,
    description: "Observe the store: claims, verdicts, syndromes, markers",
    help: {
      reads: [
        [".forge/evidence/imports/", "the scope's fold of imports (re-compiled by the kernel)"],
        [".forge/ci/runs/", "CI run records, exported or not (a missing log is a marker)"],
        [".forge/prs/ issues/ merges/", "patch versions, CI verdicts, how issues were closed, merges"],
      ],
      notes: [
        "An interrogator: writes nothing to the store (only its rebuildable caches in .forge/.cache/). " +
          "The same store gives the same bytes (spec/loop.md §1).",
      ],
      examples: [
        "forge-observe",
        "forge-observe --json | forge-plan --json",
        "forge-observe --json --scope nightly --base main",
        "forge-observe --html > evidence.html",
      ],
    },
  },
  args: FLAGS,
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const opts = parseObserveOptions(args);
    const o = await observeStore(ctx.io.cwd, ctx.io.env, opts);
    if (opts.html) {
      const detail = evidenceDetail(ctx.io.cwd, ctx.io.env, opts.scope);
      const title = `forge-observe: scope ${opts.scope}`;
      await ctx.out.write(renderReportPage({ title, lines: observationLines(o), detail, forge_version: VERSION }));
      return 0;
    }
    if (!opts.json) {
      await ctx.out.write(humanSummary(o));
      return 0;
    }
    // Written in 64 KiB chunks as the lines are made: forge-plan, at the pipe's other end, parses the first lines while
    // the rest are made.
    for (const l of observationTextLines(o)) await ctx.out.write(l);
    return 0;
  },
});
