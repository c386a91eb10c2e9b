/**
 * More than one machine (spec/hosts.md), end to end: two hosts made as
 * network namespaces, each with its own sshd on its loopback (reached
 * through `ip netns exec … nc`) and its own home folder, driven by GNU
 * parallel through `forge-ci run --hosts` and `forge-act --hosts`. A paired
 * experiment's 2 × 20 trials come from both hosts with the typed diff of a
 * local run; a host killed mid-run loses attempts, never trials; a failing
 * trial is a fail, not retried away. Needs root and `ip netns` (the test
 * makes the namespaces and removes them); otherwise every test is skipped
 * with the reason logged. `.ci/run` runs this file as root.
 */
import test, { type ExecutionContext } from "ava";
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, baseEnv, git, jsonl, run, type Ran } from "./lib/run.js";
import { stepsRepo } from "./lib/steps_repo.js";
import { removeScratch } from "./lib/scratch.js";

type Rec = Record<string, any>;

const NAMES = [`fh${process.pid}a`, `fh${process.pid}b`];
let why: string | null = null;
let lab = "";
const sshds = new Map<string, ChildProcess>();

function have(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return !r.error;
}

/** Root's home as sshd sees it (each host bind-mounts its own folder there). */
function rootHome(): string {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("root:"));
  return line?.split(":")[5] || "/root";
}

function startSshd(name: string): void {
  const home = join(lab, `home-${name}`);
  mkdirSync(home, { recursive: true });
  const script = `mount --bind ${home} ${rootHome()} && exec /usr/sbin/sshd -D -e -f ${join(lab, "sshd_config")}`;
  const child = spawn("ip", ["netns", "exec", name, "unshare", "-m", "--propagation", "private", "sh", "-c", script], {
    stdio: "ignore",
  });
  sshds.set(name, child);
}

/** Every process in a namespace, killed with SIGKILL (a host lost). */
function killHost(name: string): void {
  const pids = execFileSync("ip", ["netns", "pids", name], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const p of pids) spawnSync("kill", ["-9", p]);
}

async function waitSsh(name: string): Promise<boolean> {
  for (let i = 0; i < 60; i++) {
    const r = spawnSync("ssh", ["-F", join(lab, "ssh_config"), name, "true"], { stdio: "ignore", timeout: 20_000 });
    if (r.status === 0) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

test.before(async () => {
  if (process.getuid?.() !== 0) return void (why = "not root: cannot make network namespaces");
  for (const [cmd, args] of [
    ["ip", ["netns", "list"]],
    ["parallel", ["--version"]],
    ["/usr/sbin/sshd", ["-V"]],
    ["nc", ["-h"]],
    ["unshare", ["--version"]],
  ] as const) {
    if (!have(cmd, [...args]))
      return void (why = `${cmd} is not installed (apt-get install parallel openssh-server netcat-openbsd)`);
  }
  lab = mkdtempSync(join(tmpdir(), "forge-hosts-"));
  const probe = spawnSync("ip", ["netns", "add", NAMES[0]!], { encoding: "utf8" });
  if (probe.status !== 0) return void (why = `ip netns add failed: ${probe.stderr.trim()}`);
  spawnSync("ip", ["netns", "add", NAMES[1]!]);
  for (const n of NAMES) spawnSync("ip", ["-n", n, "link", "set", "lo", "up"]);
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(lab, "id")]);
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(lab, "hostkey")]);
  writeFileSync(join(lab, "authorized_keys"), readFileSync(join(lab, "id.pub")));
  chmodSync(join(lab, "authorized_keys"), 0o600);
  writeFileSync(
    join(lab, "sshd_config"),
    [
      "ListenAddress 127.0.0.1",
      "Port 22",
      `HostKey ${join(lab, "hostkey")}`,
      `AuthorizedKeysFile ${join(lab, "authorized_keys")}`,
      "StrictModes no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "UsePAM no",
      "PermitRootLogin prohibit-password",
      "PidFile none",
      "MaxStartups 100",
      "MaxSessions 100",
      "",
    ].join("\n")
  );
  writeFileSync(
    join(lab, "ssh_config"),
    [
      `Host ${NAMES.join(" ")}`,
      "  User root",
      `  IdentityFile ${join(lab, "id")}`,
      "  IdentitiesOnly yes",
      "  StrictHostKeyChecking no",
      "  UserKnownHostsFile /dev/null",
      "  LogLevel ERROR",
      "  ProxyCommand ip netns exec %h nc 127.0.0.1 22",
      "",
    ].join("\n")
  );
  writeFileSync(join(lab, "hosts"), `# two hosts\n1/${NAMES[0]}\n1/${NAMES[1]}\n`);
  mkdirSync("/run/sshd", { recursive: true });
  for (const n of NAMES) startSshd(n);
  for (const n of NAMES) if (!(await waitSsh(n))) return void (why = `sshd in ${n} did not answer`);
});

test.after.always(() => {
  removeScratch();
  for (const n of NAMES) {
    if (!spawnSync("ip", ["netns", "pids", n]).error) {
      try {
        killHost(n);
      } catch {
        // no such namespace
      }
      spawnSync("ip", ["netns", "del", n]);
    }
  }
  if (lab) spawnSync("rm", ["-rf", lab]);
});

function skip(t: ExecutionContext): boolean {
  if (why === null) return false;
  t.log(`skipped: ${why}`);
  t.pass();
  return true;
}

const env = (): Record<string, string> => ({ PARALLEL_SSH: `ssh -F ${join(lab, "ssh_config")}` });

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
    const remote = await run("forge-act", ["--json", "--hosts", join(lab, "hosts")], {
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
  const r = await run("forge-ci", ["run", "--hosts", join(lab, "hosts"), "--repeat", "4", "--chunk", "2", "--json"], {
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
    const home = join(lab, `home-${NAMES[0]}`);
    const child = spawn(
      join(BIN, "forge-ci"),
      ["run", "--hosts", join(lab, "hosts"), "--repeat", "20", "--chunk", "5", "--json"],
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
        killHost(NAMES[0]!);
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
    startSshd(NAMES[0]!);
    await waitSsh(NAMES[0]!);
  }
);
