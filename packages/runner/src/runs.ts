/**
 * What the run verbs of forge-ci and forge-run share below the cli kit:
 * the store, runs resolved to their summaries and numbers, PR numbers for
 * the JSON, and a run's text.
 */
import {
  CI_RUN,
  CI_RUNS,
  entityOrder,
  loadEntity,
  openStore,
  PR,
  PRS,
  resolveRef,
  type LoadedEntity,
  type Order,
  type Store,
} from "@forge/core";
import { runToJson, type CiRunJson, type StepJson } from "./record.js";
import { readRunTests } from "./run_tests.js";
import type { StepResult } from "./step.js";

/** Where a run verb works: the caller's folder and environment. */
export interface RunIo {
  cwd: string;
  env: Record<string, string | undefined>;
}

/** A run verb's world: where it works, and where its warnings and errors go (a cli kit Ctx is one). */
export interface RunCtx {
  io: RunIo;
  log: { warn(message: string): void; error(message: string | Error): void };
}

/** An open store with its ranked runs and PR numbers, loaded when first needed. */
export class Runs {
  readonly store: Store;
  #order: Order | undefined;
  #prNumbers: Map<string, number> | undefined;
  constructor(io: RunIo) {
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
    return runToJson(run.data, number, prNumber, readRunTests(this.store, run.ref.id, run.ref.archived));
  }
}

/** `1.2 s` */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A run as text: what `view` prints. */
export function formatRun(r: CiRunJson): string {
  const pr = r.pr?.number ? ` #${r.pr.number}` : "";
  const head = `run ${r.databaseId} ${r.verdict}${r.conclusion ? ` (${r.conclusion})` : ""}: ${r.displayTitle}${pr}\n`;
  const patch = r.patchSha256 ? ` + patch ${r.patchSha256.slice(0, 12)}` : "";
  const rerun = r.rerunOf ? `\nrerun of: ${r.rerunOf}` : "";
  const tree = `tree: ${r.headSha}${patch}\nenv: ${r.envSha256.slice(0, 12)} (${r.runner})${rerun}\n`;
  const rows = r.steps.map((s: StepJson) => {
    const took = s.outcome === "skipped" ? "" : seconds(s.durationMs);
    return `${s.name}\t${s.outcome}\t${s.exitCode ?? ""}\t${took}${s.signature ? `\t${s.signature}` : ""}`;
  });
  return head + tree + (rows.length ? `\n${rows.join("\n")}\n` : "\nno steps\n");
}

/**
 * The stderr line for a finished step.
 * @param color whether the mark is coloured (the cli kit's `useColor(io)`)
 */
export function stepLine(label: string, s: StepResult, color: boolean): string {
  // A cache hit is no failure: the install step's result restored, not run.
  const ok = s.outcome === "pass" || s.cache === "hit";
  const mark = color ? (ok ? "\x1b[32m✓\x1b[0m" : "\x1b[31mX\x1b[0m") : ok ? "✓" : "X";
  const detail =
    s.outcome === "fail"
      ? `fail (exit ${s.exitCode ?? "signal"})`
      : s.cache === "hit"
        ? "restored from the cache"
        : s.outcome;
  const t = s.tests ?? [];
  const failed = t.filter((c) => c.outcome === "fail" || c.outcome === "error").length;
  const tests = t.length ? ` (${t.length} tests, ${failed} failed)` : "";
  const refused = s.reportError ? `${label}warning: ${s.reportError}\n` : "";
  return `${label}${mark} ${s.name} ${detail} ${seconds(s.durationMs)}${tests}\n${refused}`;
}
