/**
 * Worktree preparation on real-style projects, end to end: the dependency
 * cache of `ci.env` (300 packages installed once per key across a CI run,
 * a 10-trial rerun and a paired experiment; a PR that changes the lockfile
 * gets its own; deleting the cache changes no verdict) and submodules
 * initialised in every worktree from the main clone, offline.
 */
import test from "ava";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { git, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

type Rec = Record<string, any>;

function step(dir: string, name: string, text: string): void {
  const f = join(dir, ".forge", "ci", "steps", name);
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  writeFileSync(f, `#!/bin/sh\nset -e\n${text}\n`);
  chmodSync(f, 0o755);
}

/**
 * A project with a lockfile naming 300 packages, vendored as folders (`vendor/`, no registry); its install step
 * copies them into node_modules the way a package manager lays them out and counts itself in `installs`.
 */
function project(): { dir: string; installs: () => number } {
  const dir = scratch(tempRepo("forge-cache-e2e-"));
  const count = join(dir, "..", `${dir.split("/").pop()}-installs`);
  scratch(count);
  const lock: Rec = { name: "app", lockfileVersion: 3, packages: {} };
  for (let i = 0; i < 300; i++) {
    const p = join(dir, "vendor", `pkg-${i}`);
    mkdirSync(join(p, "lib"), { recursive: true });
    writeFileSync(
      join(p, "package.json"),
      JSON.stringify({ name: `pkg-${i}`, version: "1.0.0", main: "lib/index.js" })
    );
    writeFileSync(join(p, "lib", "index.js"), `module.exports = ${i};\n`);
    lock.packages[`node_modules/pkg-${i}`] = { version: "1.0.0", resolved: `file:vendor/pkg-${i}` };
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0" }) + "\n");
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify(lock, null, 2) + "\n");
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n");
  writeFileSync(join(dir, "app.js"), "module.exports = require('pkg-7') + require('pkg-299');\n");
  mkdirSync(join(dir, ".forge", "ci"), { recursive: true });
  writeFileSync(join(dir, ".forge", "ci", "ci.env"), `cache=node_modules\ncache_step=05-install\nINSTALLS=${count}\n`);
  step(
    dir,
    "05-install",
    [
      'echo install >> "$INSTALLS"',
      "mkdir node_modules",
      'node -e \'const l=require("./package-lock.json");for(const k of Object.keys(l.packages))' +
        'require("fs").cpSync(l.packages[k].resolved.slice(5),k,{recursive:true})\'',
    ].join("\n")
  );
  step(
    dir,
    "10-test",
    'test ! -L node_modules\ntest "$(NODE_PATH=node_modules node -p "require(\'./app.js\')")" = 306'
  );
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "project"]);
  return {
    dir,
    installs: () => (existsSync(count) ? readFileSync(count, "utf8").split("\n").filter(Boolean).length : 0),
  };
}

function plan(kind: string, params: Rec): string {
  const p = { kind: "plan", plan_id: `p-${kind}`, plan_kind: kind, target_key: "t", target_kind: "FragileNode" };
  return JSON.stringify({ ...p, scope: "default", params }) + "\n";
}

const head = (dir: string): string => git(dir, ["rev-parse", "main"]).trim();

async function lastRun(dir: string): Promise<Rec> {
  return jsonl(
    (await run("forge-ci", ["list", "--limit", "1", "--json", "verdict,steps"], { cwd: dir })).stdout
  )[0] as Rec;
}

test(
  "dependency cache: a CI run, a 10-trial rerun and a paired experiment install once per key; a PR that changes " +
    "the lockfile installs its own; deleting the cache changes no verdict",
  async (t) => {
    t.timeout(900_000, "thirteen CI runs of a 300-package project on a shared machine");
    const { dir, installs } = project();
    const first = await run("forge-ci", ["run", "--json", "verdict,steps"], { cwd: dir });
    t.is(first.code, 0, first.stderr);
    t.is(installs(), 1);
    const r1 = jsonl(first.stdout)[0] as Rec;
    t.is(r1.verdict, "pass");
    t.is(r1.steps[0].cache, "saved");
    t.true(existsSync(join(dir, ".forge", "ci", "cache", ".gitignore")));
    t.is(git(dir, ["status", "--porcelain", "--ignored", ".forge/ci/cache"]).trim(), "!! .forge/ci/cache/");

    // A second run: a hit, the install step not run, the tests see the packages (a copy, not a symlink).
    await run("forge-ci", ["run"], { cwd: dir });
    t.is(installs(), 1);
    const r2 = await lastRun(dir);
    t.is(r2.verdict, "pass");
    t.like(r2.steps[0], { name: "05-install", outcome: "skipped", cache: "hit" });

    // Up to ten independent trials, each in a fresh worktree (the stopping rule ends at 9: the pass is bounded):
    // every one restores, none installs.
    const rerun = { step: "10-test", head_sha: head(dir), repetitions: 10, precision_micros: 300_000 };
    const a = await run("forge-act", ["--json", "--independent-trials"], {
      cwd: dir,
      input: plan("CheckRerun", rerun),
    });
    t.is(a.code, 0, a.stderr);
    const stats = (jsonl(a.stdout)[0] as Rec).stats as Rec;
    t.is(stats.trials, 9);
    t.is(stats.verdict, "passing");
    t.is(installs(), 1);

    // A PR that leaves the lockfile alone (hit on both sides), then one that changes it (its own key, once).
    const pr = async (branch: string, files: Record<string, string>): Promise<Rec> => {
      git(dir, ["checkout", "-q", "-b", branch, "main"]);
      for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
      git(dir, ["add", "-A"]);
      git(dir, ["commit", "-qm", branch]);
      git(dir, ["checkout", "-q", "main"]);
      const args = ["create", "-t", branch, "-B", "main", "-H", branch, "--json", "id,number,patchSha256"];
      return JSON.parse((await run("forge-pr", args, { cwd: dir })).stdout) as Rec;
    };
    const paired = async (p: Rec): Promise<Rec> => {
      const params = {
        pr: { id: p.id, number: p.number },
        patch_sha256: p.patchSha256,
        base_sha: head(dir),
        checks: ["10-test", "05-install"],
        repetitions: 3,
        closes: [],
      };
      const r = await run("forge-act", ["--json"], { cwd: dir, input: plan("PairedPatch", params) });
      t.is(r.code, 0, r.stderr);
      return jsonl(r.stdout)[0] as Rec;
    };
    const same = await paired(await pr("docs", { "README.md": "# app\n" }));
    t.is(same.typed_diff[0].category, "still_passing");
    t.is(same.typed_diff[1].category, "skipped", "the install step restored on both sides: no trial, not an error");
    t.is(installs(), 1, "the paired experiment's six runs all restored");
    const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as Rec;
    lock.packages["node_modules/pkg-0"].version = "1.0.1";
    const bumped = await paired(await pr("bump", { "package-lock.json": JSON.stringify(lock, null, 2) + "\n" }));
    t.is(bumped.typed_diff[0].category, "still_passing");
    t.is(installs(), 2, "the changed lockfile installed once, under its own key");

    // Deleting the cache changes no verdict: the next run installs again and passes.
    const fsck = await run("forge", ["fsck"], { cwd: dir });
    t.is(fsck.code, 0, fsck.stdout + fsck.stderr);
    rmSync(join(dir, ".forge", "ci", "cache"), { recursive: true });
    await run("forge-ci", ["run"], { cwd: dir });
    t.is((await lastRun(dir)).verdict, "pass");
    t.is(installs(), 3);
  }
);

test("dependency cache: a bad setting is one line naming ci.env and the field; nothing runs", async (t) => {
  const { dir, installs } = project();
  for (const [env, why] of [
    ["cache=../out\ncache_step=05-install\n", /ci\.env: line 1: 'cache': '\.\.\/out': expected a path relative/],
    ["cache=node_modules\n", /ci\.env: field 'cache_step': missing/],
    ["cache=node_modules\ncache_step=07-nope\n", /ci\.env: field 'cache_step': no step '07-nope'/],
  ] as const) {
    writeFileSync(join(dir, ".forge", "ci", "ci.env"), env);
    const r = await run("forge-ci", ["run"], { cwd: dir });
    t.is(r.code, 1);
    t.regex(r.stderr, why);
    t.is(r.stderr.trim().split("\n").length, 1, r.stderr);
  }
  t.is(installs(), 0);
});

const ALLOW_FILE = ["-c", "protocol.file.allow=always"];

/** A repository with one file committed (a submodule's origin). */
function fileRepo(prefix: string, file: string, text: string): string {
  const dir = scratch(tempRepo(prefix));
  writeFileSync(join(dir, file), text);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", file]);
  return dir;
}

/**
 * The origins gone (renamed away): only the main clone's copies (.git/modules/…) are left, no network. Then the step
 * `10-see` passes in every worktree: a CI run of 2 and a CheckRerun of `repetitions` independent trials.
 */
async function seenOffline(
  t: import("ava").ExecutionContext,
  dir: string,
  origins: string[],
  repetitions: number
): Promise<void> {
  for (const d of origins) {
    renameSync(d, `${d}-gone`);
    scratch(`${d}-gone`);
  }
  const r = await run("forge-ci", ["run", "--repeat", "2", "--json", "verdict"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  t.deepEqual(
    jsonl(r.stdout).map((x) => x.verdict),
    ["pass", "pass"]
  );
  const a = await run("forge-act", ["--json", "--independent-trials"], {
    cwd: dir,
    input: plan("CheckRerun", { step: "10-see", head_sha: head(dir), repetitions }),
  });
  t.is((jsonl(a.stdout)[0] as Rec).stats.passes, repetitions, a.stderr);
}

const worktrees = (dir: string): number | undefined =>
  git(dir, ["worktree", "list", "--porcelain"]).match(/^worktree /gm)?.length;

test("submodules: steps see them in every worktree, initialised offline from the main clone", async (t) => {
  const sub = fileRepo("forge-sub-", "lib.txt", "from the submodule\n");
  const dir = scratch(tempRepo("forge-super-"));
  git(dir, [...ALLOW_FILE, "submodule", "add", "-q", sub, "vendor/lib"]);
  step(dir, "10-see", "grep -q 'from the submodule' vendor/lib/lib.txt");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "super"]);
  await seenOffline(t, dir, [sub], 3);
  t.notRegex(git(dir, ["config", "--list"]), /submodule\.vendor\/lib\.url=.*modules/, "the shared config is untouched");
  t.is(worktrees(dir), 1, "no worktree left behind");
});

test("nested submodules: a submodule's own submodule is there in every worktree, offline", async (t) => {
  const leaf = fileRepo("forge-leaf-", "leaf.txt", "from the nested submodule\n");
  const mid = fileRepo("forge-mid-", "mid.txt", "from the submodule\n");
  git(mid, [...ALLOW_FILE, "submodule", "add", "-q", leaf, "deps/leaf"]);
  git(mid, ["add", "-A"]);
  git(mid, ["commit", "-qm", "mid"]);
  const dir = scratch(tempRepo("forge-super-nested-"));
  git(dir, [...ALLOW_FILE, "submodule", "add", "-q", mid, "vendor/mid"]);
  git(dir, [...ALLOW_FILE, "submodule", "update", "--init", "--recursive", "-q"]);
  step(dir, "10-see", "grep -q 'from the submodule' vendor/mid/mid.txt\ngrep -q nested vendor/mid/deps/leaf/leaf.txt");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "super"]);
  // Both origins gone (.git/modules/…/modules/… left).
  await seenOffline(t, dir, [leaf, mid], 2);
  t.is(worktrees(dir), 1, "no worktree left behind");
});

test(
  "PairedPatch: one worktree a side, put back as made before each run (a step's files, commit and branch " +
    "undone); --independent-trials: one a run",
  async (t) => {
    const dir = scratch(tempRepo("forge-paired-reuse-"));
    const log = scratch(`${dir}-seen`);
    writeFileSync(join(dir, "a.txt"), "base\n");
    writeFileSync(join(dir, "gone.txt"), "only at the base\n");
    writeFileSync(join(dir, ".gitignore"), "ignored/\n");
    // Each run says where it ran and what it found, then leaves a mess for the next run in the same worktree.
    step(
      dir,
      "10-check",
      [
        "test ! -e junk && test ! -e ignored && test ! -e mine.txt",
        `echo "$(pwd) $(head -n 1 a.txt) $(test -e gone.txt && echo has-gone)" >> ${log}`,
        "echo mutated > a.txt && rm -f gone.txt && echo j > junk && mkdir ignored && touch ignored/x",
        "git checkout -q -b mess-$$ && echo m > mine.txt && git add -A",
        "git -c user.name=x -c user.email=x@y commit -qm mess",
      ].join("\n")
    );
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "base"]);
    git(dir, ["checkout", "-q", "-b", "fix", "main"]);
    writeFileSync(join(dir, "a.txt"), "patched\n");
    git(dir, ["rm", "-q", "gone.txt"]);
    git(dir, ["commit", "-qam", "fix"]);
    git(dir, ["checkout", "-q", "main"]);
    const args = ["create", "-t", "fix", "-B", "main", "-H", "fix", "--json", "id,number,patchSha256"];
    const p = JSON.parse((await run("forge-pr", args, { cwd: dir })).stdout) as Rec;
    const params = {
      pr: { id: p.id, number: p.number },
      patch_sha256: p.patchSha256,
      base_sha: head(dir),
      checks: ["10-check"],
      repetitions: 3,
      closes: [],
    };
    const seen = async (flags: string[]): Promise<{ r: Rec; lines: string[] }> => {
      rmSync(log, { force: true });
      const a = await run("forge-act", ["--json", ...flags], { cwd: dir, input: plan("PairedPatch", params) });
      t.is(a.code, 0, a.stderr);
      return { r: jsonl(a.stdout)[0] as Rec, lines: readFileSync(log, "utf8").split("\n").filter(Boolean) };
    };
    const { r, lines } = await seen([]);
    t.is(r.typed_diff[0].category, "still_passing", JSON.stringify(r.typed_diff));
    t.deepEqual(r.sides, { baseline: { reps: 3, stop: "done" }, patched: { reps: 3, stop: "done" } });
    const dirs = (x: string[]) => new Set(x.map((l) => l.split(" ")[0])).size;
    t.is(dirs(lines), 2, lines.join("\n"));
    t.deepEqual(lines.map((l) => l.split(" ").slice(1).join(" ")).sort(), [
      "base has-gone",
      "base has-gone",
      "base has-gone",
      "patched ",
      "patched ",
      "patched ",
    ]);
    const alone = await seen(["--independent-trials"]);
    t.is(alone.r.typed_diff[0].category, "still_passing");
    t.is(dirs(alone.lines), 6);
    t.is(git(dir, ["status", "--porcelain", "--", ".", ":!.forge"]), "", "the user's tree is untouched");
    t.is(git(dir, ["rev-parse", "--abbrev-ref", "HEAD"]).trim(), "main");
    t.is(worktrees(dir), 1, "no worktree left behind");
  }
);

test("FORGE_ACT_SETUPS: a forge-act leaves its prepared worktree there, the next takes it, no setup", async (t) => {
  const dir = scratch(tempRepo("forge-setup-pool-"));
  const count = scratch(`${dir}-setups`);
  const pool = scratch(`${dir}-pool`);
  mkdirSync(pool);
  step(dir, "10-setup", `echo setup >> ${count}\ntouch built`);
  step(dir, "20-check", "test -f built");
  step(dir, "30-later", "test -f built");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "steps"]);
  const setups = () => readFileSync(count, "utf8").split("\n").filter(Boolean).length;
  const act = async (target: string, env: Record<string, string>): Promise<Rec> => {
    const input = plan("CheckRerun", { step: target, head_sha: head(dir), repetitions: 3 });
    const a = await run("forge-act", ["--json"], { cwd: dir, input, env });
    t.is(a.code, 0, a.stderr);
    return (jsonl(a.stdout)[0] as Rec).stats as Rec;
  };
  const trees = () => worktrees(dir);
  t.is((await act("20-check", { FORGE_ACT_SETUPS: pool })).passes, 3);
  t.is(setups(), 1);
  t.is(trees(), 2, "the worktree is kept for the next forge-act");
  t.is((await act("20-check", { FORGE_ACT_SETUPS: pool })).passes, 3);
  t.is((await act("30-later", { FORGE_ACT_SETUPS: pool })).passes, 3);
  t.is(setups(), 1, "three acts, one setup");
  t.is(trees(), 2, "still one worktree");
  // Without the pool each forge-act prepares its own and leaves nothing.
  t.is((await act("20-check", {})).passes, 3);
  t.is(setups(), 2);
  t.is(trees(), 2);
  // What forge-pilot does at its run's end: remove the worktrees the pool names.
  for (const f of readdirSync(pool).filter((n) => n.endsWith(".json"))) {
    const kept = JSON.parse(readFileSync(join(pool, f), "utf8")) as Rec;
    scratch(dirname(kept.dir));
    git(dir, ["worktree", "remove", "--force", "--force", kept.dir]);
  }
  t.is(trees(), 1);
});

test("forge-ci run --until --repeat: the setup runs once per worktree; --independent-trials: once a run", async (t) => {
  const dir = scratch(tempRepo("forge-setup-once-"));
  const count = scratch(`${dir}-setups`);
  step(dir, "10-setup", `echo setup >> ${count}\ntouch built`);
  step(dir, "20-check", "test -f built");
  step(dir, "30-after", "exit 0");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "steps"]);
  const setups = () => readFileSync(count, "utf8").split("\n").filter(Boolean).length;
  const r = await run("forge-ci", ["run", "--until", "20-check", "--repeat", "3", "--json", "steps"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  t.deepEqual(
    jsonl(r.stdout).map((x: Rec) => x.steps.map((s: Rec) => s.outcome).join(" ")),
    ["pass pass skipped", "skipped pass skipped", "skipped pass skipped"]
  );
  t.is(setups(), 1);
  const b = await run("forge-ci", ["run", "--until", "20-check", "--repeat", "3", "--independent-trials"], {
    cwd: dir,
  });
  t.is(b.code, 0, b.stderr);
  t.is(setups(), 4);
});
