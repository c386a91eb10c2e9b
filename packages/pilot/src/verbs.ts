/**
 * The verbs: `observe` and `plan`/`explain` run the stages once and print
 * what they gave; `run` holds the repository's pilot lock and runs the loop
 * to a halt, passing a SIGTERM or SIGINT on to the tools running then.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { atomicWrite, ForgeError } from "@forge/core";
import type { Io } from "@forge/cli";
import { realDeps, type Signals } from "./deps.js";
import type { LoopConfig, Verb } from "./flags.js";
import { historyFile, pilotDir } from "./history.js";
import { historyLines, saveLastRun } from "./last_run.js";
import { openSetupPool } from "./setups.js";
import { takePilotLock } from "./lock.js";
import { checkHosts } from "./hosts.js";
import { runLoop } from "./loop.js";
import { firstSteps } from "./first_steps.js";
import { formatExplain, formatObservation, formatPlan, formatReport, PROG } from "./report.js";
import { observe, observeAndPlan } from "./stages.js";
import { Tools } from "./tools.js";

const lines = (recs: readonly object[]): string => recs.map((o) => JSON.stringify(o)).join("\n") + "\n";

/**
 * Run a verb in `c.workspace`.
 * @returns the exit code
 */
export async function runVerb(verb: Verb, c: LoopConfig, io: Io): Promise<number> {
  // The acts' hosts, before anything runs or is written (only run acts).
  if (verb === "run") await checkHosts(c, io.env);
  // Tools are found on PATH, then beside the launcher (bin/).
  const tools = new Tools(c.workspace, dirname(process.argv[1] ?? "."), io.env);
  const top = await tools.run("git", ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0) {
    throw new ForgeError("not in a git repository (the loop runs checks in worktrees of its commits)");
  }
  if (!existsSync(join(c.workspace, ".forge"))) throw new ForgeError(`no .forge/ in ${c.workspace} (run 'forge init')`);
  if (verb === "observe") {
    const obs = await observe(tools, c);
    io.stdout.write(c.json ? lines(obs) : formatObservation(obs, c.scope));
    return 0;
  }
  if (verb === "report") {
    const { reportText } = await import("./report_page.js");
    const text = await reportText(tools, c, io.env);
    if (c.output === null) io.stdout.write(text);
    else {
      const file = resolve(c.workspace, c.output);
      atomicWrite(file, text);
      io.stderr.write(`${PROG}: wrote ${file}\n`);
    }
    return 0;
  }
  if (verb === "plan" || verb === "explain") {
    const { obs, targets, decision } = await observeAndPlan(tools, c);
    // No evidence yet: what to do next, as `run` says it (which exports CI runs first).
    if (decision.kind === "halt" && decision.reason === "missing_kernel_payload") {
      decision.detail = firstSteps(c.workspace, false);
    }
    if (c.json) io.stdout.write(lines([...targets, decision]));
    else io.stdout.write(verb === "explain" ? formatExplain(targets, decision, obs) : formatPlan(decision));
    return 0;
  }
  const signals: Signals = { stop: null };
  const onSignal = (s: NodeJS.Signals): void => {
    signals.stop = s;
    tools.stop();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  const unlock = takePilotLock(pilotDir(c.workspace));
  // The acts of this run share their prepared worktrees (setups), removed when it ends.
  const closeSetups = openSetupPool(tools);
  try {
    const history = historyFile(c.workspace, c.history);
    const before = historyLines(history);
    const rep = await runLoop(realDeps(tools, c, signals, io.stderr), c);
    // Nothing to work on: what to do next, in plain words, and a failing exit (it did nothing).
    const idle = rep.halt_reason === "missing_kernel_payload" && rep.iterations === 0;
    if (idle) rep.halt_detail = firstSteps(c.workspace, true);
    // Kept for `forge-pilot report` (its trace: the history lines this run added).
    saveLastRun(c.workspace, rep, before, historyLines(history));
    io.stdout.write(c.json ? JSON.stringify(rep) + "\n" : formatReport(rep));
    if (idle) io.stderr.write(`${PROG}: nothing done: ${rep.halt_detail}\n`);
    return rep.halt_reason === "external_halt" && signals.stop ? 128 + 15 : idle ? 1 : 0;
  } finally {
    await closeSetups();
    unlock();
  }
}
