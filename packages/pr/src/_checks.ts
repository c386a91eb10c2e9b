/**
 * gh's `pr checks` rows for a stored PR: one check per CI step of the
 * newest run of the PR's current patch (forge-ci's records), else one
 * check named `ci` from the PR's recorded verdict (runs are machine state:
 * another clone has only the verdict).
 */
import {
  CI_RUN,
  CI_RUNS,
  displayPath,
  entityDir,
  entityOrder,
  loadEntity,
  type LoadedEntity,
  type Store,
} from "@forge/core";

/** One row of `pr checks --json` (gh's fields). */
export interface CheckRow {
  bucket: "pass" | "fail" | "pending" | "skipping" | "cancel";
  completedAt: string;
  description: string;
  event: string;
  link: string;
  name: string;
  startedAt: string;
  state: string;
  workflow: string;
}

/** Every `--json` field of a check. */
export const CHECK_FIELDS: readonly string[] = [
  "bucket",
  "completedAt",
  "description",
  "event",
  "link",
  "name",
  "startedAt",
  "state",
  "workflow",
];

const STATE: Record<string, string> = {
  pass: "SUCCESS",
  fail: "FAILURE",
  timeout: "TIMED_OUT",
  cancelled: "CANCELLED",
  skipped: "SKIPPED",
};

/** gh's bucket of a state (CA). */
export function bucketOf(state: string): CheckRow["bucket"] {
  if (state === "SUCCESS") return "pass";
  if (state === "SKIPPED" || state === "NEUTRAL") return "skipping";
  if (["ERROR", "FAILURE", "TIMED_OUT", "ACTION_REQUIRED"].includes(state)) return "fail";
  if (state === "CANCELLED") return "cancel";
  return "pending";
}

function at(t: number): string {
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The checks of a PR.
 * @returns the rows, gh's order (the fail bucket first, then by name)
 */
export async function prChecks(store: Store, pr: LoadedEntity): Promise<CheckRow[]> {
  const order = await entityOrder(store, CI_RUNS, CI_RUN);
  let run: LoadedEntity | undefined;
  for (let i = order.length - 1; i >= 0 && !run; i--) {
    const ref = order.at(i)!.ref;
    try {
      const e = await loadEntity(store, CI_RUNS, CI_RUN, ref);
      if (e.data.pr === pr.ref.id && e.data.patchSha256 === pr.data.patchSha256) run = e;
    } catch {
      // An unreadable run is not this PR's evidence.
    }
  }
  const rows: CheckRow[] = [];
  if (run) {
    const d = run.data;
    let t = Date.parse(d.createdAt as string);
    const steps = d.steps as Array<{ name: string; outcome: string; durationMs: number }>;
    const logs = displayPath(store, entityDir(store, CI_RUNS, run.ref.id));
    for (const s of steps) {
      const state = STATE[s.outcome] ?? "PENDING";
      rows.push({
        bucket: bucketOf(state),
        completedAt: at(t + s.durationMs),
        description: "",
        event: "pull_request",
        link: `${logs}/steps/${s.name}.log`,
        name: s.name,
        startedAt: at(t),
        state,
        workflow: "ci",
      });
      t += s.durationMs;
    }
    if (d.status !== "completed") {
      rows.push({
        bucket: "pending",
        completedAt: "",
        description: "running",
        event: "pull_request",
        link: logs,
        name: "(running)",
        startedAt: at(t),
        state: "IN_PROGRESS",
        workflow: "ci",
      });
    }
  } else if (pr.data.ci !== undefined) {
    const ci = pr.data.ci as string;
    const state =
      ci === "pass" ? "SUCCESS" : ci === "fail" ? "FAILURE" : ci === "cancelled" ? "CANCELLED" : "IN_PROGRESS";
    rows.push({
      bucket: bucketOf(state),
      completedAt: "",
      description: "",
      event: "pull_request",
      link: "",
      name: "ci",
      startedAt: "",
      state,
      workflow: "ci",
    });
  }
  const rank = (b: string): number => (b === "fail" ? 0 : 1);
  return rows.sort(
    (a, b) => rank(a.bucket) - rank(b.bucket) || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.link < b.link ? -1 : 1)
  );
}

/** gh's elapsed column: `0`, or a Go duration (`1m26s`, `3s`). */
export function elapsed(c: CheckRow): string {
  if (!c.startedAt || !c.completedAt) return "0";
  let s = Math.round((Date.parse(c.completedAt) - Date.parse(c.startedAt)) / 1000);
  if (s <= 0) return "0";
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${h ? `${h}h` : ""}${h || m ? `${m}m` : ""}${s}s`;
}

/** The exit code gh gives: 1 with a failing check, else 8 with a pending one, else 0. */
export function checksExit(rows: readonly CheckRow[]): number {
  if (rows.some((r) => r.bucket === "fail")) return 1;
  if (rows.some((r) => r.bucket === "pending")) return 8;
  return 0;
}
