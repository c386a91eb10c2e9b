/**
 * forge-pilot's help: `-h` is the compact form (within the 8 lines / 250
 * bytes budget), `--help` the long form, git's way: every flag, its default,
 * and why the default is what it is. Its own words, not the cli kit's page:
 * the texts are goldens (test/golden/help/forge-pilot*.txt) and the
 * launcher caches them (scripts/bundle.mjs).
 */

/** forge-pilot's version. */
export const VERSION = "0.1.0";

/** `-h`, and no arguments. */
export const SHORT = `usage: forge-pilot <run|observe|plan|explain|report> [flags]
Loop observe > plan > act > export to an honest halt
--max-iterations --time-budget --cooldown --halt-threshold
--max-retries --scope --refine-with --json (--help: all)
`;

/** `--help`. */
export const LONG = `usage: forge-pilot <run|observe|plan|explain|report> [flags]
  run      loop observe > plan > act > export until a halt; print the report
  observe  the observation (forge-observe), as the loop sees it
  plan     the next plan with the loop's config and history (nothing runs)
  explain  the ranked targets and why the plan is what it is
  report   the last run's report again; --html: one self-contained page
           of the evidence (spec/html.md); -o FILE: write it there

flags (LoopConfig) and their defaults:
  --max-iterations N     32   the demo's sample (a flake, 3 PRs, a stable
                              failure, a closed issue, a lost log) takes
                              12-16, a 24-check store with 6 flakes about 6
                              (a later step's rerun gives the steps before
                              it their trials); the reference's 4 stops
                              before half of them
  --time-budget S        1200 both halt by their own reason (retries spent,
                              nothing urgent) in 3-7 min on a 2-vCPU
                              machine at load 30 (an act 25-140 s); 300
                              cut both short there. A deadline handed to
                              every act, overrun reported
  --cooldown S           0    seconds between iterations
  --halt-threshold X     0.25 the reference's: below it nothing is urgent
  --max-retries N        3    a flaky rate needs ~24 trials: 3 acts of 10
                              (the reference's 2 leaves it undecided)
  --scope S              default
  --oracle-max-iterations N       4  delta-parity imports checked
  --minimal-perturbation-budget N 2  supports removed at most
  --include-hyperedges   accepted: forge-observe always reports joint
                              support groups (support_members)
  --allow-advisory-only  off  advisory plans run, marked, never verification
  --refine-with CMD      off  CMD reads a plan line, may change only
                              description, rationale, check_hints
  --hosts FILE           off  run: every act gets --hosts FILE, its trials
                              all at once over the ssh hosts of this GNU
                              parallel sshlogin file (spec/hosts.md);
                              checked first: a bad line is exit 2
  --brief                off  findings: only the verdicts this run changed;
                              default: every claim with a verdict in scope
  --json                 one report line (kind "report")
  --html, -o FILE        report: the page (no script, no URL); where to
                              write it (default: stdout)
history: .forge/pilot/history.jsonl (gitignored, last 10000 attempts)
halt: touch .forge/pilot/halt (or SIGTERM) = external_halt
`;
