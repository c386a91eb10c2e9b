/**
 * forge-plan's command: an interrogator. Reads an observation (stdin
 * whenever it is not a terminal; the store observed here when stdin is a
 * terminal or holds nothing but blank lines) and the loop-local history;
 * prints the ranked `target` lines and one `plan` or `halt` line
 * (spec/loop.md §2), or `explain <key>`.
 */
import { join, resolve } from "node:path";
import { findStore, isTimestamp, UsageError } from "@forge/core";
import { defineCommand, type Ctx, type FlagsDef, fractionFlag, type Parsed } from "@forge/cli";
import { type Observation, ObservationReader } from "@forge/contract";
import { sha256Hex } from "@forge/evidence";
import { canonicalJson } from "@forge/kernel";
import { canonicalLine, observeStore } from "@forge/observation";
import { DEFAULT_PLAN_CONFIG, type PlanConfig } from "./config.js";
import { type Planned, plan, targetLine } from "./decide.js";
import { explainRecord, explainText } from "./explain.js";
import { type HistoryEntry, readHistory } from "./history.js";

/** The version every executable reports. */
export const VERSION = "0.1.0";

/** forge-plan's flags. */
export const FLAGS: FlagsDef = {
  action: { type: "positional", valueHint: "explain", description: "explain one target" },
  key: { type: "positional", valueHint: "key", description: "the target key to explain" },
  json: { type: "boolean", description: "JSON lines" },
  history: {
    type: "string",
    valueHint: "file",
    description: "the attempts file (default: .forge/pilot/history.jsonl)",
  },
  now: {
    type: "string",
    valueHint: "time",
    description: "the time ScopeStale is judged at, RFC 3339 (default: the clock)",
  },
  threshold: { type: "string", valueHint: "u", description: "halt below this urgency (default: 0.25)" },
  "max-retries": {
    type: "string",
    valueHint: "n",
    description: "attempts before a target is exhausted (default: 3, as forge-pilot)",
  },
  "allow-advisory-only": { type: "boolean", description: "an advisory plan when nothing executable is left" },
  scope: {
    type: "string",
    valueHint: "scope",
    description: "the scope to observe when stdin has no observation (default: default)",
  },
};

/** Options of one run. */
export interface PlanCliOptions {
  explain: string | null;
  json: boolean;
  history: string | null;
  /** epoch seconds */
  now: number;
  scope: string;
  config: PlanConfig;
}

/**
 * argv → options.
 * @throws UsageError naming the flag
 */
export function parsePlanOptions(args: Parsed, clock: () => number = () => Date.now() / 1000): PlanCliOptions {
  const action = args.action as string | undefined;
  if (action !== undefined && action !== "explain" && action !== "-")
    throw new UsageError(`unknown command '${action.slice(0, 40)}' (explain <key>)`);
  const key = args.key as string | undefined;
  if (action === "explain" && !key) throw new UsageError("explain needs a target key");
  if (action !== "explain" && key !== undefined)
    throw new UsageError(`unexpected argument '${String(key).slice(0, 40)}'`);
  const now = args.now as string | undefined;
  if (now !== undefined && !isTimestamp(now))
    throw new UsageError(`invalid now '${String(now).slice(0, 40)}' (RFC 3339 UTC, e.g. 2026-01-02T03:04:05Z)`);
  const retries = (args["max-retries"] as string | undefined) ?? String(DEFAULT_PLAN_CONFIG.max_retries_per_target);
  if (!/^[1-9][0-9]{0,3}$/.test(retries))
    throw new UsageError(`invalid max-retries '${retries.slice(0, 20)}' (a positive integer)`);
  return {
    explain: action === "explain" ? key! : null,
    json: args.json === true,
    history: (args.history as string | undefined) ?? null,
    now: now !== undefined ? Date.parse(now) / 1000 : clock(),
    scope: (args.scope as string | undefined) ?? "default",
    config: {
      ...DEFAULT_PLAN_CONFIG,
      halt_threshold_micros: fractionFlag(
        "threshold",
        args.threshold as string | undefined,
        DEFAULT_PLAN_CONFIG.halt_threshold_micros
      ),
      max_retries_per_target: Number(retries),
      allow_advisory_only: args["allow-advisory-only"] === true,
    },
  };
}

/** The observation: stdin's lines, or (a terminal, or nothing but blank lines on stdin) the store observed here. */
async function observation(ctx: Ctx, opts: PlanCliOptions): Promise<Observation> {
  const stdin = ctx.io.stdin as NodeJS.ReadableStream & { isTTY?: boolean };
  if (!stdin.isTTY) {
    // While forge-observe is still at work, load what a plan line's id needs (node:crypto is loaded on first use):
    // the wait is there anyway, the plan's own time after the last line is not.
    sha256Hex("");
    // Parsed as it comes: forge-observe's lines while it is still writing the rest.
    const r = new ObservationReader();
    for await (const c of stdin as AsyncIterable<Buffer | string>) r.add(typeof c === "string" ? Buffer.from(c) : c);
    const o = r.end();
    if (o) return o;
  }
  return observeStore(ctx.io.cwd, ctx.io.env, { scope: opts.scope, config: {} });
}

/** The history: `--history`, else `.forge/pilot/history.jsonl` of the store here (none: empty). */
function history(ctx: Ctx, opts: PlanCliOptions): HistoryEntry[] {
  if (opts.history !== null) return readHistory(resolve(ctx.io.cwd, opts.history), opts.history);
  let dir: string;
  try {
    dir = findStore({ cwd: ctx.io.cwd, env: ctx.io.env });
  } catch {
    return [];
  }
  return readHistory(join(dir, "pilot", "history.jsonl"), ".forge/pilot/history.jsonl");
}

const pct = (m: number): string => `${(m / 10_000).toFixed(1)}%`;

/** The human rendering: one line per target, then the plan or the halt. */
export function planText(p: Planned): string {
  const out = p.targets.map(
    (t, i) =>
      `${String(i + 1).padStart(3)}  ${pct(t.urgency_micros).padStart(6)}  ${t.target_kind.padEnd(24)} ` +
      `${t.plan_kind ?? "-"}${t.exhausted ? ` (exhausted: ${t.exhausted_why})` : ""}  ${t.key}`
  );
  const d = p.decision;
  out.push(
    d.kind === "plan"
      ? `plan ${d.plan_id}: ${d.plan_kind} for ${d.target_key} — ${d.description}`
      : `halt: ${d.reason} (${d.detail})`
  );
  return out.join("\n") + "\n";
}

/** Plan and print. */
export async function planRun(ctx: Ctx, opts: PlanCliOptions): Promise<number> {
  const hist = history(ctx, opts);
  const p = plan(await observation(ctx, opts), hist, opts.config, opts.now);
  if (opts.explain !== null) {
    const r = explainRecord(p, opts.explain, opts.config);
    await ctx.out.write(opts.json ? canonicalJson(r) + "\n" : explainText(r));
    return 0;
  }
  if (opts.json) {
    // One write of every line (the same bytes as one write per line, without an await per target).
    await ctx.out.write(
      p.targets.map((t, i) => canonicalLine(targetLine(t, i + 1)) + "\n").join("") + canonicalLine(p.decision) + "\n"
    );
  } else await ctx.out.write(planText(p));
  return 0;
}

export default defineCommand({
  meta: {
    name: "forge-plan",
    version: VERSION,
    description: "Rank what most needs verifying; print one plan or a halt",
    help: {
      reads: [
        ["stdin", "an observation (forge-observe --json); none: observes the store itself"],
        [".forge/pilot/history.jsonl", "the loop-local attempts per target (retry decay, exhaustion)"],
      ],
      notes: [
        "An interrogator: writes nothing to the store (only its rebuildable caches in .forge/.cache/). Scoring and " +
          "its corrections to the seed: spec/evidence.md §8.",
      ],
      examples: [
        "forge-observe --json | forge-plan --json",
        "forge-plan explain syndrome:sig-v1:7d6d96f63a6e0cce",
        "forge-observe --json | forge-plan --threshold 0.5 --max-retries 3",
      ],
    },
  },
  args: FLAGS,
  run: ({ args, data: ctx }: { args: Parsed; data: Ctx }) => planRun(ctx, parsePlanOptions(args)),
});
