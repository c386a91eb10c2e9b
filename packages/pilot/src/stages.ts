/**
 * The stages as the loop runs them, each a tool started with an argv
 * array: `forge-observe --json | forge-plan --json` as a pipe, `forge-act`
 * with a deadline, the CI runs an act made and its result through the lane.
 */
import type { ActResult, CiRun, Decision, ObservationLine, Plan, Target } from "./_lines.js";
import type { LoopConfig } from "./flags.js";
import { historyArg } from "./history.js";
import { exportText, type Exported, type Lane } from "./lane.js";
import { failure, parseLines, type Tools } from "./tools.js";

/** What one observe | plan gave: the observation's lines (the report reads them), the ranked targets, the decision. */
export interface Picked {
  obs: ObservationLine[];
  targets: Target[];
  decision: Decision;
}

/** What forge-act gave: its result line, if any, its exit code and stderr. */
export interface Acted {
  result: ActResult | null;
  code: number;
  stderr: string;
}

/** `forge-observe --json --scope S`: the observation's lines. */
export function observe(tools: Tools, c: LoopConfig): Promise<ObservationLine[]> {
  return tools.lines<ObservationLine>("forge-observe", ["--json", "--scope", c.scope]);
}

function planArgs(c: LoopConfig): string[] {
  const a = [
    "--json",
    "--history",
    historyArg(c.workspace, c.history),
    "--threshold",
    String(c.haltThreshold),
    "--max-retries",
    String(c.maxRetries),
  ];
  if (c.allowAdvisoryOnly) a.push("--allow-advisory-only");
  return a;
}

/**
 * `forge-observe --json | forge-plan --json`, as a pipe: forge-plan starts
 * while the store is observed, and reads the observation as it is written.
 * The observation's lines are kept too (the report reads them).
 */
export async function observeAndPlan(tools: Tools, c: LoopConfig): Promise<Picked> {
  const o = tools.start("forge-observe", ["--json", "--scope", c.scope]);
  const p = tools.start("forge-plan", planArgs(c));
  o.child.stdin.end();
  o.child.stdout.on("data", (d: Buffer) => p.child.stdin.write(d));
  o.child.stdout.on("end", () => p.child.stdin.end());
  const [ro, rp] = await Promise.all([o.done, p.done]);
  if (ro.code !== 0) throw failure("forge-observe", ro);
  if (rp.code !== 0) throw failure("forge-plan", rp);
  const recs = parseLines<Target | Decision>(rp.stdout);
  const decision = recs.find((x): x is Decision => x.kind === "plan" || x.kind === "halt") ?? {
    kind: "halt",
    reason: "nothing_worth_investigating",
    detail: "forge-plan printed no plan",
  };
  const targets = recs.filter((x): x is Target => x.kind === "target");
  return { obs: parseLines<ObservationLine>(ro.stdout), targets, decision };
}

/** `forge-act --json --deadline-ms N [--hosts FILE]` on one plan line, the deadline also in its budget. */
export async function act(tools: Tools, c: LoopConfig, p: Plan, deadlineMs: number): Promise<Acted> {
  const args = ["--json", "--deadline-ms", String(deadlineMs)];
  if (c.allowAdvisoryOnly) args.push("--allow-advisory-only");
  if (c.hosts !== null) args.push("--hosts", c.hosts);
  const line = JSON.stringify({ ...p, budget: { ...(p.budget ?? {}), deadline_ms: deadlineMs } }) + "\n";
  const r = await tools.run("forge-act", args, line);
  const recs = parseLines<{ kind?: string }>(r.stdout);
  const result = (recs.find((x) => x.kind === "act_result") ?? null) as ActResult | null;
  return { result, code: r.code, stderr: r.stderr };
}

/**
 * The completed CI runs created at or after `since` (an ISO second), newest
 * first: forge-ci lists newest first, so the window grows until it reaches
 * an older run. Every run an act made is one of them, whether its result
 * names it or not (an act that failed, a batch cut short by a broken tree).
 */
async function runsSince(tools: Tools, since: string): Promise<CiRun[]> {
  for (let k = 64; ; k *= 4) {
    const recs = await tools.lines<CiRun>("forge-ci", ["list", "--limit", String(k), "--json"]);
    const last = recs[recs.length - 1];
    if (recs.length < k || !last || String(last.createdAt) < since) {
      return recs.filter((x) => String(x.createdAt) >= since && x.status === "completed");
    }
  }
}

/**
 * Export the CI runs an act made (every completed run since it started, to the second, but those this pilot run
 * sent already: `sent`, which this adds them to), then its result.
 */
export async function exportAct(
  tools: Tools,
  c: LoopConfig,
  result: ActResult | null,
  startedMs: number,
  lane: Lane | null,
  sent: Set<string> = new Set()
): Promise<Exported> {
  const since = new Date(startedMs).toISOString().slice(0, 19) + "Z";
  const runs = (await runsSince(tools, since)).filter((x) => !sent.has(x.id));
  for (const x of runs) sent.add(x.id);
  const recs = runs.map((x) => JSON.stringify(x));
  // One forge-export: the runs first (a result refers to them), then the result.
  if (result) recs.push(JSON.stringify(result));
  return exportText(tools, c.scope, recs.length ? recs.join("\n") + "\n" : "", lane);
}

/** Issue numbers by id (the findings name issues the last observation may not show). */
export async function issueNumbers(tools: Tools): Promise<Map<string, number>> {
  const args = ["list", "--state", "all", "--limit", "100000", "--json", "id,number"];
  const recs = await tools.lines<{ id: string; number: number }>("forge-issue", args);
  return new Map(recs.map((i) => [i.id, i.number]));
}
