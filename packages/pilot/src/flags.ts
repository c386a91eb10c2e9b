/**
 * forge-pilot's argv: `<verb> [flags]`, where every LoopConfig field is a
 * flag (seed §14.1; `--help` says each default and why). Its own small
 * parser, not the cli kit's `parseArgv`: the pilot's flags are all long,
 * take `--flag value` or `--flag=value`, and its usage lines
 * ("--scope needs a value", "unknown verb 'x'") are its contract; the kit's
 * words differ ("flag '--scope' needs a value"). Errors are core's
 * UsageError (exit 2).
 */
import { resolve } from "node:path";
import { UsageError } from "@forge/core";

/** The verbs. */
export const VERBS = ["run", "observe", "plan", "explain", "report"] as const;

/** A verb. */
export type Verb = (typeof VERBS)[number];

/** The loop's configuration: one field per flag. */
export interface LoopConfig {
  maxIterations: number;
  /** Seconds. */
  timeBudget: number;
  /** Seconds between iterations. */
  cooldown: number;
  /** In [0, 1]. */
  haltThreshold: number;
  maxRetries: number;
  scope: string;
  oracleMaxIterations: number;
  minimalPerturbationBudget: number;
  allowAdvisoryOnly: boolean;
  /** Accepted: forge-observe always reports joint support groups. */
  includeHyperedges: boolean;
  /** A command (split on spaces, no shell) that may refine a plan's free text. */
  refineWith: string | null;
  /** The history file, relative to the workspace (default `.forge/pilot/history.jsonl`). */
  history: string | null;
  /** `run --hosts`: a GNU parallel sshlogin file every act gets as `--hosts` (absolute; given relative to the cwd). */
  hosts: string | null;
  /** The report's findings: only the verdicts this run changed (default: every claim the loop holds a verdict on). */
  brief: boolean;
  json: boolean;
  /** `report --html`: the evidence as one HTML page (spec/html.md). */
  html: boolean;
  /** `report -o FILE`: where the report goes (default: stdout). */
  output: string | null;
  /** The repository the loop runs in (the working directory). */
  workspace: string;
}

type Kind = "count" | "fraction" | "string" | "boolean";

/**
 * Each flag: its field and kind, in the order the report's `config` lists
 * them (`--brief`, `--json` and `--workspace`, not part of the loop's config, last).
 */
const FLAGS = new Map<string, readonly [keyof LoopConfig, Kind]>([
  ["max-iterations", ["maxIterations", "count"]],
  ["time-budget", ["timeBudget", "count"]],
  ["cooldown", ["cooldown", "count"]],
  ["halt-threshold", ["haltThreshold", "fraction"]],
  ["max-retries", ["maxRetries", "count"]],
  ["scope", ["scope", "string"]],
  ["oracle-max-iterations", ["oracleMaxIterations", "count"]],
  ["minimal-perturbation-budget", ["minimalPerturbationBudget", "count"]],
  ["allow-advisory-only", ["allowAdvisoryOnly", "boolean"]],
  ["include-hyperedges", ["includeHyperedges", "boolean"]],
  ["refine-with", ["refineWith", "string"]],
  ["history", ["history", "string"]],
  ["hosts", ["hosts", "string"]],
  ["brief", ["brief", "boolean"]],
  ["json", ["json", "boolean"]],
  ["html", ["html", "boolean"]],
  ["output", ["output", "string"]],
  ["workspace", ["workspace", "string"]],
]);

/** The defaults (seed §14.1; why each: the long help). */
export function defaults(workspace: string): LoopConfig {
  return {
    maxIterations: 32,
    timeBudget: 1200,
    cooldown: 0,
    haltThreshold: 0.25,
    maxRetries: 3,
    scope: "default",
    oracleMaxIterations: 4,
    minimalPerturbationBudget: 2,
    allowAdvisoryOnly: false,
    includeHyperedges: false,
    refineWith: null,
    history: null,
    hosts: null,
    brief: false,
    json: false,
    html: false,
    output: null,
    workspace,
  };
}

/**
 * argv → the verb and the config.
 * @param argv the arguments after the program name
 * @param cwd the default workspace
 * @throws UsageError
 * @example parseArgv(["run", "--max-iterations", "4"], "/r").config.maxIterations // 4
 */
export function parseArgv(argv: readonly string[], cwd: string): { verb: Verb; config: LoopConfig } {
  const verb = argv[0];
  if (!isVerb(verb)) {
    if (verb === undefined) throw new UsageError("a verb is needed (run, observe, plan, explain, report)");
    throw new UsageError(`unknown verb '${verb.slice(0, 40)}'`);
  }
  const c = defaults(cwd);
  const set = c as unknown as Record<string, number | string | boolean | null>;
  for (let i = 1; i < argv.length; i++) {
    // `-o FILE`, the one short flag (gh's and git's letter for an output file).
    const a = argv[i] === "-o" ? "--output" : argv[i]!;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new UsageError(`unexpected argument '${a.slice(0, 40)}'`);
    const name = m[1]!;
    const inline = m[2];
    const flag = FLAGS.get(name);
    if (!flag) throw new UsageError(`unknown flag '--${name.slice(0, 40)}'`);
    const [field, kind] = flag;
    if (kind === "boolean") {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      set[field] = true;
      continue;
    }
    const v = inline ?? argv[++i];
    if (v === undefined || v === "") throw new UsageError(`--${name} needs a value`);
    if (kind === "string") {
      set[field] = v;
      continue;
    }
    const frac = kind === "fraction";
    if (!(frac ? /^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$/ : /^[0-9]{1,7}$/).test(v)) {
      throw new UsageError(`invalid ${name} '${v.slice(0, 20)}' (${frac ? "a number in [0, 1]" : "a whole number"})`);
    }
    set[field] = Number(v);
  }
  if (c.maxIterations < 1) throw new UsageError("invalid max-iterations '0' (at least 1)");
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(c.scope)) {
    throw new UsageError(`invalid scope '${c.scope.slice(0, 40)}' (letters, digits, . _ : -)`);
  }
  if (c.html && c.json) throw new UsageError("--json and --html: choose one");
  if ((c.html || c.output !== null) && verb !== "report") throw new UsageError("--html and -o are report's flags");
  if (c.hosts !== null && verb !== "run") throw new UsageError("--hosts is run's flag (the acts run over the hosts)");
  // As forge-act takes it: relative to the working directory, which is not the workspace under --workspace.
  if (c.hosts !== null) c.hosts = resolve(cwd, c.hosts);
  return { verb, config: c };
}

/**
 * The config as the report shows it: keyed by flag name, in the flags'
 * order, without how it is shown (`brief`, `json`) and `workspace`.
 */
export function reportedConfig(c: LoopConfig): Record<string, number | string | boolean | null> {
  const out: Record<string, number | string | boolean | null> = {};
  for (const [name, [field]] of FLAGS) {
    if (!UNREPORTED.includes(field)) out[name] = c[field];
  }
  return out;
}

/** How the report is shown and where: not the loop's config. */
const UNREPORTED: ReadonlyArray<keyof LoopConfig> = ["json", "brief", "html", "output", "workspace"];

function isVerb(s: string | undefined): s is Verb {
  return (VERBS as readonly (string | undefined)[]).includes(s);
}
