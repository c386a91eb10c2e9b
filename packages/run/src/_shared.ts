/**
 * gh's run shape over a forge-ci record: `databaseId status conclusion name
 * displayTitle workflowName headBranch headSha event createdAt updatedAt
 * startedAt url attempt number workflowDatabaseId`, plus forge's `id`,
 * `verdict` and `steps` (as forge-ci prints them).
 */
import {
  cacheDir,
  CI_RUN,
  CI_RUNS,
  entityOrder,
  loadEntity,
  loadEntityFast,
  PR,
  PRS,
  repoWebUrl,
  type Store,
} from "@forge/core";
import { jsonFlags, jsonRequestOf, type FlagDef, type JsonRequest, type Parsed, type RenderOptions } from "@forge/cli";
import type { CiRunJson } from "@forge/runner";

/** A run as `forge-run --json` prints it. */
export interface RunJson {
  attempt: number;
  conclusion: string;
  createdAt: string;
  databaseId: number;
  displayTitle: string;
  event: string;
  headBranch: string;
  headSha: string;
  id: string;
  name: string;
  number: number;
  startedAt: string;
  status: string;
  steps: CiRunJson["steps"];
  updatedAt: string;
  url: string;
  verdict: string;
  workflowDatabaseId: number;
  workflowName: string;
}

/** Every `--json` field of a run. */
export const RUN_FIELDS: readonly string[] = [
  "attempt",
  "conclusion",
  "createdAt",
  "databaseId",
  "displayTitle",
  "event",
  "headBranch",
  "headSha",
  "id",
  "name",
  "number",
  "startedAt",
  "status",
  "steps",
  "updatedAt",
  "url",
  "verdict",
  "workflowDatabaseId",
  "workflowName",
];

/** `--json [fields]` and `--jq`. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(RUN_FIELDS);

/** The JSON request of `--json`/`--jq`. */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, RUN_FIELDS);
}

/** `run view`'s fields: every run field and `jobs`, as gh's `SingleRunFields`. */
export const VIEW_FIELDS: readonly string[] = [...RUN_FIELDS, "jobs"].sort();

/** A step of gh's `jobs[].steps`. */
export interface JobStepJson {
  completedAt: string;
  conclusion: string;
  name: string;
  number: number;
  startedAt: string;
  status: string;
}

/** A job of gh's `jobs` (forge's run is one job, `ci`). */
export interface JobJson {
  completedAt: string;
  conclusion: string;
  databaseId: number;
  name: string;
  startedAt: string;
  status: string;
  steps: JobStepJson[];
  url: string;
}

/** Go's zero time, as gh prints a time that has not come (a step not run, a job still running). */
const ZERO_TIME = "0001-01-01T00:00:00Z";

const STEP_CONCLUSION: Record<string, string> = {
  pass: "success",
  fail: "failure",
  timeout: "timed_out",
  cancelled: "cancelled",
  skipped: "skipped",
};

/**
 * gh's `jobs` of a run: forge runs its steps as one job named `ci` (the
 * job's id is the run's). Step times follow from the run's start and each
 * step's duration, the steps running one after another; a skipped step has
 * Go's zero times, as gh prints a step that never started.
 * @example jobsOf(run)[0].steps[0] // { name: "10-test", number: 1, status: "completed", conclusion: "success", … }
 */
export function jobsOf(r: RunJson): JobJson[] {
  let at = Date.parse(r.startedAt);
  const steps = r.steps.map((s, i): JobStepJson => {
    const ran = s.outcome !== "skipped";
    const startedAt = ran && Number.isFinite(at) ? iso(at) : ZERO_TIME;
    if (ran) at += s.durationMs;
    const completedAt = ran && Number.isFinite(at) ? iso(at) : ZERO_TIME;
    const conclusion = STEP_CONCLUSION[s.outcome] ?? "";
    return { completedAt, conclusion, name: s.name, number: i + 1, startedAt, status: "completed" };
  });
  const done = r.status === "completed";
  return [
    {
      completedAt: done ? r.updatedAt : ZERO_TIME,
      conclusion: done ? r.conclusion : "",
      databaseId: r.databaseId,
      name: "ci",
      startedAt: r.startedAt,
      status: r.status,
      steps,
      url: `${r.url}/job/${r.databaseId}`,
    },
  ];
}

/** A time as gh prints it: seconds, UTC, `Z`. */
function iso(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** What the gh shape needs beyond a run's own record, read once per command. */
export class RunShaper {
  #store: Store;
  #web: string | undefined;
  #branches: Map<string, string> | undefined;
  #rerunOf: Map<string, string | null> | undefined;
  constructor(store: Store) {
    this.#store = store;
  }
  /** Every run's `rerunOf` (for `attempt`), read once. */
  async #chains(): Promise<Map<string, string | null>> {
    if (this.#rerunOf) return this.#rerunOf;
    const m = new Map<string, string | null>();
    for (const e of (await entityOrder(this.#store, CI_RUNS, CI_RUN)).entries) {
      try {
        const r =
          loadEntityFast(this.#store, CI_RUNS, CI_RUN, e.ref) ??
          (await loadEntity(this.#store, CI_RUNS, CI_RUN, e.ref));
        m.set(e.ref.id, (r.data.rerunOf as string | undefined) ?? null);
      } catch {
        // An unreadable run ends a chain.
      }
    }
    return (this.#rerunOf = m);
  }
  /** The gh-shaped run. `attempt` counts the reruns back to the first run. */
  async shape(r: CiRunJson): Promise<RunJson> {
    const chains = await this.#chains();
    this.#web ??= await repoWebUrl(this.#store.root, this.#store.root, cacheDir(this.#store));
    if (!this.#branches) {
      const order = await entityOrder(this.#store, PRS, PR);
      this.#branches = new Map();
      for (const e of order.entries) {
        try {
          this.#branches.set(e.ref.id, (await loadEntity(this.#store, PRS, PR, e.ref)).data.headRefName as string);
        } catch {
          // An unreadable PR leaves its runs without a branch.
        }
      }
    }
    let attempt = 1;
    for (let at = r.rerunOf; at && attempt < 1000; at = chains.get(at) ?? null) attempt++;
    return {
      attempt,
      conclusion: r.conclusion,
      createdAt: r.createdAt,
      databaseId: r.databaseId,
      displayTitle: r.displayTitle,
      event: r.event,
      headBranch: r.pr ? (this.#branches.get(r.pr.id) ?? "") : "",
      headSha: r.headSha,
      id: r.id,
      name: r.name,
      number: r.number,
      startedAt: r.startedAt,
      status: r.status,
      steps: r.steps,
      updatedAt: r.updatedAt,
      url: `${this.#web}/actions/runs/${r.databaseId}`,
      verdict: r.verdict,
      workflowDatabaseId: 1,
      workflowName: "ci",
    };
  }
}

/** gh's failure states of a conclusion (`view --exit-status`). */
export function isFailure(conclusion: string): boolean {
  return ["action_required", "failure", "startup_failure", "timed_out"].includes(conclusion);
}

/** gh's elapsed column: a Go duration. */
export function elapsed(r: RunJson): string {
  let s = Math.max(0, Math.round((Date.parse(r.updatedAt) - Date.parse(r.startedAt)) / 1000));
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${m ? `${m}m` : ""}${s}s`;
}

/** gh's non-TTY row: `status\tconclusion\ttitle\tworkflow\tbranch\tevent\tid\telapsed\tcreatedAt`. */
export function runRow(r: RunJson): string[] {
  return [
    r.status,
    r.conclusion,
    r.displayTitle,
    r.workflowName,
    r.headBranch,
    r.event,
    String(r.databaseId),
    elapsed(r),
    r.createdAt,
  ];
}

/** Render options for runs. */
export function runRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<RunJson> {
  return {
    json: req,
    jq: args.jq as string | undefined,
    single,
    row: runRow,
    header: ["STATUS", "CONCLUSION", "TITLE", "WORKFLOW", "BRANCH", "EVENT", "ID", "ELAPSED", "AGE"],
  };
}
