/**
 * make and cron, as the README shows them: its Makefile (copied out of
 * README.md, not retyped) run with `make`, and its crontab lines run under
 * cron's environment (`env -i PATH=/usr/bin:/bin HOME=… SHELL=/bin/sh`,
 * `/bin/sh -c`, a new session so no TTY, stdin closed), must give what an
 * interactive shell gives. The pilot target runs only where
 * `bin/forge-pilot` is built; otherwise only the CI target is proved.
 */
import test, { type ExecutionContext } from "ava";
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { BIN, git, run, sh, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The fenced block after `<!-- test: NAME -->` in the README. */
function block(name: string): string {
  const at = README.indexOf(`<!-- test: ${name} -->\n`);
  if (at < 0) throw new Error(`README.md has no '<!-- test: ${name} -->' block`);
  const open = README.indexOf("\n", README.indexOf("```", at)) + 1;
  return README.slice(open, README.indexOf("\n```", open) + 1);
}

const MAKEFILE = block("makefile");
const CRONTAB = block("crontab")
  .split("\n")
  .filter((l) => l.trim() !== "" && !l.startsWith("#"));

/** A crontab line's command (what follows the five time fields), for the target it makes. */
function cronCommand(target: string): string {
  const line = CRONTAB.find((l) => new RegExp(`\\bmake -s ${target}\\b`).test(l));
  if (!line) throw new Error(`README.md's crontab has no line for 'make -s ${target}'`);
  const m = /^(?:\S+\s+){5}(.+)$/.exec(line);
  if (!m) throw new Error(`not a crontab line: ${line}`);
  return m[1]!;
}

/**
 * A HOME with `forge/bin` (this clone's bin/) and `project/`: a repo with a store, one CI step and the README's
 * Makefile.
 */
function home(step: string): { home: string; project: string } {
  const h = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-cron-home-"))));
  mkdirSync(join(h, "forge"));
  symlinkSync(BIN, join(h, "forge", "bin"));
  const project = join(h, "project");
  mkdirSync(project);
  git(project, ["init", "-q", "-b", "main"]);
  git(project, ["config", "user.name", "alice"]);
  git(project, ["config", "user.email", "alice@example.com"]);
  writeFileSync(join(project, "Makefile"), MAKEFILE);
  writeFileSync(join(project, ".gitignore"), "reports/\n");
  writeFileSync(join(project, "app.txt"), "broken\n");
  mkdirSync(join(project, ".forge", "ci", "steps"), { recursive: true });
  writeFileSync(join(project, ".forge", "ci", "steps", "10-test"), `#!/bin/sh\n${step}\n`);
  chmodSync(join(project, ".forge", "ci", "steps", "10-test"), 0o755);
  return { home: h, project };
}

async function init(t: ExecutionContext, project: string): Promise<void> {
  const r = await run("forge", ["init"], { cwd: project });
  t.is(r.code, 0, r.stderr);
  git(project, ["add", "-A"]);
  git(project, ["commit", "-qm", "initial"]);
}

async function pr(t: ExecutionContext, project: string, branch: string, text: string): Promise<void> {
  git(project, ["checkout", "-qb", branch]);
  writeFileSync(join(project, "app.txt"), text);
  git(project, ["commit", "-qam", `${branch}: app`]);
  const r = await run("forge-pr", ["create", "-t", branch, "-b", "", "-B", "main", "-H", branch], { cwd: project });
  t.is(r.code, 0, r.stderr);
  git(project, ["checkout", "-q", "main"]);
}

/** Run a crontab command as cron does: a clean environment, /bin/sh, a new session (no TTY), stdin closed. */
function asCron(h: string, command: string): Promise<Ran> {
  return new Promise((res, rej) => {
    const env = ["PATH=/usr/bin:/bin", `HOME=${h}`, "SHELL=/bin/sh", `LOGNAME=${userInfo().username}`];
    const child = spawn("/usr/bin/env", ["-i", ...env, "/bin/sh", "-c", command], {
      cwd: "/",
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", rej);
    child.on("close", (code, signal) => res({ stdout, stderr, code, signal }));
  });
}

/** What a CI report says, without run numbers, ids and times: per PR, its verdict and steps. */
function ciResults(file: string): unknown[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const r = JSON.parse(l) as {
        pr: { number: number };
        verdict: string;
        conclusion: string;
        steps: Array<{ name: string; outcome: string; exitCode: number | null }>;
      };
      return {
        pr: r.pr.number,
        verdict: r.verdict,
        conclusion: r.conclusion,
        steps: r.steps.map((s) => [s.name, s.outcome, s.exitCode]),
      };
    });
}

test(
  "the README's make ci target, run from cron's environment, " + "gives what it gives from an interactive shell",
  async (t) => {
    const { home: h, project } = home('grep -q fixed app.txt || { echo "app.txt: expected fixed"; exit 1; }');
    await init(t, project);
    await pr(t, project, "fix", "fixed\n");
    await pr(t, project, "wrong", "still broken\n");
    const report = join(project, "reports", "ci.jsonl");

    const shell = await sh("make -s ci", { cwd: project, env: { HOME: h } });
    t.is(shell.code, 2, "make fails: one PR is red");
    const fromShell = ciResults(report);
    t.deepEqual(fromShell, [
      { pr: 2, verdict: "fail", conclusion: "failure", steps: [["10-test", "fail", 1]] },
      { pr: 1, verdict: "pass", conclusion: "success", steps: [["10-test", "pass", 0]] },
    ]);
    renameSync(report, report + ".shell");

    const cron = await asCron(h, cronCommand("ci"));
    const log = readFileSync(join(h, "forge-cron.log"), "utf8");
    t.is(cron.code, shell.code, log);
    t.false(/not found|No such file|tty/i.test(log), log);
    t.deepEqual(ciResults(report), fromShell, "cron's run gives the same results");
  }
);

test(
  "the README's make pilot target from cron's environment, as from an interactive shell (only where " +
    "bin/forge-pilot is built)",
  async (t) => {
    if (!existsSync(join(BIN, "forge-pilot"))) {
      t.log("bin/forge-pilot is not built in this tree: the pilot target is not run (the CI target is)");
      t.pass();
      return;
    }
    t.timeout(600_000);
    const { home: h, project } = home("true");
    await init(t, project);
    const shell = await sh("make -s pilot", { cwd: project, env: { HOME: h } });
    const reports = (): string[] =>
      readdirSync(join(project, "reports"))
        .filter((n) => n.startsWith("pilot-"))
        .sort();
    t.is(reports().length, 1, shell.stderr);
    const first = reports()[0]!;
    const shellReport = JSON.parse(
      readFileSync(join(project, "reports", first), "utf8")
        .trim()
        .split("\n")
        .at(-1)!
    ) as Record<string, unknown>;
    renameSync(join(project, "reports", first), join(project, "reports", "shell-" + first));
    // Report names are per second: make sure cron's run gets its own.
    await new Promise((res) => setTimeout(res, 1100));
    const cron = await asCron(h, cronCommand("pilot"));
    t.is(cron.code, shell.code, readFileSync(join(h, "forge-cron.log"), "utf8"));
    const mine = reports().filter((n) => !n.startsWith("shell-"));
    t.is(mine.length, 1);
    const cronReport = JSON.parse(
      readFileSync(join(project, "reports", mine[0]!), "utf8")
        .trim()
        .split("\n")
        .at(-1)!
    ) as Record<string, unknown>;
    t.deepEqual(Object.keys(cronReport).sort(), Object.keys(shellReport).sort());
    for (const k of ["kind", "halt_reason", "haltReason", "halt"])
      if (k in shellReport) t.deepEqual(cronReport[k], shellReport[k], k);
  }
);
