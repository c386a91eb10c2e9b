/**
 * More than one machine (spec/hosts.md): 40 replicates of a 1 s check over
 * two hosts against the same 40 run locally one after another. The hosts are
 * FORGE_BENCH_HOSTS (a GNU parallel sshlogin file; PARALLEL_SSH for its ssh
 * options, FORGE_BENCH_HOST_SLOTS its job slots, default 2) when it is set;
 * else, as root with `ip netns`, sshd, GNU parallel and nc, two network
 * namespace hosts made here as test/hosts_test.ts makes them
 * (tools/netns_hosts.ts) and removed after the case, also on an error,
 * SIGINT or SIGTERM; else the case is skipped with the reason. On one
 * machine the hosts share its cores, so this measures overhead, not
 * speed-up: the overhead per trial is (hosts wall × slots − local wall) / 40,
 * what a trial costs a slot beyond running it here.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { median, round, type Cmd, type Result } from "./bench_lib.js";
import { NetnsHosts } from "./netns_hosts.js";

/** Replicates per side. */
const TRIALS = 40;

/** The command being timed now (its own process group), killed with the hosts on SIGINT or SIGTERM. */
let current: ChildProcess | null = null;

/**
 * bench_lib's `time`, but asynchronous, so a SIGINT or SIGTERM to the bench is handled while a side runs
 * (a blocking spawnSync would hold it for the side's ~40 s): milliseconds, or a throw on a non-zero exit.
 */
function timeAsync(cmd: Cmd, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((res, rej) => {
    const t0 = performance.now();
    const child = spawn(cmd.argv[0]!, cmd.argv.slice(1), {
      cwd: cmd.cwd,
      env,
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    });
    current = child;
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", rej);
    child.on("close", (code, signal) => {
      current = null;
      const ms = performance.now() - t0;
      if (code === 0 && (err === "" || cmd.stderrOk)) res(ms);
      else rej(new Error(`${cmd.label}: exit ${code ?? signal}, stderr: ${err.split("\n")[0]}`));
    });
  });
}

/** Kill the command being timed, and everything it started. */
function killCurrent(): void {
  if (current?.pid === undefined || current.exitCode !== null) return;
  try {
    process.kill(-current.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** The hosts a run measures over, and how to let them go. */
export interface BenchHosts {
  file: string;
  slots: number;
  /** PARALLEL_SSH, when the hosts need one. */
  ssh: string | undefined;
  /** Where they came from, for the note. */
  what: string;
  /** Remove hosts made here (nothing for FORGE_BENCH_HOSTS); safe to call again. */
  release: () => void;
}

/**
 * FORGE_BENCH_HOSTS, else two netns hosts made now, else why neither (one line).
 * Hosts made here are removed by `release()`, or on exit, SIGINT or SIGTERM, whichever comes first.
 */
export async function benchHosts(env: NodeJS.ProcessEnv): Promise<BenchHosts | string> {
  if (env.FORGE_BENCH_HOSTS) {
    return {
      file: env.FORGE_BENCH_HOSTS,
      slots: Number(env.FORGE_BENCH_HOST_SLOTS ?? "2"),
      ssh: env.PARALLEL_SSH,
      what: "FORGE_BENCH_HOSTS",
      release: () => undefined,
    };
  }
  const lab = new NetnsHosts("fb");
  const onSignal = (s: NodeJS.Signals): void => {
    killCurrent();
    lab.remove();
    process.exit(s === "SIGINT" ? 130 : 143);
  };
  const release = (): void => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("exit", release);
    lab.remove();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("exit", release);
  let why: string | null;
  try {
    why = await lab.up();
  } catch (err) {
    why = (err as Error).message.split("\n")[0]!;
  }
  if (why !== null) {
    release();
    return `no FORGE_BENCH_HOSTS, and no netns hosts: ${why}`;
  }
  return { file: lab.hostsFile, slots: 2, ssh: lab.env.PARALLEL_SSH, what: "two netns hosts", release };
}

/**
 * Measure both sides `runs` times each (each run is ~40 s of checks), interleaved ABBA.
 * @param hosts the hosts file; `slots` its job slots
 */
export async function hostsOverhead(
  bench: string,
  bin: string,
  env: NodeJS.ProcessEnv,
  hosts: string,
  slots: number,
  runs = 3
): Promise<Result> {
  const dir = join(bench, "hosts-1s");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const git = (...a: string[]) => execFileSync("git", a, { cwd: dir, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  execFileSync(join(bin, "forge"), ["init"], { cwd: dir, stdio: "ignore" });
  mkdirSync(join(dir, ".forge", "ci", "steps"), { recursive: true });
  const step = join(dir, ".forge", "ci", "steps", "10-check");
  writeFileSync(step, "#!/bin/sh\nsleep 1\n");
  chmodSync(step, 0o755);
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=b@e", "commit", "-q", "-m", "one check");
  const ci = join(bin, "forge-ci");
  const remote: Cmd = {
    label: `forge-ci run --hosts (${slots} slots) --repeat ${TRIALS}`,
    argv: [ci, "run", "--hosts", hosts, "--repeat", String(TRIALS), "--chunk", "10"],
    cwd: dir,
    stderrOk: true,
  };
  const local: Cmd = {
    label: `forge-ci run --repeat ${TRIALS}`,
    argv: [ci, "run", "--repeat", String(TRIALS)],
    cwd: dir,
    stderrOk: true,
  };
  const load0 = loadavg()[0]!.toFixed(1);
  const hs: number[] = [];
  const ls: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      hs.push(await timeAsync(remote, env));
      ls.push(await timeAsync(local, env));
    } else {
      ls.push(await timeAsync(local, env));
      hs.push(await timeAsync(remote, env));
    }
  }
  const h = median(hs);
  const l = median(ls);
  const perTrial = (h * slots - l) / TRIALS;
  return {
    case: `hosts: ${TRIALS} replicates of a 1 s check over hosts vs locally (overhead per trial)`,
    subject: remote.label,
    baseline: local.label,
    medianMs: round(perTrial),
    baselineMedianMs: round(l / TRIALS),
    ratio: Math.round((h / l) * 100) / 100,
    target: "reported (one machine: overhead, not speed-up)",
    pass: true,
    note:
      `median of ${runs}: hosts wall ${round(h)} ms, local wall ${round(l)} ms, ${slots} slots; ` +
      `1-min load ${load0} → ${loadavg()[0]!.toFixed(1)}`,
    samplesMs: hs.map(round),
    baselineSamplesMs: ls.map(round),
  };
}
