/**
 * A sample repository with planted defects, made by driving the built
 * executables (`bin/`) the way a user would: `forge init`, CI steps in
 * `.forge/ci/steps/`, issues, PRs, CI runs exported through `forge-export`
 * with `.forge/` commits between them. Used by the loop's tests (observe,
 * plan, act, pilot) and by the README demo.
 *
 * Planted, at the base branch `main`:
 * - `10-unit` passes; `20-integration` always fails with one message (a
 *   stable failure) and has an open issue and a **fix PR** that closes it
 *   and makes the step pass;
 * - `30-net` is **flaky**: exactly one invocation in each block of five
 *   fails, at a position that is a deterministic function of the seed and
 *   the block (so ~20 %, and any six consecutive base runs hold at least
 *   one failure and four passes). The invocation counter lives outside the
 *   repository (`stateDir`), updated under a lock (runs may be parallel);
 * - a **regressing PR** breaks `10-unit`;
 * - an **updated PR**: CI ran on its first patch, then its branch moved and
 *   `forge-pr update` replaced the patch (`previousPatchSha256` set);
 * - an issue **closed as fixed with no evidence** (no PR, no merge, no claim);
 * - the last base run's `10-unit` **log deleted** (its record stays).
 *
 * Base runs use `--continue-on-error` (default CI is fail-fast: `30-net`
 * would be skipped behind the failing `20-integration`). Every subprocess
 * is an argv array.
 *
 * CLI: `node tools/dist/sample_repo.js <dir> [seed]` prints the SampleInfo as JSON.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Options of `makeSampleRepo`. */
export interface SampleOptions {
  /** Decides where in each block of five the flaky step fails (default 1). */
  seed?: number;
  /** The built executables (default: the repository's `bin/`). */
  binDir?: string;
  /** Where the flaky step's counter lives, outside the repo (default `<dir>.state`). */
  stateDir?: string;
  /** How many base runs (default 6; at least 6 keeps the flaky check mixed). */
  baseRuns?: number;
  /** Extra environment for every command (e.g. FORGE_AUTHOR). */
  env?: Record<string, string | undefined>;
}

/** A PR of the sample. */
export interface SamplePr {
  id: string;
  number: number;
  branch: string;
  patchSha256: string;
}

/** What the sample holds, for assertions. */
export interface SampleInfo {
  dir: string;
  stateDir: string;
  seed: number;
  /** The step names, in run order. */
  steps: { unit: string; integration: string; net: string };
  issues: {
    /** Open: the stable failure of `20-integration`. */
    stable: { id: string; number: number };
    /** Closed with a comment "fixed", nothing behind it. */
    closedNoEvidence: { id: string; number: number };
  };
  prs: {
    /** Closes `issues.stable`, makes `20-integration` pass. */
    fix: SamplePr;
    /** Breaks `10-unit`. */
    regress: SamplePr;
    /** Patch replaced once: `previousPatchSha256` is `[previous]`. */
    updated: SamplePr & { previousPatchSha256: string };
  };
  /**
   * Run ids: base runs in the order they rank (createdAt, id), then the PR runs (fix, regress, updated's first patch).
   */
  runs: { base: string[]; pr: { fix: string; regress: string; updatedFirst: string } };
  /** The run and step whose log was deleted. */
  deletedLog: { runId: string; step: string };
  /** main's tip commit at the end. */
  headSha: string;
  /** How many times the flaky step ran while making the sample. */
  netInvocations: number;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const UNIT = "10-unit";
const INTEGRATION = "20-integration";
const NET = "30-net";

/**
 * Build the sample repository in `dir` (created; must not exist or be empty).
 * @throws Error when a command fails (its stderr in the message)
 */
export async function makeSampleRepo(dir: string, opts: SampleOptions = {}): Promise<SampleInfo> {
  const seed = opts.seed ?? 1;
  const bin = resolve(opts.binDir ?? join(ROOT, "bin"));
  const stateDir = resolve(opts.stateDir ?? `${dir}.state`);
  const baseRuns = opts.baseRuns ?? 6;
  mkdirSync(dir, { recursive: true });
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FORGE_AUTHOR: "sample",
    NO_COLOR: "1",
    GIT_CONFIG_NOSYSTEM: "1",
    ...opts.env,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
  };
  delete env.FORGE_DIR;
  const sh = (cmd: string, args: string[], input?: string, red = false): string => {
    try {
      return execFileSync(cmd.startsWith("forge") ? join(bin, cmd) : cmd, args, {
        cwd: dir,
        env,
        input: input ?? "",
        encoding: "utf8",
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; status?: number };
      // A red CI run exits 1: an outcome, not a failure of the sample.
      if (red && e.status === 1 && e.stdout) return e.stdout;
      throw new Error(
        `sample repo: ${cmd} ${args.join(" ")} exited ${e.status ?? "?"}: ${String(e.stderr ?? "")
          .trim()
          .slice(0, 400)}`
      );
    }
  };
  const json = (out: string): Record<string, unknown> =>
    JSON.parse(out.trim().split("\n").pop()!) as Record<string, unknown>;
  const commitStore = (msg: string): void => {
    sh("git", ["add", "-A", ".forge"]);
    sh("git", ["commit", "-q", "--allow-empty", "-m", msg]);
  };

  sh("git", ["init", "-q", "-b", "main"]);
  sh("git", ["config", "user.name", "sample"]);
  sh("git", ["config", "user.email", "sample@example.com"]);
  sh("git", ["config", "commit.gpgsign", "false"]);
  sh("forge", ["init"]);
  writeSteps(dir, stateDir, seed);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "src", "unit.txt"), "unit ok\n");
  writeFileSync(join(dir, "src", "integration.txt"), "integration broken\n");
  writeFileSync(join(dir, "README.md"), "# sample\n\nA repository with planted defects for forge's loop.\n");
  sh("git", ["add", "-A"]);
  sh("git", ["commit", "-q", "-m", "app and CI steps"]);

  const stable = json(
    sh("forge-issue", [
      "create",
      "-t",
      "20-integration fails: connection refused",
      "-l",
      "bug",
      "-b",
      "The integration step fails on main.",
      "--json",
      "id,number",
    ])
  );
  const crash = json(sh("forge-issue", ["create", "-t", "Crash on startup", "-l", "bug", "--json", "id,number"]));
  sh("forge-issue", ["close", String(crash.number), "-c", "fixed"]);
  commitStore("forge: issues");

  // Base runs, two at a time, exported after each pair, the store committed between pairs:
  // HEAD moves, the code tree does not.
  const base: string[] = [];
  for (let i = 0; i < baseRuns; i += 2) {
    const n = Math.min(2, baseRuns - i);
    const outs = await Promise.all(
      Array.from({ length: n }, () => forgeCi(bin, dir, env, ["run", "--continue-on-error", "--json", "id,createdAt"]))
    );
    // In the order runs rank: (createdAt, id).
    base.push(
      ...outs
        .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
        .map((o) => o.id)
    );
    sh("forge-export", [], sh("forge-ci", ["list", "--json"]));
    commitStore(`forge: evidence of base runs ${i + 1}-${i + n}`);
  }

  // The PRs, each from a branch of main.
  const prOf = (branch: string, title: string, files: Record<string, string>, extra: string[] = []): SamplePr => {
    sh("git", ["checkout", "-q", "-b", branch, "main"]);
    for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
    sh("git", ["add", "-A", "src"]);
    sh("git", ["commit", "-q", "-m", title]);
    sh("git", ["checkout", "-q", "main"]);
    const pr = json(
      sh("forge-pr", ["create", "-t", title, "-B", "main", "-H", branch, ...extra, "--json", "id,number,patchSha256"])
    );
    return { id: pr.id as string, number: pr.number as number, branch, patchSha256: pr.patchSha256 as string };
  };
  const fix = prOf("fix-integration", "Fix the integration endpoint", { "src/integration.txt": "integration ok\n" }, [
    "--issue",
    String(stable.number),
  ]);
  const regress = prOf("tidy-unit", "Tidy the unit module", { "src/unit.txt": "unit broken\n" });
  const first = prOf("feature-cache", "Add a cache", { "src/cache.txt": "cache v1\n" });
  commitStore("forge: pull requests");
  // One at a time, in a fixed order, so the flaky step's counter values land on the same runs every time.
  const byPr = new Map<string, string>();
  for (const pr of [regress, fix, first]) {
    const r = json(sh("forge-ci", ["run", String(pr.number), "--continue-on-error", "--json", "id"], undefined, true));
    byPr.set(pr.id, r.id as string);
  }
  sh("forge-export", [], sh("forge-ci", ["list", "--json"]));
  commitStore("forge: evidence of the PR runs");
  // The cache branch moves on; its PR gets the new patch.
  sh("git", ["checkout", "-q", "feature-cache"]);
  writeFileSync(join(dir, "src", "cache.txt"), "cache v2\n");
  sh("git", ["commit", "-q", "-am", "Cache: second take"]);
  sh("git", ["checkout", "-q", "main"]);
  const upd = json(sh("forge-pr", ["update", String(first.number), "--json", "patchSha256,previousPatchSha256"]));
  commitStore("forge: the updated cache patch");

  // The last base run loses a log (its record and its export stay).
  const last = base[base.length - 1]!;
  const log = join(dir, ".forge", "ci", "runs", last, "steps", `${UNIT}.log`);
  if (!existsSync(log)) throw new Error(`sample repo: no log ${log} to delete`);
  rmSync(log);

  const counter = join(stateDir, "counter");
  return {
    dir,
    stateDir,
    seed,
    steps: { unit: UNIT, integration: INTEGRATION, net: NET },
    issues: {
      stable: { id: stable.id as string, number: stable.number as number },
      closedNoEvidence: { id: crash.id as string, number: crash.number as number },
    },
    prs: {
      fix,
      regress,
      updated: {
        ...first,
        patchSha256: upd.patchSha256 as string,
        previousPatchSha256: (upd.previousPatchSha256 as string[])[0]!,
      },
    },
    runs: { base, pr: { fix: byPr.get(fix.id)!, regress: byPr.get(regress.id)!, updatedFirst: byPr.get(first.id)! } },
    deletedLog: { runId: last, step: UNIT },
    headSha: sh("git", ["rev-parse", "HEAD"]).trim(),
    netInvocations: existsSync(counter) ? Number(execFileSync("cat", [counter], { encoding: "utf8" }).trim()) : 0,
  };
}

/**
 * Whether the flaky step's invocation `i` fails: one failure per block of
 * five, at position hash(seed, block) mod 5 (FNV-1a, 32 bits).
 */
export function netFails(seed: number, i: number): boolean {
  const block = Math.floor(i / 5);
  let h = 0x811c9dc5;
  for (const c of `${seed}:${block}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return i % 5 === h % 5;
}

/** The three steps; the flaky one is a node script with the state folder and seed written in. */
function writeSteps(dir: string, stateDir: string, seed: number): void {
  const steps = join(dir, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  writeFileSync(
    join(steps, UNIT),
    '#!/bin/sh\ngrep -q "unit ok" src/unit.txt || { echo "unit: expected ok in src/unit.txt"; exit 1; }\necho "unit: ' +
      'ok"\n',
    { mode: 0o755 }
  );
  writeFileSync(
    join(steps, INTEGRATION),
    '#!/bin/sh\ngrep -q "integration ok" src/integration.txt || { echo "integration: connect to 127.0.0.1:5432 ' +
      'refused (pid $$)"; exit 1; }\necho "integration: ok"\n',
    { mode: 0o755 }
  );
  // process.getBuiltinModule: works whether node reads this file as CommonJS or ESM.
  const net = `#!${process.execPath}
const fs = process.getBuiltinModule("node:fs");
const path = process.getBuiltinModule("node:path");
const STATE = ${JSON.stringify(stateDir)};
const SEED = ${JSON.stringify(seed)};
${netFails.toString()}
const lock = path.join(STATE, "lock");
const sleep = new Int32Array(new SharedArrayBuffer(4));
for (let t = 0; ; t++) {
  try { fs.mkdirSync(lock); break; } catch (e) {
    if (e.code !== "EEXIST" || t > 5000) { console.log("net: cannot take the counter lock"); process.exit(3); }
    Atomics.wait(sleep, 0, 0, 2);
  }
}
let i = 0;
try {
  const file = path.join(STATE, "counter");
  i = fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : 0;
  fs.writeFileSync(file + ".tmp", String(i + 1));
  fs.renameSync(file + ".tmp", file);
} finally { fs.rmdirSync(lock); }
if (netFails(SEED, i)) { console.log("net: connection reset by peer after " + (100 + i) + " ms"); process.exit(1); }
console.log("net: ok");
`;
  writeFileSync(join(steps, NET), net, { mode: 0o755 });
}

/** `forge-ci …` asynchronously (runs may overlap); CI exits 1 on a red run, which is an outcome here. */
function forgeCi(
  bin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[]
): Promise<{ id: string; createdAt: string }> {
  return new Promise((res, rej) => {
    const child = spawn(join(bin, "forge-ci"), args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", rej);
    child.on("close", (code) => {
      if (code !== 0 && code !== 1)
        return rej(new Error(`sample repo: forge-ci ${args.join(" ")} exited ${code}: ${err.trim().slice(0, 400)}`));
      try {
        res(JSON.parse(out.trim()) as { id: string; createdAt: string });
      } catch {
        rej(new Error(`sample repo: forge-ci ${args.join(" ")} printed no run: ${err.trim().slice(0, 400)}`));
      }
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [dir, seed] = process.argv.slice(2);
  if (!dir) {
    process.stderr.write("usage: node tools/dist/sample_repo.js <dir> [seed]\n");
    process.exit(2);
  }
  writeFileSync(1, `${JSON.stringify(await makeSampleRepo(resolve(dir), { seed: seed ? Number(seed) : 1 }))}\n`);
}
