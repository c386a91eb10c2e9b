#!/usr/bin/env node
// forge-pilot: the one orchestrating script (DESIGN §8, the forge-pilot
// seed §14-§15). It loops
//
//   forge-observe --json | forge-plan --json | forge-act --json | forge-export
//
// until a halt, and writes only what the seed lets it write: the loop-local
// history (.forge/pilot/history.jsonl, rebuildable), its report, and
// evidence through forge-export (the canonical lane: one forge-export kept
// open for the whole run, see openLane). Every tool runs as an
// argv array with no shell in between: zx's `$` always goes through a shell
// (quoted, but a shell), so tools are spawned directly and zx supplies the
// rest (sleep). Tools are found on PATH first, then beside the launcher in bin/.
import { sleep } from "zx";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { findings } from "./pilot_findings.mjs";
import { DEFAULTS, LONG, SHORT, VERSION } from "./pilot_help.mjs";

const PROG = "forge-pilot";
const VERBS = ["run", "observe", "plan", "explain"];
/** Halt reasons: forge-plan's four, then the pilot's (spec/loop.md §2). */
export const HALTS = [
  "nothing_worth_investigating", "all_targets_exhausted", "missing_kernel_payload", "thin_export_blocked_execution",
  "max_iterations_reached", "time_budget_exhausted", "external_halt", "parity_violation",
];
const FREE_TEXT = ["description", "rationale", "check_hints"];
const HISTORY_MAX = 10_000;
const NUMBER_FLAGS = ["max-iterations", "time-budget", "cooldown", "halt-threshold", "max-retries", "oracle-max-iterations", "minimal-perturbation-budget"];
const STRING_FLAGS = ["scope", "refine-with", "workspace", "history"];
const BOOL_FLAGS = ["json", "allow-advisory-only", "include-hyperedges"];

class UsageError extends Error {}
class RuntimeError extends Error {}

// --- flags ---

/** argv → {verb, config}; every LoopConfig field is a flag. */
export function parseArgv(argv) {
  const verb = argv[0];
  if (!VERBS.includes(verb)) throw new UsageError(verb === undefined ? "a verb is needed (run, observe, plan, explain)" : `unknown verb '${String(verb).slice(0, 40)}'`);
  const c = { ...DEFAULTS, json: false, "allow-advisory-only": false, "include-hyperedges": false, "refine-with": null, workspace: process.cwd(), history: null };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new UsageError(`unexpected argument '${a.slice(0, 40)}'`);
    const [, name, inline] = m;
    if (BOOL_FLAGS.includes(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      c[name] = true;
      continue;
    }
    if (!NUMBER_FLAGS.includes(name) && !STRING_FLAGS.includes(name)) throw new UsageError(`unknown flag '--${name.slice(0, 40)}'`);
    const v = inline ?? argv[++i];
    if (v === undefined || v === "") throw new UsageError(`--${name} needs a value`);
    if (NUMBER_FLAGS.includes(name)) {
      const frac = name === "halt-threshold";
      if (!(frac ? /^(0(\.[0-9]{1,6})?|1(\.0{1,6})?)$/ : /^[0-9]{1,7}$/).test(v)) throw new UsageError(`invalid ${name} '${v.slice(0, 20)}' (${frac ? "a number in [0, 1]" : "a whole number"})`);
      c[name] = Number(v);
    } else c[name] = v;
  }
  if (c["max-iterations"] < 1) throw new UsageError("invalid max-iterations '0' (at least 1)");
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(c.scope)) throw new UsageError(`invalid scope '${c.scope.slice(0, 40)}' (letters, digits, . _ : -)`);
  return { verb, c };
}

// --- tools ---

const binDir = dirname(process.argv[1] ?? ".");
/**
 * The tools that only read and write the store (and run git): nothing under them opens a TLS
 * connection or runs user code. They start without NODE_EXTRA_CA_CERTS, which Node 20 loads at
 * the start of every process with all its bundled root certificates (~60 ms of CPU a process
 * on a 2-vCPU machine, three times an iteration). forge-act and forge-ci run the user's steps:
 * theirs is the caller's environment, untouched.
 */
const STORE_ONLY = new Set(["forge-observe", "forge-plan", "forge-export"]);
/** The export lane's niceness (see openLane). */
const LANE_NICE = 10;
/** The tools running now: a signal to the pilot is passed on to them. */
const children = new Set();

/**
 * Start a tool with an argv array (no shell). `done` resolves with its
 * stdout, stderr and exit code (127: not found); `child.stdin` is open for
 * the caller to write and end.
 */
function start(c, name, args) {
  const env = { ...process.env, PATH: `${process.env.PATH ?? ""}:${binDir}` };
  if (STORE_ONLY.has(name)) delete env.NODE_EXTRA_CA_CERTS;
  const child = spawn(name, args, { cwd: c.workspace, env, stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  const out = [];
  const err = [];
  child.stdout.on("data", (d) => out.push(d));
  child.stderr.on("data", (d) => err.push(d));
  child.stdin.on("error", () => undefined);
  const done = new Promise((res) => {
    child.on("error", (e) => {
      children.delete(child);
      res({ stdout: "", stderr: `${name}: ${e.code === "ENOENT" ? "not found" : e.message}`, code: 127 });
    });
    child.on("close", (code, signal) => {
      children.delete(child);
      res({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), code: code ?? 128 + (signal === "SIGKILL" ? 9 : 15) });
    });
  });
  return { child, done };
}

/** Run a tool with `input` on its stdin; its stdout, stderr and exit code. */
function tool(c, name, args, input = "") {
  const t = start(c, name, args);
  t.child.stdin.end(input);
  return t.done;
}

/** Why a tool failed, naming it once ("forge-observe exited 1: <its reason>"). */
function failure(name, r) {
  // The stage's own line already names it ("forge-observe: …"): said once.
  const last = r.stderr.trim().split("\n").pop() ?? "";
  const why = last.startsWith(`${name}: `) ? last.slice(name.length + 2) : last;
  return new RuntimeError(`${name} exited ${r.code}: ${why.slice(0, 300)}`);
}

const parseLines = (text) => text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));

/** A tool that must succeed (exit codes in `ok`); its stdout as JSON lines. */
async function lines(c, name, args, input = "", ok = [0]) {
  const r = await tool(c, name, args, input);
  if (!ok.includes(r.code)) throw failure(name, r);
  return { recs: parseLines(r.stdout), stderr: r.stderr, code: r.code };
}

// --- store, history ---

function pilotDir(c) {
  return join(c.workspace, ".forge", "pilot");
}

function historyFile(c) {
  return c.history ? resolve(c.workspace, c.history) : join(pilotDir(c), "history.jsonl");
}

function atomicWrite(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Append attempts to the history, keeping the last 10 000 lines (rewritten whole, atomically). */
function appendHistory(c, recs) {
  const file = historyFile(c);
  const old = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
  const all = [...old, ...recs.map((r) => JSON.stringify(r))].slice(-HISTORY_MAX);
  atomicWrite(file, all.join("\n") + "\n");
}

/** Whether a process runs (a zombie, killed and not yet reaped, does not). */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return err.code === "EPERM";
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/** One pilot per repository: `.forge/pilot/lock` holds its pid. */
function takeLock(c) {
  const file = join(pilotDir(c), "lock");
  mkdirSync(pilotDir(c), { recursive: true });
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, "utf8").trim());
    if (pid && pid !== process.pid && alive(pid)) throw new RuntimeError(`another forge-pilot (pid ${pid}) runs in this repository`);
  }
  atomicWrite(file, `${process.pid}\n`);
  return () => rmSync(file, { force: true });
}

/**
 * Pick up after a kill: remove the worktrees of acts that are gone (their
 * scratch folder names the pid), finish their in-progress CI runs as
 * cancelled, and send every completed CI run through the lane (idempotent):
 * a trial that finished before the kill is never lost.
 */
async function recover(c, lane = null) {
  const wt = await tool(c, "git", ["worktree", "list", "--porcelain"]);
  let removed = 0;
  // Dead only when the file names a pid that is gone: a file another act is writing or has just removed
  // (every forge-act on the machine keeps its scratch folder in the same tmp folder) is not ours to clean.
  const dead = (file) => {
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return false;
    }
    const m = /^([1-9][0-9]*)\n$/.exec(text);
    return m !== null && !alive(Number(m[1]));
  };
  for (const l of wt.stdout.split("\n")) {
    if (!l.startsWith("worktree ")) continue;
    const dir = l.slice(9);
    const owner = join(dirname(dir), "forge-act.pid");
    if (!existsSync(owner) || !dead(owner)) continue;
    await tool(c, "git", ["worktree", "remove", "--force", "--force", dir]);
    rmSync(dirname(dir), { recursive: true, force: true });
    removed++;
  }
  // Scratch folders of acts that are gone, whatever step of their clean-up the kill interrupted; then git forgets missing worktrees.
  for (const n of readdirSync(tmpdir())) {
    const owner = join(tmpdir(), n, "forge-act.pid");
    if (!n.startsWith("forge-") || !existsSync(owner) || !dead(owner)) continue;
    rmSync(join(tmpdir(), n), { recursive: true, force: true });
    removed++;
  }
  await tool(c, "git", ["worktree", "prune"]);
  const stale = await lines(c, "forge-ci", ["list", "--status", "in_progress", "--limit", "100000", "--json", "id,displayTitle"]);
  for (const r of stale.recs) if (String(r.displayTitle).startsWith("forge-act ")) await tool(c, "forge-ci", ["cancel", r.id]);
  const all = await tool(c, "forge-ci", ["list", "--limit", "100000", "--json"]);
  const ex = await exportText(c, all.stdout, lane);
  return { worktrees_removed: removed, runs_cancelled: stale.recs.length, ...ex };
}

/**
 * Send JSON lines through forge-export; how many records went and how many
 * were new imports. `lane`: the run's export lane (openLane), which answers
 * them; without one, or when it died, a forge-export of their own (a
 * re-export is a no-op).
 */
async function exportText(c, text, lane = null) {
  const n = text.split("\n").filter((l) => l.trim() !== "").length;
  if (n === 0) return { exports: 0, imports: 0 };
  const a = lane ? await lane.send(text, n) : null;
  const imported = (ls) => ls.filter((l) => JSON.parse(l).status === "imported").length;
  // A note (a run not completed, a merge that wrote no record: "skipped, not evidence") is no failure.
  if (a && !a.partial) return { exports: a.out.length, imports: imported(a.out), failed: a.err.filter((l) => !l.endsWith(": skipped, not evidence")).at(-1) ?? null };
  const r = await tool(c, "forge-export", ["--scope", c.scope], text);
  if (r.code !== 0 && r.code !== 1) throw failure("forge-export", r);
  const recs = parseLines(r.stdout);
  // What a lane that died imported before it did is "already imported" now: counted as its imports.
  const before = a ? imported(a.out) : 0;
  return { exports: recs.length, imports: before + recs.filter((e) => e.status === "imported").length, failed: r.code !== 0 ? r.stderr.trim().split("\n").pop() : null };
}

/** How long the lane may take to answer a batch before it is given up (killed) and the batch sent through a forge-export of its own. */
const LANE_ANSWER_MS = 300_000;

/**
 * The run's export lane: one forge-export for the whole loop, kept open.
 * Its start-up, its read of the import log and its compile of the fold are
 * done once, while the pick-up runs, at a lower CPU priority (nice 10:
 * observe | plan is the iteration's critical path), not again in every
 * iteration beside observe and plan. It answers each line it is sent
 * (an import-log line on stdout, or a `stdin line N:` line on stderr), with
 * forge-observe's kernel view kept current before it answers (spec/evidence.md
 * §6), so the next observation reads it. `send` resolves with a batch's
 * answers, `partial` when the lane died (a signal, a crash) or went silent
 * before it answered them all, or null when it was dead already; `dead`
 * says so, and the loop opens another. Closed whatever happens.
 */
function openLane(c) {
  const lane = start(c, "forge-export", ["--scope", c.scope]);
  try {
    if (lane.child.pid !== undefined) setPriority(lane.child.pid, LANE_NICE);
  } catch {
    // gone already, or not ours to lower: it runs as it is
  }
  const got = { out: [], err: [] };
  const rest = { out: "", err: "" };
  let wake = () => undefined;
  let dead = false;
  const feed = (k) => (d) => {
    rest[k] += d.toString("utf8");
    for (let nl = rest[k].indexOf("\n"); nl >= 0; nl = rest[k].indexOf("\n")) {
      const line = rest[k].slice(0, nl);
      rest[k] = rest[k].slice(nl + 1);
      if (k === "out" ? line.trim() !== "" : /^forge-export: stdin line [0-9]+:/.test(line)) got[k].push(line);
    }
    wake();
  };
  lane.child.stdout.on("data", feed("out"));
  lane.child.stderr.on("data", feed("err"));
  lane.done.then(() => {
    dead = true;
    wake();
  });
  return {
    get dead() {
      return dead;
    },
    async send(text, n) {
      if (dead) return null;
      lane.child.stdin.write(text);
      const until = Date.now() + LANE_ANSWER_MS;
      while (got.out.length + got.err.length < n && !dead && Date.now() < until) {
        await new Promise((res) => {
          const t = setTimeout(res, until - Date.now());
          wake = () => {
            clearTimeout(t);
            res();
          };
        });
      }
      wake = () => undefined;
      const answers = { out: got.out.splice(0), err: got.err.splice(0) };
      // Dead, or silent: the batch goes through a forge-export of its own (a re-export is a no-op), after what this one answered.
      if (answers.out.length + answers.err.length < n) {
        lane.child.kill("SIGTERM");
        return { ...answers, partial: true };
      }
      return answers;
    },
    close() {
      lane.child.stdin.end();
      return lane.done;
    },
  };
}

// --- one iteration's pieces ---

function planArgs(c) {
  // Relative to the workspace: forge-plan joins --history onto its cwd (an absolute path would be lost).
  const a = ["--json", "--history", relative(c.workspace, historyFile(c)) || ".", "--threshold", String(c["halt-threshold"]), "--max-retries", String(c["max-retries"])];
  if (c["allow-advisory-only"]) a.push("--allow-advisory-only");
  return a;
}

/**
 * The loop's own bounds on an oracle plan (forge-plan has no flags for
 * them): delta parity checks at most `--oracle-max-iterations` imports, the
 * refuters remove at most `--minimal-perturbation-budget` supports.
 */
export function bounded(c, p) {
  const params = { ...(p.params ?? {}) };
  if (p.plan_kind === "OracleDeltaParity") params.max_iterations = Math.min(Number(params.max_iterations ?? Infinity), c["oracle-max-iterations"]);
  if (p.plan_kind === "OracleCausalRefuter" || p.plan_kind === "OracleMinimalPerturbation") {
    params.max_removed_nodes = Math.min(Number(params.max_removed_nodes ?? Infinity), c["minimal-perturbation-budget"]);
  }
  return { ...p, params };
}

async function observe(c) {
  const r = await lines(c, "forge-observe", ["--json", "--scope", c.scope]);
  return r.recs;
}

/**
 * `forge-observe --json | forge-plan --json`, as a pipe: forge-plan starts
 * while the store is observed, and reads the observation as it is written.
 * The observation's lines are kept too (the report reads them).
 */
async function observeAndPlan(c) {
  const o = start(c, "forge-observe", ["--json", "--scope", c.scope]);
  const p = start(c, "forge-plan", planArgs(c));
  o.child.stdin.end();
  o.child.stdout.on("data", (d) => p.child.stdin.write(d));
  o.child.stdout.on("end", () => p.child.stdin.end());
  const [ro, rp] = await Promise.all([o.done, p.done]);
  if (ro.code !== 0) throw failure("forge-observe", ro);
  if (rp.code !== 0) throw failure("forge-plan", rp);
  const recs = parseLines(rp.stdout);
  const decision = recs.find((x) => x.kind === "plan" || x.kind === "halt") ?? { kind: "halt", reason: "nothing_worth_investigating", detail: "forge-plan printed no plan" };
  return { obs: parseLines(ro.stdout), targets: recs.filter((x) => x.kind === "target"), decision };
}

/** The canonical JSON of a plan without its free-text fields: what a refinement must leave alone. */
function fixedPart(p) {
  const o = { ...p };
  for (const k of FREE_TEXT) delete o[k];
  return canonical(o);
}

function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

/**
 * `--refine-with CMD`: CMD (split on spaces, no shell) reads the plan line
 * and prints one; only description, rationale and check_hints may differ.
 * @returns the plan to run and, when the refinement was refused, why
 */
export async function refine(c, p) {
  const [cmd, ...args] = c["refine-with"].trim().split(/\s+/);
  const r = await tool(c, cmd, args, JSON.stringify(p) + "\n");
  let q;
  try {
    q = JSON.parse(r.stdout.trim().split("\n").pop() ?? "");
  } catch {
    q = null;
  }
  if (r.code !== 0 || !q || typeof q !== "object") return { plan: p, discarded: `refinement discarded: ${cmd} exited ${r.code} or printed no plan line` };
  const bad = [...new Set([...Object.keys(p), ...Object.keys(q)])].filter((k) => !FREE_TEXT.includes(k) && canonical(p[k]) !== canonical(q[k])).sort();
  const typesOk = typeof (q.description ?? "") === "string" && typeof (q.rationale ?? "") === "string" && Array.isArray(q.check_hints ?? []) && (q.check_hints ?? []).every((h) => typeof h === "string");
  if (bad.length > 0 || !typesOk || fixedPart(p) !== fixedPart(q)) return { plan: p, discarded: `refinement discarded: it changed ${bad.length ? bad.join(", ") : "a free-text field's type"} (only ${FREE_TEXT.join(", ")} may change)` };
  return { plan: { ...p, description: q.description ?? p.description, rationale: q.rationale ?? p.rationale, check_hints: q.check_hints ?? p.check_hints }, discarded: null };
}

async function act(c, p, deadlineMs) {
  const args = ["--json", "--deadline-ms", String(deadlineMs)];
  if (c["allow-advisory-only"]) args.push("--allow-advisory-only");
  const r = await tool(c, "forge-act", args, JSON.stringify({ ...p, budget: { ...(p.budget ?? {}), deadline_ms: deadlineMs } }) + "\n");
  const recs = r.stdout.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  return { result: recs.find((x) => x.kind === "act_result") ?? null, code: r.code, stderr: r.stderr };
}

/**
 * The completed CI runs created at or after `since` (an ISO second), newest
 * first: forge-ci lists newest first, so the window grows until it reaches
 * an older run. Every run an act made is one of them, whether its result
 * names it or not (an act that failed, a batch cut short by a broken tree).
 */
async function runsSince(c, since) {
  for (let k = 64; ; k *= 4) {
    const r = await lines(c, "forge-ci", ["list", "--limit", String(k), "--json"]);
    const last = r.recs[r.recs.length - 1];
    if (r.recs.length < k || !last || String(last.createdAt) < since) return r.recs.filter((x) => String(x.createdAt) >= since && x.status === "completed");
  }
}

/** Export the CI runs an act made (every completed run since it started: a re-export is a no-op), then its result. */
async function exportAct(c, result, startedMs, lane = null) {
  const since = new Date(startedMs).toISOString().slice(0, 19) + "Z";
  const recs = (await runsSince(c, since)).map((x) => JSON.stringify(x));
  // One forge-export: the runs first (a result refers to them), then the result.
  if (result) recs.push(JSON.stringify(result));
  return exportText(c, recs.length ? recs.join("\n") + "\n" : "", lane);
}

// --- the loop ---

/** The loop (seed §14): the report, whatever made it stop. */
async function runLoop(c, signals) {
  const t0 = Date.now();
  let deadline = t0 + c["time-budget"] * 1000;
  const rep = {
    kind: "report", schema_version: "forge-pilot-report/v1", iterations: 0, actions_executed: 0, exports: 0, imports: 0, halt_reason: null, halt_detail: "",
    targets_investigated: [], degraded_iterations: 0, elapsed_seconds: 0, advisory_steps: 0, deadline_overruns: [], refinements_discarded: [],
    act_errors: [], recovered: null, findings: [],
    config: Object.fromEntries(Object.entries(c).filter(([k]) => k !== "workspace" && k !== "json")),
  };
  const results = [];
  let lastTargets = [];
  let firstTargets = null;
  const halt = (reason, detail) => {
    rep.halt_reason = reason;
    rep.halt_detail = detail;
  };
  const external = () => signals.stop || existsSync(join(pilotDir(c), "halt"));
  // The run's lane opens first: its start-up and its read of the import log run while the pick-up looks for
  // what a kill left, and it exports what the pick-up finds (answering once its read is done), so the first
  // iteration finds it ready, as every later one does.
  let lane = openLane(c);
  try {
    rep.recovered = await recover(c, lane);
    rep.exports += rep.recovered.exports;
    rep.imports += rep.recovered.imports;
    // The budget is the loop's: it starts once the pick-up after a kill is done (elapsed_seconds counts both).
    deadline = Date.now() + c["time-budget"] * 1000;
    for (;;) {
      if (external()) {
        halt("external_halt", signals.stop ? `signal ${signals.stop}` : ".forge/pilot/halt exists");
        break;
      }
      if (rep.iterations >= c["max-iterations"]) {
        halt("max_iterations_reached", `${rep.iterations} iterations`);
        break;
      }
      if (Date.now() >= deadline) {
        halt("time_budget_exhausted", `${c["time-budget"]} s spent`);
        break;
      }
      if (lane.dead) lane = openLane(c);
      if (await iteration(lane)) break;
      if (c.cooldown > 0 && !external()) await sleep(c.cooldown * 1000);
    }
  } finally {
    await lane.close();
  }
  /** One iteration; true when the loop halts. */
  async function iteration(lane) {
    const { obs, targets, decision } = await observeAndPlan(c);
    const head = obs.find((o) => o.kind === "observation");
    if (head && (head.markers ?? []).length > 0) rep.degraded_iterations++;
    lastTargets = targets;
    firstTargets ??= targets;
    if (decision.kind === "halt") {
      halt(HALTS.includes(decision.reason) ? decision.reason : "nothing_worth_investigating", decision.detail ?? "");
      return true;
    }
    rep.iterations++;
    let p = decision;
    if (c["refine-with"]) {
      const r = await refine(c, p);
      p = r.plan;
      if (r.discarded) rep.refinements_discarded.push({ iteration: rep.iterations, why: r.discarded });
    }
    p = bounded(c, p);
    const started = Date.now();
    const a = await act(c, p, deadline);
    const res = a.result;
    if (!res && a.code === 2) throw new RuntimeError(`forge-act refused the plan line: ${(a.stderr.trim().split("\n").pop() ?? "").slice(0, 300)}`);
    if (!res) {
      // The runs it finished are trials all the same: exported, never lost.
      const ex = await exportAct(c, null, started, lane);
      rep.exports += ex.exports;
      rep.imports += ex.imports;
      rep.act_errors.push({ iteration: rep.iterations, target_key: p.target_key, why: (a.stderr.trim().split("\n").pop() ?? `exit ${a.code}`).slice(0, 300) });
      appendHistory(c, [{ target_key: p.target_key, plan_kind: p.plan_kind, plan_id: p.plan_id, act_id: null, outcome_signature: `error:exit${a.code}`, recorded_at: new Date().toISOString().slice(0, 19) + "Z" }]);
      process.stderr.write(`${PROG}: ${rep.iterations}: ${p.target_key} ${p.plan_kind} → error (${(a.stderr.trim().split("\n").pop() ?? "").slice(0, 120)})\n`);
      return false;
    }
    rep.actions_executed++;
    if (res.advisory) rep.advisory_steps++;
    if (!rep.targets_investigated.includes(p.target_key)) rep.targets_investigated.push(p.target_key);
    if (res.deadline_overrun_ms > 0) rep.deadline_overruns.push({ iteration: rep.iterations, target_key: p.target_key, overrun_ms: res.deadline_overrun_ms });
    results.push(res);
    const ex = await exportAct(c, res, started, lane);
    rep.exports += ex.exports;
    rep.imports += ex.imports;
    appendHistory(c, [{ target_key: p.target_key, plan_kind: p.plan_kind, plan_id: p.plan_id, act_id: res.id, outcome_signature: res.outcome_signature, recorded_at: res.completed_at }]);
    process.stderr.write(`${PROG}: ${rep.iterations}: ${p.target_key} ${p.plan_kind} → ${res.outcome_signature}${res.stop && res.stop !== "done" && res.stop !== "decided" ? ` (${res.stop})` : ""} ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    if (res.parity_violation) {
      halt("parity_violation", `delta parity failed (act ${res.id}): the evidence store disagrees with itself`);
      return true;
    }
    return false;
  }
  const final = await observe(c).catch(() => []);
  const numbers = await lines(c, "forge-issue", ["list", "--state", "all", "--limit", "100000", "--json", "id,number"]).catch(() => ({ recs: [] }));
  rep.findings = findings(final, results, lastTargets, new Map(numbers.recs.map((i) => [i.id, i.number])), firstTargets ?? []);
  rep.elapsed_seconds = Math.round((Date.now() - t0) / 100) / 10;
  if (Date.now() > deadline) rep.deadline_overruns.push({ iteration: rep.iterations, target_key: null, overrun_ms: Date.now() - deadline });
  return rep;
}

// --- rendering ---

function formatReport(r) {
  const l = [`${PROG}: halted: ${r.halt_reason}${r.halt_detail ? ` (${r.halt_detail})` : ""}`,
    `iterations ${r.iterations}, actions ${r.actions_executed} (advisory ${r.advisory_steps}), exports ${r.exports}, imports ${r.imports}, degraded ${r.degraded_iterations}, ${r.elapsed_seconds} s`];
  if (r.targets_investigated.length) l.push(`targets investigated: ${r.targets_investigated.length}`);
  for (const o of r.deadline_overruns) l.push(`deadline overrun: ${o.overrun_ms} ms${o.target_key ? ` (${o.target_key})` : ""}`);
  for (const d of r.refinements_discarded) l.push(`${d.why} (iteration ${d.iteration})`);
  for (const e of r.act_errors) l.push(`act error: ${e.target_key}: ${e.why}`);
  if (r.findings.length) l.push("findings:", ...r.findings.map((f) => `  ${f}`));
  return l.join("\n") + "\n";
}

function formatExplain(targets, decision) {
  const l = targets.map((t, i) => `${i + 1}. ${(t.urgency_micros / 1e6).toFixed(3)} ${t.key} (${t.target_kind}) → ${t.plan_kind ?? "-"}${t.exhausted ? `, exhausted: ${t.exhausted_why ?? ""}` : ""}${t.attempts ? `, ${t.attempts} attempts` : ""}`);
  if (decision.kind === "plan") l.push(`plan: ${decision.plan_kind} on ${decision.target_key}${decision.advisory ? " (advisory)" : ""}`, `  ${decision.description ?? ""}`, `  why: ${decision.rationale ?? ""}`);
  else l.push(`halt: ${decision.reason}${decision.detail ? ` (${decision.detail})` : ""}`);
  return l.join("\n") + "\n";
}

// --- main ---

async function main(argv) {
  if (argv[0] === "-v" || argv[0] === "--version") return void process.stdout.write(`${PROG} ${VERSION}\n`);
  if (argv.length === 0 || argv.includes("-h")) return void process.stdout.write(SHORT);
  if (argv.includes("--help")) return void process.stdout.write(LONG);
  const { verb, c } = parseArgv(argv);
  const top = await tool(c, "git", ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0) throw new RuntimeError("not in a git repository (the loop runs checks in worktrees of its commits)");
  if (!existsSync(join(c.workspace, ".forge"))) throw new RuntimeError(`no .forge/ in ${c.workspace} (run 'forge init')`);
  const out = (s) => process.stdout.write(s);
  if (verb === "observe") {
    const obs = await observe(c);
    if (c.json) return void out(obs.map((o) => JSON.stringify(o)).join("\n") + "\n");
    const h = obs.find((o) => o.kind === "observation") ?? {};
    const kinds = {};
    for (const o of obs) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
    return void out(`scope ${h.scope ?? c.scope} at ${String(h.base_sha ?? "").slice(0, 12)}: ${Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(", ")}${(h.markers ?? []).length ? `; degraded: ${h.markers.join(" ")}` : ""}\n`);
  }
  if (verb === "plan" || verb === "explain") {
    const { targets, decision } = await observeAndPlan(c);
    if (c.json) return void out([...targets, decision].map((o) => JSON.stringify(o)).join("\n") + "\n");
    return void out(verb === "explain" ? formatExplain(targets, decision) : decision.kind === "plan" ? `${decision.plan_kind} ${decision.target_key}: ${decision.description ?? ""}\n` : `halt: ${decision.reason}\n`);
  }
  const signals = { stop: null };
  const onSignal = (s) => {
    signals.stop = s;
    for (const ch of children) ch.kill("SIGTERM");
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  const unlock = takeLock(c);
  try {
    const rep = await runLoop(c, signals);
    out(c.json ? JSON.stringify(rep) + "\n" : formatReport(rep));
    process.exitCode = rep.halt_reason === "external_halt" && signals.stop ? 128 + 15 : 0;
  } finally {
    unlock();
  }
}

main(process.argv.slice(2)).catch((err) => {
  if (err instanceof UsageError) {
    process.stderr.write(`${PROG}: ${err.message} (see '${PROG} -h')\n`);
    process.exitCode = 2;
  } else if (err instanceof RuntimeError) {
    process.stderr.write(`${PROG}: ${err.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`${PROG}: ${String(err?.message ?? err).split("\n")[0].slice(0, 300)}\n`);
    process.exitCode = 1;
  }
});
