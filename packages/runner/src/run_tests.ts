/**
 * Where a run keeps its steps' test reports: each step execution gets a
 * fresh folder, `reports/<step>/` in the run's folder (`FORGE_REPORTS_DIR`),
 * pruned with the logs; the test cases read from it are kept for good in
 * `tests.json` beside `summary.md` (only for steps that wrote reports), so
 * a pruned run still shows its tests.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite, CI_RUN, CI_RUNS, entityDir, entityOrder, type Store } from "@forge/core";
import type { RunTests } from "./record.js";
import { TEST_SEPARATOR, testsPattern } from "./reports.js";

/** The file of a run's test cases. */
export const TESTS_FILE = "tests.json";

/** A step's fresh reports folder in the run's folder (made empty now). */
export function stepReportsDir(runDir: string, step: string): string {
  const d = join(runDir, "reports", step);
  mkdirSync(d, { recursive: true });
  return d;
}

/** Keep a run's test cases (nothing written when no step wrote reports). */
export function writeRunTests(runDir: string, tests: RunTests): void {
  if (Object.keys(tests).length === 0) return;
  atomicWrite(join(runDir, TESTS_FILE), JSON.stringify(tests) + "\n");
}

/**
 * A run's test cases ({} when it has none). A damaged file is no tests, not
 * an error: the run's verdict stands on its summary.
 */
export function readRunTests(store: Store, id: string, archived = false): RunTests {
  const f = join(entityDir(store, CI_RUNS, id, archived), TESTS_FILE);
  if (!existsSync(f)) return {};
  try {
    const v = JSON.parse(readFileSync(f, "utf8")) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v)) return {};
    const out: RunTests = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const r = x as { tests?: unknown; error?: unknown };
      if (!Array.isArray(r?.tests)) continue;
      out[k] = { tests: r.tests as RunTests[string]["tests"], error: typeof r.error === "string" ? r.error : null };
    }
    return out;
  } catch {
    return {};
  }
}

/** Which tests a step is asked to run (a CheckRerun of tests): their ids and their own names. */
export interface TestsRequest {
  step: string;
  ids: string[];
  names: string[];
}

/**
 * The environment that asks a step for some of its tests: `FORGE_TESTS`
 * (the ids, one per line) and `FORGE_TESTS_PATTERN` (a regular expression
 * matching their names, for a runner's name filter).
 */
export function testsEnv(req: TestsRequest | undefined, step: string): Record<string, string> {
  if (!req || req.step !== step || req.ids.length === 0) return {};
  return { FORGE_TESTS: req.ids.join("\n"), FORGE_TESTS_PATTERN: testsPattern(req.names) };
}

/**
 * A test's own name (what a runner's name filter matches), from the newest
 * run whose step recorded that test id; else from the id itself (its last
 * part, without a `(file)` or `#n` suffix).
 * @param look the most runs to look through, newest first
 */
export async function testNameOf(store: Store, step: string, id: string, look = 200): Promise<string> {
  const order = await entityOrder(store, CI_RUNS, CI_RUN);
  for (let i = order.length - 1, n = 0; i >= 0 && n < look; i--, n++) {
    const ref = order.at(i)!.ref;
    const hit = readRunTests(store, ref.id, ref.archived)[step]?.tests.find((c) => c.id === id);
    if (hit && typeof hit.name === "string" && hit.name !== "") return hit.name;
  }
  const last = id
    .replace(/ #\d+$/, "")
    .replace(/ \([^()]*\)$/, "")
    .split(TEST_SEPARATOR)
    .pop();
  return last || id;
}
