/**
 * What every ci verb shares: the store, runs resolved to their summaries
 * and numbers, PR numbers for the JSON, the flags and the renderers.
 */
import {
  CI_RUN, CI_RUNS, entityOrder, loadEntity, openStore, PR, PRS, resolveRef,
  type LoadedEntity, type Order, type Store,
} from "@forge/core";
import { jsonFlags, jsonRequestOf, paint, useColor, type Ctx, type FlagDef, type Io, type JsonRequest, type Parsed, type RenderOptions } from "@forge/cli";
import { RUN_FIELDS, runToJson, type CiRunJson, type StepJson } from "./record.js";
import type { StepResult } from "./step.js";

/** An open store with its ranked runs and PR numbers, loaded when first needed. */
export class Runs {
  readonly store: Store;
  #order: Order | undefined;
  #prNumbers: Map<string, number> | undefined;
  constructor(io: Io) {
    this.store = openStore({ cwd: io.cwd, env: io.env });
  }
  /** The ranked runs (number = index + 1). */
  async ranked(): Promise<Order> {
    return (this.#order ??= await entityOrder(this.store, CI_RUNS, CI_RUN));
  }
  /** Resolve a run ref (number, id, prefix) and load its summary. */
  async get(ref: string): Promise<{ run: LoadedEntity; number: number }> {
    const order = await this.ranked();
    const r = resolveRef(order, ref, "run", order.errors);
    return { run: await loadEntity(this.store, CI_RUNS, CI_RUN, r.ref), number: r.number };
  }
  /** Resolve a PR ref and load it. */
  async pr(ref: string): Promise<{ pr: LoadedEntity; number: number }> {
    const order = await entityOrder(this.store, PRS, PR);
    const r = resolveRef(order, ref, "pull request", order.errors);
    return { pr: await loadEntity(this.store, PRS, PR, r.ref), number: r.number };
  }
  /** The JSON of a loaded run (the PR's number looked up when it has one). */
  async json(run: LoadedEntity, number: number): Promise<CiRunJson> {
    let prNumber: number | null = null;
    const prId = run.data.pr as string | undefined;
    if (prId) {
      if (!this.#prNumbers) {
        const order = await entityOrder(this.store, PRS, PR);
        this.#prNumbers = new Map(order.entries.map((e, i) => [e.ref.id, i + 1]));
      }
      prNumber = this.#prNumbers.get(prId) ?? null;
    }
    return runToJson(run.data, number, prNumber);
  }
}

/** `--json [fields]` and `--jq`. */
export const JSON_FLAGS: Record<string, FlagDef> = jsonFlags(RUN_FIELDS);

/** What a CI run reads, for the help pages of the verbs that run steps. */
export const CI_READS: ReadonlyArray<readonly [string, string]> = [
  [".forge/ci/ci.env", "KEY=value lines: runner=local|docker (default local), image=<image> (for docker), timeout=<s> per step (default none), base=<branch> (PRs' default base); UPPER_CASE keys go to every step's environment"],
  [".forge/ci/steps/NN-name", "the steps: executables run in filename order in a disposable worktree, env + FORGE_CI_RUN, FORGE_CI_STEP"],
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
  return [paint(`${r.databaseId}`, 0, color), paint(r.verdict, COLORS[r.verdict] ?? 0, color), title, r.event, sha, seconds(took)];
}

/** Render options for commands that print runs. */
export function runRender(args: Parsed, req: JsonRequest | null, single: boolean): RenderOptions<CiRunJson> {
  return { json: req, jq: args.jq as string | undefined, single, row: runRow, header: ["ID", "VERDICT", "TITLE", "EVENT", "COMMIT", "TIME"] };
}

/** `1.2 s` */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A run as text: what `view` prints. */
export function formatRun(r: CiRunJson): string {
  const head = `run ${r.databaseId} ${r.verdict}${r.conclusion ? ` (${r.conclusion})` : ""}: ${r.displayTitle}${r.pr?.number ? ` #${r.pr.number}` : ""}\n`;
  const tree = `tree: ${r.headSha}${r.patchSha256 ? ` + patch ${r.patchSha256.slice(0, 12)}` : ""}\nenv: ${r.envSha256.slice(0, 12)} (${r.runner})${r.rerunOf ? `\nrerun of: ${r.rerunOf}` : ""}\n`;
  const rows = r.steps.map((s: StepJson) => `${s.name}\t${s.outcome}\t${s.exitCode ?? ""}\t${s.outcome === "skipped" ? "" : seconds(s.durationMs)}${s.signature ? `\t${s.signature}` : ""}`);
  return head + tree + (rows.length ? `\n${rows.join("\n")}\n` : "\nno steps\n");
}

/** The stderr line for a finished step. */
export function stepLine(io: Io, label: string, s: StepResult): string {
  const ok = s.outcome === "pass";
  const mark = useColor(io) ? (ok ? "\x1b[32m✓\x1b[0m" : "\x1b[31mX\x1b[0m") : ok ? "✓" : "X";
  const detail = s.outcome === "fail" ? `fail (exit ${s.exitCode ?? "signal"})` : s.outcome;
  return `${label}${mark} ${s.name} ${detail} ${seconds(s.durationMs)}\n`;
}

/** A note for stderr, when nothing needed doing. */
export function note(ctx: Ctx, text: string): void {
  ctx.io.stderr.write(`! ${text}\n`);
}
