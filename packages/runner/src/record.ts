/**
 * A run's record: `summary.md` (frontmatter + a table for a reader) and
 * the gh-shaped JSON of `forge-ci list/view --json` (gh `run` fields plus
 * forge's: the tree, the fingerprint, the steps).
 */
import type { TestCase } from "./reports.js";
import type { StepResult } from "./step.js";

/** A step's test cases as a run keeps them (`tests.json` beside `summary.md`), by step name. */
export type RunTests = Record<string, { tests: TestCase[]; error: string | null }>;

/** One step in a run's JSON. */
export interface StepJson {
  name: string;
  outcome: StepResult["outcome"];
  exitCode: number | null;
  durationMs: number;
  signature: string | null;
  /** sha256 of the step's log (null when it did not run). */
  logSha256: string | null;
  /** The test cases its reports named (`FORGE_REPORTS_DIR`); [] when it wrote none, or they were refused. */
  tests: TestCase[];
  /** Why its reports were refused (one line), or null. */
  reportError: string | null;
  /** The cache's install step only: `hit` (restored from the cache, not run) or `saved`. */
  cache?: "hit" | "saved";
}

/** A run as `--json` prints it (keys sorted, as gh prints them). */
export interface CiRunJson {
  /**
   * The code tree of `headSha`: its git tree without `.forge` (spec/loop.md §4);
   * null in a record made before the field.
   */
  codeTree: string | null;
  completedAt: string | null;
  conclusion: string;
  createdAt: string;
  databaseId: number;
  displayTitle: string;
  envSha256: string;
  event: "pull_request" | "manual";
  headSha: string;
  id: string;
  name: string;
  number: number;
  patchSha256: string | null;
  pr: { id: string; number: number | null } | null;
  rerunOf: string | null;
  runner: string;
  startedAt: string;
  status: string;
  steps: StepJson[];
  updatedAt: string;
  verdict: string;
}

/** Every `--json` field of a run. */
export const RUN_FIELDS: readonly string[] = [
  "codeTree",
  "completedAt",
  "conclusion",
  "createdAt",
  "databaseId",
  "displayTitle",
  "envSha256",
  "event",
  "headSha",
  "id",
  "name",
  "number",
  "patchSha256",
  "pr",
  "rerunOf",
  "runner",
  "startedAt",
  "status",
  "steps",
  "updatedAt",
  "verdict",
];

/**
 * The JSON of a run's validated frontmatter.
 * @param d the summary's known fields
 * @param number the run's derived number
 * @param prNumber the number of the run's PR, when known
 * @param tests the run's `tests.json` (runTests in run_tests.ts), when it has one
 */
export function runToJson(
  d: Record<string, unknown>,
  number: number,
  prNumber: number | null,
  tests: RunTests = {}
): CiRunJson {
  const steps = (d.steps as Record<string, unknown>[]).map((s) => ({
    name: s.name as string,
    outcome: s.outcome as StepResult["outcome"],
    exitCode: (s.exitCode as number | undefined) ?? null,
    durationMs: s.durationMs as number,
    signature: (s.signature as string | undefined) ?? null,
    logSha256: (s.logSha256 as string | undefined) ?? null,
    tests: Object.hasOwn(tests, s.name as string) ? tests[s.name as string]!.tests : [],
    reportError: Object.hasOwn(tests, s.name as string) ? tests[s.name as string]!.error : null,
    ...(s.cache ? { cache: s.cache as "hit" | "saved" } : {}),
  }));
  const createdAt = d.createdAt as string;
  const completedAt = (d.completedAt as string | undefined) ?? null;
  return {
    codeTree: (d.codeTree as string | undefined) ?? null,
    completedAt,
    conclusion: (d.conclusion as string | undefined) ?? "",
    createdAt,
    databaseId: number,
    displayTitle: (d.title as string | undefined) ?? "ci",
    envSha256: d.envSha256 as string,
    event: d.pr ? "pull_request" : "manual",
    headSha: d.headSha as string,
    id: d.id as string,
    name: "ci",
    number,
    patchSha256: (d.patchSha256 as string | undefined) ?? null,
    pr: d.pr ? { id: d.pr as string, number: prNumber } : null,
    rerunOf: (d.rerunOf as string | undefined) ?? null,
    runner: d.runner as string,
    startedAt: createdAt,
    status: d.status as string,
    steps,
    updatedAt: completedAt ?? createdAt,
    verdict: d.verdict as string,
  };
}

/** The verdict and gh's conclusion of finished steps. */
export function verdictOf(
  steps: readonly StepResult[],
  cancelled: boolean
): { verdict: "pass" | "fail" | "cancelled"; conclusion: "success" | "failure" | "cancelled" | "timed_out" } {
  if (cancelled || steps.some((s) => s.outcome === "cancelled")) {
    return { verdict: "cancelled", conclusion: "cancelled" };
  }
  if (steps.some((s) => s.outcome === "fail")) return { verdict: "fail", conclusion: "failure" };
  if (steps.some((s) => s.outcome === "timeout")) return { verdict: "fail", conclusion: "timed_out" };
  return { verdict: "pass", conclusion: "success" };
}

/** The steps as stored in `summary.md` (no nulls: absent fields). */
export function storedSteps(steps: readonly StepResult[]): Record<string, unknown>[] {
  return steps.map((s) => {
    const o: Record<string, unknown> = { name: s.name };
    if (s.exitCode !== null) o.exitCode = s.exitCode;
    o.durationMs = s.durationMs;
    o.outcome = s.outcome;
    if (s.signature) o.signature = s.signature;
    if (s.logSha256) o.logSha256 = s.logSha256;
    if (s.cache) o.cache = s.cache;
    return o;
  });
}

/**
 * The body of `summary.md`: the steps as a table, the verdict, and each
 * failure's masked log tail under its signature.
 */
export function summaryBody(steps: readonly StepResult[], verdict: string): string {
  if (verdict === "running") return "running\n";
  const rows = steps.map((s) => {
    const took = s.outcome === "skipped" ? "" : `${(s.durationMs / 1000).toFixed(1)} s`;
    return `| ${s.name} | ${s.outcome}${s.cache ? ` (cache ${s.cache})` : ""} | ${s.exitCode ?? ""} | ${took} |`;
  });
  const failed = steps.find((s) => s.outcome === "fail" || s.outcome === "timeout" || s.outcome === "cancelled");
  const head = "| step | outcome | exit | duration |\n| --- | --- | --- | --- |\n";
  const table = `${head}${rows.join("\n")}${rows.length ? "\n" : ""}`;
  let out = `${table}\nverdict: ${verdict}${failed ? ` (${failed.name})` : ""}\n`;
  for (const s of steps) {
    if (s.reportError) out += `\n${s.reportError}\n`;
    const failed = (s.tests ?? []).filter((c) => c.outcome === "fail" || c.outcome === "error");
    if (s.tests?.length) out += `\n${s.name}: ${s.tests.length} tests, ${failed.length} failed\n`;
    for (const c of failed.slice(0, 50)) out += `    ${c.outcome} ${c.id} ${c.signature ?? ""}\n`;
    if (failed.length > 50) out += `    … and ${failed.length - 50} more (forge-ci view --json)\n`;
  }
  for (const s of steps) {
    if (!s.signature) continue;
    out += `\n${s.name} ${s.signature}:\n\n${(s.signatureText ?? []).map((l) => `    ${l}`).join("\n")}\n`;
  }
  return out;
}

/** The test cases of finished steps, as `tests.json` keeps them (only steps that wrote reports). */
export function runTestsOf(steps: readonly StepResult[]): RunTests {
  const out: RunTests = {};
  for (const s of steps) {
    if (s.tests?.length || s.reportError) out[s.name] = { tests: s.tests ?? [], error: s.reportError ?? null };
  }
  return out;
}
