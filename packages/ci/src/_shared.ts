/**
 * What every ci verb shares above the runner: the flags, the help's file
 * lists and the renderers.
 */
import {
  jsonFlags,
  jsonRequestOf,
  paint,
  useColor,
  type Ctx,
  type FlagDef,
  type Io,
  type JsonRequest,
  type Parsed,
  type RenderOptions,
} from "@forge/cli";
import { RUN_FIELDS, seconds, stepLine as formatStepLine, type CiRunJson, type StepResult } from "@forge/runner";

/** `--json [fields]` and `--jq`. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(RUN_FIELDS);

/** What a CI run reads, for the help pages of the verbs that run steps. */
export const CI_READS: ReadonlyArray<readonly [string, string]> = [
  [
    ".forge/ci/ci.env",
    "KEY=value lines: runner=local|docker|adapter:CMD (default local), image=<image> (for docker), timeout=<s> per " +
      "step (default none), base=<branch> (PRs' default base); UPPER_CASE keys go to every step's environment",
  ],
  [
    ".forge/ci/ci.env (hosts)",
    "hosts=<file>: the default of forge-ci run --hosts (a GNU parallel sshlogin file, relative to the " +
      "repository's top); runner=adapter:CMD: each run is CMD's (split on spaces, no shell), a push trigger line " +
      "in and two lines out by the Radicle CI broker's contract (spec/hosts.md)",
  ],
  [
    ".forge/ci/ci.env (cache)",
    "cache=<paths> (e.g. node_modules) made by cache_step=<step> (e.g. 05-install), keyed by cache_key=<files> " +
      "(default: package-lock.json npm-shrinkwrap.json pnpm-lock.yaml yarn.lock, as the tree has them): on a hit " +
      "the folders are copied in and the step is skipped, on a miss it runs and its folders are saved; " +
      "keep_caches=<n> entries (default 4)",
  ],
  [".forge/ci/cache/<key>/", "the dependency cache (machine state, gitignored; deleting it changes no verdict)"],
  [
    ".forge/ci/steps/NN-name",
    "the steps: executables run in filename order in a disposable worktree (its submodules initialised from the " +
      "main clone, offline), env + FORGE_CI_RUN, FORGE_CI_STEP",
  ],
  [
    "FORGE_REPORTS_DIR",
    "a fresh folder per step execution: JUnit XML (*.xml) or TAP (*.tap) written there makes each test case a " +
      "check (steps[].tests); a rerun of tests sets FORGE_TESTS (ids, one per line) and FORGE_TESTS_PATTERN",
  ],
];

/** Where runs are kept, for the help pages of the verbs that read them. */
export const RUNS_READ: ReadonlyArray<readonly [string, string]> = [
  [".forge/ci/runs/<id>/", "run records (summary.md) and step logs (machine state, gitignored)"],
];

/** The JSON request of `--json`/`--jq`. */
export function jsonRequest(args: Parsed): JsonRequest | null {
  return jsonRequestOf(args, RUN_FIELDS);
}

const COLORS: Record<string, number> = { pass: 32, fail: 31, cancelled: 90, running: 33 };

/** A list row: number, verdict, title, event, commit, time taken. */
export function runRow(r: CiRunJson, tty: boolean, color = false): string[] {
  const took = r.steps.reduce((n, s) => n + s.durationMs, 0);
  const sha = r.headSha.slice(0, 7) + (r.patchSha256 ? "+patch" : "");
  const title = r.pr?.number ? `${r.displayTitle} (#${r.pr.number})` : r.displayTitle;
  if (!tty) return [String(r.databaseId), r.verdict, title, r.event, sha, seconds(took)];
  return [
    paint(`${r.databaseId}`, 0, color),
    paint(r.verdict, COLORS[r.verdict] ?? 0, color),
    title,
    r.event,
    sha,
    seconds(took),
  ];
}

/** Render options for commands that print runs. */
export function runRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<CiRunJson> {
  return {
    json: req,
    jq: args.jq as string | undefined,
    single,
    row: runRow,
    header: ["ID", "VERDICT", "TITLE", "EVENT", "COMMIT", "TIME"],
  };
}

/** The stderr line for a finished step (coloured as `io`'s stdout allows). */
export function stepLine(io: Io, label: string, s: StepResult): string {
  return formatStepLine(label, s, useColor(io));
}

/** A note for stderr, when nothing needed doing. */
export function note(ctx: Ctx, text: string): void {
  ctx.io.stderr.write(`! ${text}\n`);
}
