/**
 * More than one machine (spec/hosts.md), end to end: two hosts made as
 * network namespaces, each with its own sshd on its loopback (reached
 * through `ip netns exec … nc`) and its own home folder, driven by GNU
 * parallel through `forge-ci run --hosts` and `forge-act --hosts`. A paired
 * experiment's 2 × 20 trials come from both hosts with the typed diff of a
 * local run; a host killed mid-run loses attempts, never trials; a failing
 * trial is a fail, not retried away. Needs root and `ip netns` (the test
 * makes the namespaces and removes them, with tools/netns_hosts.ts, which
 * the hosts bench case shares); otherwise every test is skipped with the
 * reason logged. `.ci/run` runs this file as root.
 */
import test, { type ExecutionContext } from "ava";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, baseEnv, git, jsonl, run, type Ran } from "./lib/run.js";
import { stepsRepo } from "./lib/steps_repo.js";
import { removeScratch } from "./lib/scratch.js";
import { NetnsHosts } from "./lib/netns_hosts.js";

type Rec = Record<string, any>;

const lab = new NetnsHosts("fh");
const NAMES = lab.names;
let why: string | null = null;

test.before(async () => {
  why = await lab.up();
});

test.after.always(() => {
  removeScratch();
  lab.remove();
});

function skip(t: ExecutionContext): boolean {
  if (why === null) return false;
  t.log(`skipped: ${why}`);
  t.pass();
  return true;
}

const env = (): Record<string, string> => lab.env;

const repo = (steps: Record<string, string>, files: Record<string, string> = {}): string =>
  stepsRepo("forge-hosts-e2e-", steps, files);

function batchDir(dir: string): string {
  const root = join(dir, ".forge", "ci", "runs", ".hosts");
  const b = readdirSync(root);
  return join(root, b[b.length - 1]!);
}

function hostOf(dir: string, runId: string): Rec {
  return JSON.parse(readFileSync(join(dir, ".forge", "ci", "runs", runId, "host.json"), "utf8")) as Rec;
}

const attemptsOf = (dir: string): Rec[] => jsonl(readFileSync(join(batchDir(dir), "attempts.jsonl"), "utf8")) as Rec[];

test.serial(
  "a paired experiment of 2 arms × 20 replicates over two hosts: 40 trials from both hosts, the typed diff of the " +
    "same experiment run locally",
  async (t) => {
    if (skip(t)) return;
    const dir = repo(
      { "10-unit": "grep -q good unit.txt", "20-int": "grep -q good int.txt" },
      { "unit.txt": "good\n", "int.txt": "bad\n" }
    );
    git(dir, ["checkout", "-q", "-b", "fix"]);
    writeFileSync(join(dir, "int.txt"), "good\n");
    git(dir, ["commit", "-qam", "fix"]);
    git(dir, ["checkout", "-q", "main"]);
    const p = JSON.parse(
      (
        await run("forge-pr", ["create", "-t", "fix", "-B", "main", "-H", "fix", "--json", "id,number,patchSha256"], {
          cwd: dir,
        })
      ).stdout
    ) as Rec;
    const plan =
      JSON.stringify({
        kind: "plan",
        plan_id: "p-paired",
        plan_kind: "PairedPatch",
        target_key: "t:paired",
        target_kind: "FragileNode",
        scope: "default",
        params: {
          pr: { id: p.id, number: p.number },
          patch_sha256: p.patchSha256,
          base_sha: git(dir, ["rev-parse", "main"]).trim(),
          checks: ["10-unit", "20-int"],
          repetitions: 20,
          closes: [],
        },
      }) + "\n";
    const remote = await run("forge-act", ["--json", "--hosts", lab.hostsFile], {
      cwd: dir,
      input: plan,
      env: env(),
    });
    t.is(remote.code, 0, remote.stderr);
    const local = await run("forge-act", ["--json"], { cwd: dir, input: plan });
    t.is(local.code, 0, local.stderr);
    const [r] = jsonl(remote.stdout) as Rec[];
    const [l] = jsonl(local.stdout) as Rec[];
    const cats = (a: Rec) => a.typed_diff.map((d: Rec) => [d.check, d.category]);
    t.deepEqual(cats(r!), [
      ["10-unit", "still_passing"],
      ["20-int", "fixed"],
    ]);
    t.deepEqual(cats(r!), cats(l!), "the same typed diff as the local experiment");
    t.deepEqual(
      r!.typed_diff.map((d: Rec) => [d.baseline.pass, d.baseline.fail, d.patched.pass, d.patched.fail]),
      [
        [20, 0, 20, 0],
        [0, 20, 20, 0],
      ]
    );
    const runIds: string[] = [...new Set<string>(r!.trial_refs.map((x: Rec) => x.run_id as string))];
    t.is(runIds.length, 40, "40 trials, each a CI run");
    const hosts = new Set(runIds.map((id) => hostOf(dir, id).host));
    t.deepEqual([...hosts].sort(), [...NAMES].sort(), "records from both hosts");
    const list = jsonl(
      (await run("forge-ci", ["list", "--limit", "200", "--json", "id,runner,verdict"], { cwd: dir })).stdout
    ) as Rec[];
    t.is(list.filter((x) => x.runner === "hosts").length, 40);
    t.true(attemptsOf(dir).every((a) => a.status === "counted"));
    t.true(existsSync(join(batchDir(dir), "joblog")), "the joblog is kept beside the batch");
  }
);

test.serial("a failing trial on a host is a fail, recorded once, never retried away", async (t) => {
  if (skip(t)) return;
  // Replicates 1 and 3 fail (FORGE_CI_RUN ends in the replicate's number), 0 and 2 pass.
  const dir = repo({ "10-test": 'case "$FORGE_CI_RUN" in *-1|*-3) echo boom; exit 1;; esac' });
  const r = await run("forge-ci", ["run", "--hosts", lab.hostsFile, "--repeat", "4", "--chunk", "2", "--json"], {
    cwd: dir,
    env: env(),
  });
  t.is(r.code, 1, r.stderr);
  const runs = jsonl(r.stdout) as Rec[];
  t.deepEqual(
    runs.map((x) => x.verdict),
    ["pass", "fail", "pass", "fail"]
  );
  t.true(runs.every((x) => x.runner === "hosts"));
  t.regex(runs[1]!.steps[0].signature, /^sig-v1:/);
  const attempts = attemptsOf(dir);
  t.deepEqual(
    attempts.map((a) => [a.arm, a.chunk, a.status, a.trials]),
    [
      [0, 0, "counted", 2],
      [0, 1, "counted", 2],
    ],
    "one attempt per chunk: the failures were verdicts, not retried"
  );
  const joblog = readFileSync(join(batchDir(dir), "joblog"), "utf8")
    .trim()
    .split("\n")
    .slice(1);
  t.is(joblog.length, 2);
  t.true(
    joblog.every((l) => l.split("\t")[6] === "0"),
    "the worker exits 0 when it recorded a verdict"
  );
});

test.serial(
  "a host killed mid-run (kill -9 of its processes): every trial recorded once, the lost attempts recorded as " +
    "infrastructure, none counted as a fail",
  async (t) => {
    if (skip(t)) return;
    const dir = repo({ "10-test": "sleep 1" });
    const home = lab.home(NAMES[0]);
    const child = spawn(
      join(BIN, "forge-ci"),
      ["run", "--hosts", lab.hostsFile, "--repeat", "20", "--chunk", "5", "--json"],
      {
        cwd: dir,
        env: baseEnv(env()) as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      }
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<Ran>((res) => child.on("close", (code, signal) => res({ stdout, stderr, code, signal })));
    // Mid-run: a worker's folder on the first host (a chunk under way there).
    let killed = false;
    for (let i = 0; i < 1200 && !killed; i++) {
      if (existsSync(home) && readdirSync(home).some((n) => n.startsWith("forge-w-"))) {
        lab.killHost(NAMES[0]);
        killed = true;
      } else await new Promise((r) => setTimeout(r, 100));
    }
    const r = await done;
    t.true(killed, "the first host was killed while a chunk ran there");
    t.is(r.code, 0, r.stderr);
    const runs = jsonl(r.stdout) as Rec[];
    t.is(runs.length, 20, "every trial recorded once");
    t.true(
      runs.every((x) => x.verdict === "pass"),
      "none counted as a fail: the verdict unchanged"
    );
    const reps = runs.map((x) => hostOf(dir, x.id).replicate as number).sort((a, b) => a - b);
    t.deepEqual(
      reps,
      Array.from({ length: 20 }, (_, i) => i)
    );
    const attempts = attemptsOf(dir);
    const lost = attempts.filter((a) => a.status === "lost");
    t.true(lost.length >= 1, JSON.stringify(attempts));
    t.true(lost.every((a) => a.host === NAMES[0] && a.trials === 0));
    t.is(attempts.filter((a) => a.status === "counted").length, 4, "each chunk counted once");
    t.regex(r.stderr, /lost to infrastructure \(not counted\)/);
    // The host back for later runs.
    lab.startSshd(NAMES[0]);
    await lab.waitSsh(NAMES[0]);
  }
);
