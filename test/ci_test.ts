/**
 * forge-ci end to end on real git repositories: steps in filename order,
 * fail-fast, disposable worktrees (the live checkout untouched), PR runs and
 * the PR's verdict, concurrent runs from stdin, timeouts and cancels that
 * leave no process behind, failure signatures, rerun on the same tree, the
 * Docker posture, logs, list/view JSON.
 */
import test, { type ExecutionContext } from "ava";
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseEnv, BIN, git, jsonl, run, sh, tempRepo, type Ran } from "./lib/run.js";
import { golden } from "./lib/golden.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

interface RunJson {
  databaseId: number;
  id: string;
  verdict: string;
  status: string;
  conclusion: string;
  headSha: string;
  patchSha256: string | null;
  envSha256: string;
  event: string;
  runner: string;
  rerunOf: string | null;
  pr: { id: string; number: number | null } | null;
  steps: Array<{
    name: string;
    outcome: string;
    exitCode: number | null;
    durationMs: number;
    signature: string | null;
    logSha256: string | null;
  }>;
}

/** A repo with one commit (app.txt says `broken`) and the given steps in .forge/ci/steps/. */
function repo(steps: Record<string, string>, ciEnv?: string): string {
  const dir = scratch(tempRepo("forge-ci-e2e-"));
  writeFileSync(join(dir, "app.txt"), "broken\n");
  setSteps(dir, steps);
  if (ciEnv !== undefined) writeFileSync(join(dir, ".forge", "ci", "ci.env"), ciEnv);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "initial"]);
  return dir;
}

function setSteps(dir: string, steps: Record<string, string>): void {
  const d = join(dir, ".forge", "ci", "steps");
  mkdirSync(d, { recursive: true });
  for (const [name, text] of Object.entries(steps)) {
    writeFileSync(join(d, name), `#!/bin/sh\n${text}\n`);
    chmodSync(join(d, name), 0o755);
  }
}

async function ci(dir: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<Ran> {
  return run("forge-ci", args, { cwd: dir, env, input });
}

function runs(r: Ran): RunJson[] {
  return jsonl(r.stdout) as unknown as RunJson[];
}

/** Processes whose command line contains `mark`. */
function alive(mark: string): string[] {
  try {
    return execFileSync("pgrep", ["-f", mark], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

async function until(
  t: ExecutionContext,
  what: string,
  f: () => boolean | Promise<boolean>,
  ms = 300_000
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await f()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.fail(`timed out waiting for ${what}`);
}

/** A PR from branch `fix` (app.txt says `fixed`), created with forge-pr; back on main. */
async function withPr(
  t: ExecutionContext,
  dir: string,
  branch = "fix",
  text = "fixed\n",
  title = "Fix the app"
): Promise<void> {
  git(dir, ["checkout", "-qb", branch]);
  writeFileSync(join(dir, "app.txt"), text);
  git(dir, ["commit", "-qam", title]);
  const r = await run("forge-pr", ["create", "-t", title, "-b", "", "-B", "main", "-H", branch], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  git(dir, ["checkout", "-q", "main"]);
}

test(
  "run on HEAD: steps in filename order, the first failure " + "stops the run, later steps are skipped and never start",
  async (t) => {
    const marks = scratch(tempRepo("forge-ci-marks-"));
    const dir = repo({
      "10-a": 'echo a >> "$MARKS/order"',
      "20-b": 'echo b >> "$MARKS/order"; echo "no good"; exit 1',
      "30-c": 'echo c >> "$MARKS/order"',
      "README.md": "not a step",
    });
    const r = await ci(dir, ["run", "--json"], { MARKS: marks });
    t.is(r.code, 1, "a red run exits 1");
    const [rec] = runs(r);
    t.like(rec, {
      databaseId: 1,
      verdict: "fail",
      status: "completed",
      conclusion: "failure",
      event: "manual",
      pr: null,
      patchSha256: null,
      runner: "local",
    });
    t.deepEqual(
      rec!.steps.map((s) => [s.name, s.outcome, s.exitCode]),
      [
        ["10-a", "pass", 0],
        ["20-b", "fail", 1],
        ["30-c", "skipped", null],
      ]
    );
    t.is(rec!.headSha, git(dir, ["rev-parse", "HEAD"]).trim());
    t.is(readFileSync(join(marks, "order"), "utf8"), "a\nb\n");
    t.regex(r.stderr, /✓ 10-a pass .*\nX 20-b fail \(exit 1\)/);

    const all = await ci(dir, ["run", "--continue-on-error", "--json"], { MARKS: marks });
    t.is(all.code, 1);
    t.deepEqual(
      runs(all)[0]!.steps.map((s) => s.outcome),
      ["pass", "fail", "pass"]
    );
    t.is(readFileSync(join(marks, "order"), "utf8"), "a\nb\na\nb\nc\n");
  }
);

test("a green run exits 0; no steps at all is exit 1 and one line, never a green run", async (t) => {
  const dir = repo({ "10-ok": "true" });
  const r = await ci(dir, ["run"]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^1\tpass\tci\tmanual\t[0-9a-f]{7}\t\d+\.\d s\n$/);
  // gh has no such case (no workflows, no checks); forge says so rather than pass on nothing checked.
  const empty = repo({});
  const e = await ci(empty, ["run", "--json", "verdict,steps"]);
  t.is(e.code, 1);
  t.is(e.stdout, "");
  t.is(
    e.stderr,
    "forge-ci run: no CI steps in .forge/ci/steps: nothing was run " +
      "(add an executable step, e.g. .forge/ci/steps/10-test)\n"
  );
  t.false(
    existsSync(join(empty, ".forge", "ci", "runs")) && readdirSync(join(empty, ".forge", "ci", "runs")).length > 0
  );
});

test("no steps: a PR's run is refused and forge-pr merge does not merge on it", async (t) => {
  const dir = repo({});
  await withPr(t, dir);
  const r = await ci(dir, ["run", "1"]);
  t.is(r.code, 1);
  t.regex(r.stderr, /^forge-ci run: no CI steps in \.forge\/ci\/steps: nothing was run/);
  const m = await run("forge-pr", ["merge", "1", "--squash"], { cwd: dir });
  t.is(m.code, 1);
  t.regex(m.stderr, /no CI steps in \.forge\/ci\/steps: nothing was run/);
  t.is(m.stderr.trim().split("\n").length, 1);
  const v = await run("forge-pr", ["view", "1", "--json", "state"], { cwd: dir });
  t.is(v.stdout, '{"state":"OPEN"}\n');
  t.is(readFileSync(join(dir, "app.txt"), "utf8"), "broken\n");
  t.is(git(dir, ["log", "--format=%s", "main"]).trim(), "initial");
});

test("a step named 10-test.sh is not NN-name: one warning names it, and alone it is no steps", async (t) => {
  // spec/schema.md ci-step: names are ^[0-9]{2}-[a-z0-9-]+$, no extension (the name is the step's id in
  // logs, `--until`, `run view --log` and Docker container names); a misnamed file is said, never skipped silently.
  const dir = repo({ "10-test.sh": "true", "20-lint": "true", "README.md": "steps" });
  const r = await ci(dir, ["run", "--json", "verdict,steps"]);
  t.is(r.code, 0, r.stderr);
  const warned = r.stderr.split("\n").filter((l) => l.includes("warning"));
  t.deepEqual(warned, [
    "forge-ci run: warning: .forge/ci/steps/10-test.sh: not a step, not run (a step is named NN-name, e.g. 10-test)",
  ]);
  const rec = runs(r)[0]!;
  t.deepEqual(
    rec.steps.map((s) => s.name),
    ["20-lint"]
  );
  const only = repo({ "10-test.sh": "true" });
  const o = await ci(only, ["run"]);
  t.is(o.code, 1);
  t.is(
    o.stderr,
    "forge-ci run: no CI steps in .forge/ci/steps: nothing was run " +
      "(add an executable step, e.g. .forge/ci/steps/10-test);" +
      " .forge/ci/steps/10-test.sh: not a step, not run (a step is named NN-name, e.g. 10-test)\n"
  );
});

test("steps run in a disposable worktree: the live checkout is untouched and no worktree is left", async (t) => {
  const dir = repo({ "10-dirty": 'echo changed > app.txt; echo new > new.txt; git add -A; pwd > "$MARKS/pwd"' });
  const marks = scratch(tempRepo("forge-ci-marks-"));
  const before = git(dir, ["status", "--porcelain"]);
  const r = await ci(dir, ["run"], { MARKS: marks });
  t.is(r.code, 0, r.stderr);
  t.is(readFileSync(join(dir, "app.txt"), "utf8"), "broken\n");
  t.false(existsSync(join(dir, "new.txt")));
  t.is(git(dir, ["status", "--porcelain"]), before);
  t.not(readFileSync(join(marks, "pwd"), "utf8").trim(), dir);
  t.is(git(dir, ["worktree", "list"]).trim().split("\n").length, 1);
  t.false(existsSync(readFileSync(join(marks, "pwd"), "utf8").trim()), "the worktree folder is removed");
});

test(
  "a PR run: the base's tip with the patch applied; " + "the verdict lands in pr.md and gh's statusCheckRollup",
  async (t) => {
    const dir = repo({ "10-test": 'grep -q fixed app.txt || { echo "app.txt: expected fixed"; exit 1; }' });
    await withPr(t, dir);
    const head = await ci(dir, ["run", "--json"]);
    t.is(runs(head)[0]!.verdict, "fail", "main itself is broken");
    const r = await ci(dir, ["run", "1", "--json"]);
    t.is(r.code, 0, r.stderr);
    const rec = runs(r)[0]!;
    const pr = jsonl(
      (await run("forge-pr", ["view", "1", "--json", "id,patchSha256,ci,statusCheckRollup"], { cwd: dir })).stdout
    )[0] as Record<string, unknown>;
    t.like(rec, {
      databaseId: 2,
      verdict: "pass",
      event: "pull_request",
      pr: { id: pr.id as string, number: 1 },
      patchSha256: pr.patchSha256 as string,
    });
    t.is(rec.headSha, git(dir, ["rev-parse", "main"]).trim());
    t.is(pr.ci, "pass");
    t.deepEqual(pr.statusCheckRollup, [
      { __typename: "CheckRun", conclusion: "SUCCESS", name: "ci", status: "COMPLETED" },
    ]);
    t.is(readFileSync(join(dir, "app.txt"), "utf8"), "broken\n", "the live checkout is untouched");
    t.is(git(dir, ["worktree", "list"]).trim().split("\n").length, 1);
    const view = await ci(dir, ["view", "2"]);
    t.regex(
      view.stdout,
      new RegExp(
        /^run 2 pass \(success\): Fix the app #1\ntree: [0-9a-f]{40} \+ patch [0-9a-f]{12}\n/.source +
          /env: [0-9a-f]{12} \(local\)\n\n10-test\tpass\t0\t/.source
      )
    );
  }
);

test("a PR whose patch does not apply: one error line, exit 1, no run recorded", async (t) => {
  const dir = repo({ "10-test": "true" });
  await withPr(t, dir);
  writeFileSync(join(dir, "app.txt"), "moved on\n");
  git(dir, ["commit", "-qam", "main moves"]);
  const r = await ci(dir, ["run", "1"]);
  t.is(r.code, 1);
  t.regex(r.stderr, /^forge-ci run: the patch does not apply on [0-9a-f]{12}: .+\n$/);
  t.is((await ci(dir, ["list", "--json"])).stdout, "");
  t.is(git(dir, ["worktree", "list"]).trim().split("\n").length, 1);
});

test("PRs from stdin: a patch that does not apply is reported naming its PR (issue 14)", async (t) => {
  const dir = repo({ "10-test": "true" });
  await withPr(t, dir);
  writeFileSync(join(dir, "app.txt"), "moved on\n");
  git(dir, ["commit", "-qam", "main moves"]);
  const r = await sh("forge-pr list --json | forge-ci run -", { cwd: dir });
  t.is(r.code, 1);
  t.regex(r.stderr, /^forge-ci run: PR #1: the patch does not apply on [0-9a-f]{12}: .+\n$/);
  const missing = await sh(
    'printf \'{"number":9}\\n{"id":"deadbeef-0000-4000-8000-000000000000"}\\nnot json\\n\' | forge-ci run -',
    { cwd: dir }
  );
  t.is(missing.code, 1);
  const err = missing.stderr.trim().split("\n");
  t.is(err.length, 3, missing.stderr);
  t.regex(err[0]!, /^forge-ci run: .*#9\b/);
  t.regex(err[1]!, /^forge-ci run: .*deadbeef/);
  t.regex(err[2]!, /^forge-ci run: .*line 3/);
});

test("PRs from stdin run concurrently, each in its own worktree, results in input order", async (t) => {
  const marks = scratch(tempRepo("forge-ci-marks-"));
  const dir = repo({
    "10-slow": 'echo "start $(cat app.txt)" >> "$MARKS/log"; sleep 1; echo "end $(cat app.txt)" >> "$MARKS/log"',
  });
  await withPr(t, dir, "one", "one\n", "First");
  await withPr(t, dir, "two", "two\n", "Second");
  const r = await sh("forge-pr list --json | forge-ci run - -j 2 --json", { cwd: dir, env: { MARKS: marks } });
  t.is(r.code, 0, r.stderr);
  const got = runs(r);
  t.deepEqual(
    got.map((x) => x.pr?.number),
    [2, 1],
    "gh lists newest first; results follow the input"
  );
  const log = readFileSync(join(marks, "log"), "utf8").trim().split("\n");
  t.deepEqual(
    log
      .slice(0, 2)
      .map((l) => l.split(" ")[0])
      .sort(),
    ["start", "start"],
    `both started before either ended: ${log.join(" | ")}`
  );
  t.is(git(dir, ["worktree", "list"]).trim().split("\n").length, 1);
  const bad = await sh('printf \'{"number":1}\\n{"number":9}\\n\' | forge-ci run - --json', {
    cwd: dir,
    env: { MARKS: marks },
  });
  t.is(bad.code, 1, "a failed record makes the batch exit 1");
  t.is(runs(bad).length, 1);
  t.regex(bad.stderr, /forge-ci run: .*9/);
});

test("a step over its timeout: its whole process group is killed, outcome timeout, conclusion timed_out", async (t) => {
  const mark = `forge-ci-timeout-${process.pid}-${Date.now()}`;
  // The step would sleep 5 minutes: its own duration well within that proves the timeout, however loaded the
  // machine (the step's clock starts at its spawn, not at forge-ci's).
  const dir = repo({ "10-hang": `sh -c 'sleep 300; : ${mark}' &\nsleep 300`, "20-next": "true" }, "timeout=1\n");
  const r = await ci(dir, ["run", "--json"]);
  t.is(r.code, 1, r.stderr);
  const rec = runs(r)[0]!;
  t.true(rec.steps[0]!.durationMs < 120_000, `the step took ${rec.steps[0]!.durationMs} ms`);
  t.like(rec, { verdict: "fail", conclusion: "timed_out" });
  t.deepEqual(
    rec.steps.map((s) => [s.outcome, s.exitCode]),
    [
      ["timeout", null],
      ["skipped", null],
    ]
  );
  t.regex(rec.steps[0]!.signature ?? "", /^sig-v1:[0-9a-f]{32}$/);
  await until(t, "no orphans", () => alive(mark).length === 0);
  t.deepEqual(alive(mark), []);
});

/**
 * Start `forge-ci run` in the background; resolves when the first step's background child has begun (it writes
 * `started` itself).
 */
async function background(
  t: ExecutionContext,
  dir: string,
  marks: string
): Promise<{ pid: number; done: Promise<number | null> }> {
  const child = spawn(join(BIN, "forge-ci"), ["run"], {
    cwd: dir,
    env: baseEnv({ MARKS: marks }) as NodeJS.ProcessEnv,
    stdio: "ignore",
  });
  const done = new Promise<number | null>((res) => child.on("close", (code) => res(code)));
  await until(t, "the step to start", () => existsSync(join(marks, "started")));
  return { pid: child.pid!, done };
}

test(
  "cancel kills the running step's process group, records " + "cancelled, skips the rest; a second cancel is a no-op",
  async (t) => {
    const mark = `forge-ci-cancel-${process.pid}-${Date.now()}`;
    const marks = scratch(tempRepo("forge-ci-marks-"));
    // The step outlasts any wait a loaded machine can make between its start and the cancel (40 s did not).
    const dir = repo({
      "10-hang": `sh -c 'touch "$MARKS/started"; sleep 600; : ${mark}' &\nsleep 600`,
      "20-next": 'touch "$MARKS/next"',
    });
    const bg = await background(t, dir, marks);
    const c = await ci(dir, ["cancel", "1", "--json"]);
    t.is(c.code, 0, c.stderr);
    const rec = runs(c)[0]!;
    t.like(rec, { verdict: "cancelled", status: "completed", conclusion: "cancelled" });
    t.deepEqual(
      rec.steps.map((s) => s.outcome),
      ["cancelled", "skipped"]
    );
    t.is(await bg.done, 1, "the runner exits 1");
    t.false(existsSync(join(marks, "next")));
    await until(t, "no orphans", () => alive(mark).length === 0);
    t.deepEqual(alive(mark), []);
    const again = await ci(dir, ["cancel", "1"]);
    t.is(again.code, 0);
    t.regex(again.stderr, /already completed \(cancelled\)/);
  }
);

test(
  "cancel of a run whose runner died: what is left " + "of its processes is killed and the record finished",
  async (t) => {
    const mark = `forge-ci-orphan-${process.pid}-${Date.now()}`;
    // As above: the step must still be running when the runner is killed and the cancel comes.
    const marks = scratch(tempRepo("forge-ci-marks-"));
    const dir = repo({ "10-hang": `sh -c 'touch "$MARKS/started"; sleep 600; : ${mark}' &\nsleep 600` });
    const bg = await background(t, dir, marks);
    process.kill(bg.pid, "SIGKILL");
    await bg.done;
    t.true(alive(mark).length > 0, "the step outlived its runner");
    const c = await ci(dir, ["cancel", "1", "--json", "verdict,status"]);
    t.is(c.code, 0, c.stderr);
    t.is(c.stdout, '{"status":"completed","verdict":"cancelled"}\n');
    await until(t, "no orphans", () => alive(mark).length === 0);
    t.deepEqual(alive(mark), []);
  }
);

test("the same failing step in two runs has one signature; a different failure another", async (t) => {
  const dir = repo({
    "10-ok": "true",
    "20-flaky":
      'echo "seed $(od -An -N4 -tu4 /dev/urandom) at $(date -u +%FT%TZ)"; echo "assertion failed in $PWD/x.ts"; exit 1',
  });
  const a = runs(await ci(dir, ["run", "--json"]))[0]!;
  const b = runs(await ci(dir, ["run", "--json"]))[0]!;
  t.regex(a.steps[1]!.signature ?? "", /^sig-v1:[0-9a-f]{32}$/);
  t.is(a.steps[1]!.signature, b.steps[1]!.signature);
  t.is(a.envSha256, b.envSha256);
  t.is(a.steps[0]!.signature, null);
  setSteps(dir, { "20-flaky": 'echo "TypeError: undefined is not a function"; exit 1' });
  const c = runs(await ci(dir, ["run", "--json"]))[0]!;
  t.not(c.steps[1]!.signature, a.steps[1]!.signature);
  t.not(c.envSha256, a.envSha256, "a changed step changes the fingerprint");
});

test("rerun: the same tree and the same step files, even after both changed", async (t) => {
  const dir = repo({ "10-test": "grep -q fixed app.txt" });
  await withPr(t, dir);
  const first = runs(await ci(dir, ["run", "1", "--json"]))[0]!;
  t.is(first.verdict, "pass");
  setSteps(dir, { "10-test": "exit 7" });
  writeFileSync(join(dir, "app.txt"), "moved on\n");
  git(dir, ["commit", "-qam", "main moves"]);
  const r = await ci(dir, ["rerun", "1", "--json"]);
  t.is(r.code, 0, r.stderr);
  const again = runs(r)[0]!;
  t.like(again, {
    databaseId: 2,
    verdict: "pass",
    rerunOf: first.id,
    headSha: first.headSha,
    patchSha256: first.patchSha256,
    envSha256: first.envSha256,
    pr: first.pr!,
  });
  const fresh = runs(await ci(dir, ["run", "--json"]))[0]!;
  t.is(fresh.steps[0]!.exitCode, 7, "a new run uses the new steps");
});

test("the environment: the caller's, ci.env's variables, the run id and step name; no secrets added", async (t) => {
  const dir = repo(
    { "10-env": 'echo "caller=$CALLER ci=$CI_FLAG run=$FORGE_CI_RUN step=$FORGE_CI_STEP token=${GITHUB_TOKEN:-none}"' },
    "# posture\nrunner=local\nCI_FLAG=yes\n"
  );
  const r = await ci(dir, ["run", "--json", "id"], { CALLER: "me" });
  t.is(r.code, 0, r.stderr);
  const id = (jsonl(r.stdout)[0] as { id: string }).id;
  const log = await ci(dir, ["log", "1", "10-env"]);
  t.is(log.stdout, `caller=me ci=yes run=${id} step=10-env token=none\n`);
  const step = runs(await ci(dir, ["view", "1", "--json", "steps"]))[0]!.steps[0]!;
  t.is(step.logSha256, createHash("sha256").update(log.stdout).digest("hex"), "the record carries the log's digest");
});

test("a step gets the caller's MALLOC_ARENA_MAX, not the one the launcher's #! line gives node", async (t) => {
  const dir = repo(
    { "10-env": 'echo "arena=${MALLOC_ARENA_MAX-unset} saved=${FORGE_SAVED_MALLOC_ARENA_MAX-unset}"' },
    ""
  );
  t.is((await ci(dir, ["run"], { MALLOC_ARENA_MAX: "3" })).code, 0);
  t.is((await ci(dir, ["log", "1", "10-env"])).stdout, "arena=3 saved=unset\n");
  t.is((await ci(dir, ["run"], {})).code, 0);
  t.is((await ci(dir, ["log", "2", "10-env"])).stdout, "arena=unset saved=unset\n");
});

test("--docker with no engine is one error line, exit 1, and nothing runs", async (t) => {
  const fake = scratch(tempRepo("forge-ci-nodocker-"));
  writeFileSync(join(fake, "docker"), "#!/bin/sh\necho 'Cannot connect to the Docker daemon' >&2\nexit 1\n");
  chmodSync(join(fake, "docker"), 0o755);
  const marks = scratch(tempRepo("forge-ci-marks-"));
  const dir = repo({ "10-a": 'touch "$MARKS/ran"' }, "image=alpine:3\n");
  const r = await ci(dir, ["run", "--docker"], { PATH: `${fake}:${BIN}:${process.env.PATH}`, MARKS: marks });
  t.is(r.code, 1);
  t.is(
    r.stderr,
    "forge-ci run: runner docker: no Docker engine (Cannot connect to the Docker daemon); nothing was run\n"
  );
  t.false(existsSync(join(marks, "ran")));
  t.false(existsSync(join(dir, ".forge", "ci", "runs")) && readdirSync(join(dir, ".forge", "ci", "runs")).length > 0);
  // A PATH with node and git but no docker, wherever this machine keeps them.
  const tools = scratch(tempRepo("forge-ci-tools-"));
  for (const t of ["node", "git", "sh"])
    symlinkSync(execFileSync("sh", ["-c", `command -v ${t}`], { encoding: "utf8" }).trim(), join(tools, t));
  const none = await ci(dir, ["run", "--docker"], { PATH: `${BIN}:${tools}` });
  t.is(none.code, 1);
  t.regex(
    none.stderr,
    /^forge-ci run: runner docker: no Docker engine \(docker is not installed\); nothing was run\n$/
  );
  const noImage = repo({ "10-a": "true" }, "runner=docker\n");
  const ni = await ci(noImage, ["run"]);
  t.is(ni.code, 1);
  t.regex(ni.stderr, /^forge-ci run: \.forge\/ci\/ci\.env: field 'image': missing/);
});

test("runner docker: each step is `docker run` of the kept step file in the image, argv only", async (t) => {
  const fake = scratch(tempRepo("forge-ci-fakedocker-"));
  writeFileSync(
    join(fake, "docker"),
    `#!/bin/sh\n[ "$1" = info ] && { echo 28.0; exit 0; }\nfor a in "$@"; do printf '%s\\n' "$a"; done > ` +
      `"${fake}/argv"\n`
  );
  chmodSync(join(fake, "docker"), 0o755);
  const dir = repo({ "10-a": "true" }, "runner=docker\nimage=alpine:3\nCI_FLAG=1\n");
  const r = await ci(dir, ["run", "--json", "runner,verdict"], { PATH: `${fake}:${BIN}:${process.env.PATH}` });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, '{"runner":"docker","verdict":"pass"}\n');
  const argv = readFileSync(join(fake, "argv"), "utf8").trim().split("\n");
  t.deepEqual(argv.slice(0, 3), ["run", "--rm", "--init"]);
  t.true(argv.includes("CI_FLAG=1"));
  t.is(argv.at(-2), "alpine:3");
  t.is(argv.at(-1), "/forge-ci/steps/10-a");
  t.true(argv.some((a) => a.endsWith(":/work")));
  t.true(argv.some((a) => /\/\.forge\/ci\/runs\/[0-9a-f-]{36}\/bin:\/forge-ci\/steps:ro$/.test(a)));
});

test("log: every step's lines prefixed with its name; one step's log as written; errors", async (t) => {
  const dir = repo({ "10-a": "echo one; echo two", "20-b": "printf 'no newline'" });
  await ci(dir, ["run"]);
  t.is((await ci(dir, ["log", "1"])).stdout, "10-a\tone\n10-a\ttwo\n20-b\tno newline\n");
  t.is((await ci(dir, ["log", "1", "20-b"])).stdout, "no newline");
  const bad = await ci(dir, ["log", "1", "../x"]);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /^forge-ci log: invalid step '\.\.\/x'/);
  const missing = await ci(dir, ["log", "1", "99-none"]);
  t.is(missing.code, 1);
  t.regex(missing.stderr, /^forge-ci log: run 1 has no log for step '99-none'\n$/);
});

test(
  "list: newest first, --status, --commit, --limit, " + "--jq; view --json; a bad ci.env is one error line",
  async (t) => {
    const dir = repo({ "10-a": "test -f ok" });
    await ci(dir, ["run"]);
    writeFileSync(join(dir, "ok"), "");
    git(dir, ["add", "ok"]);
    git(dir, ["commit", "-qm", "ok"]);
    await ci(dir, ["run"]);
    const list = runs(await ci(dir, ["list", "--json"]));
    t.deepEqual(
      list.map((r) => [r.databaseId, r.verdict]),
      [
        [2, "pass"],
        [1, "fail"],
      ]
    );
    t.deepEqual(
      runs(await ci(dir, ["list", "-s", "failure", "--json"])).map((r) => r.databaseId),
      [1]
    );
    t.deepEqual(
      runs(await ci(dir, ["list", "--status", "completed", "-L", "1", "--json"])).map((r) => r.databaseId),
      [2]
    );
    t.deepEqual(
      runs(await ci(dir, ["list", "-c", list[1]!.headSha.slice(0, 7), "--json"])).map((r) => r.databaseId),
      [1]
    );
    t.is((await ci(dir, ["list", "--jq", ".[0].verdict"])).stdout, "pass\n");
    t.is((await ci(dir, ["list", "-s", "weird"])).code, 2);
    const view = await ci(dir, ["view", "2", "--json"]);
    const keys = Object.keys(jsonl(view.stdout)[0]!);
    golden(t, "ci/view-keys.txt", keys.join("\n") + "\n");
    writeFileSync(join(dir, ".forge", "ci", "ci.env"), "runner=podman\n");
    const bad = await ci(dir, ["run"]);
    t.is(bad.code, 1);
    t.is(bad.stderr, "forge-ci run: .forge/ci/ci.env: line 1: 'runner': expected local, docker or adapter:CMD\n");
    t.is(runs(await ci(dir, ["list", "--json"])).length, 2, "nothing recorded");
  }
);

test(
  "a PR whose series adds a file then deletes it, and " + "adds one then renames it, runs on the head's tree",
  async (t) => {
    const dir = repo({
      "10-tree": "test ! -e tmp.txt && test -f final.txt && test ! -e draft.txt && grep -q fixed app.txt",
    });
    git(dir, ["checkout", "-qb", "series"]);
    writeFileSync(join(dir, "tmp.txt"), "scratch\n");
    writeFileSync(join(dir, "draft.txt"), "text\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "add tmp and draft"]);
    git(dir, ["rm", "-q", "tmp.txt"]);
    git(dir, ["mv", "draft.txt", "final.txt"]);
    writeFileSync(join(dir, "app.txt"), "fixed\n");
    git(dir, ["commit", "-qam", "drop tmp, rename draft, fix"]);
    const pr = await run("forge-pr", ["create", "-t", "Series", "-b", "", "-B", "main", "-H", "series"], { cwd: dir });
    t.is(pr.code, 0, pr.stderr);
    git(dir, ["checkout", "-q", "main"]);
    const r = await ci(dir, ["run", "1", "--json", "verdict"]);
    t.is(r.stdout, '{"verdict":"pass"}\n', r.stderr + (await ci(dir, ["log", "1"])).stdout);
  }
);
