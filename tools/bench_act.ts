/**
 * forge-act and forge-pilot's bench cases (issue 10), both as ratios in one run:
 * - one iteration's own overhead (observe + plan + export, checks
 *   excluded) on bench_loop.ts's store of 10,000 entities and 10,000
 *   trials (target ≤ 500 ms): an iteration as forge-pilot runs them (its
 *   lane open and ready), and one whose lane starts with it;
 * - a paired experiment's wall time against the slower of its two sides
 *   run alone: `forge-act` of a PairedPatch plan (baseline and patched in
 *   parallel, 3 repetitions each) vs `forge-ci run --at <base> --repeat 3`
 *   and `forge-ci run <pr> --repeat 3` (target ≤ 1.15 × the slower side).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, round, time, type Case, type Cmd, type Result } from "./bench_lib.js";

/**
 * An iteration whose lane starts with it, on the store bench_loop.ts
 * generates (`.bench/loop-10k`: 9,000 issues, 1,000 PRs, 10,000 trials;
 * measured after its own case, so the imports these add do not touch it):
 * the lane reads the log and compiles the fold beside observe and plan (as
 * after a lane died, or at a run's start when the pick-up, which the lane
 * otherwise waits through, had nothing to export). The act's result is an oracle's (no kernel record: the
 * next observation reuses its kernel view), or, with `trials`, a check
 * rerun's (one trial, as after every CheckRerun or PairedPatch: the lane
 * extends the fold and keeps its view, which the next observation reuses).
 * keptLaneIteration measures the iterations after it.
 * @param bench the bench folder (`.bench/`)
 * @param bin the built executables
 * @param root the repository root
 */
export function loopIterationCase(bench: string, bin: string, root: string, trials = false): Case {
  const dir = join(bench, "loop-10k");
  // forge-export started with the iteration (a new lane), `forge-observe | forge-plan`
  // as a pipe, then the act's result (a fresh id per run, so every export is a real import) on the lane's
  // stdin, in the scope of the 10,000 trials (gen_evidence's). The three start without NODE_EXTRA_CA_CERTS,
  // and the lane at niceness 10, as forge-pilot starts them (packages/pilot: tools.ts STORE_ONLY, lane.ts openLane).
  const trial =
    '{"step":"00-bench","head_sha":"%s","code_tree":"%s","patch_sha256":null,"recorded_at":"%s","argv":["00-bench"],' +
    '"duration_ms":10,"exit_code":0,"outcome":"pass"}';
  const result =
    '{"kind":"act_result","schema_version":"forge-act-result/v1","id":"bench-%s-%s",' +
    '"plan_id":"bench","target_key":"bench",' +
    `"plan_kind":"${trials ? "CheckRerun" : "OracleConservative"}","advisory":false,` +
    `"started_at":"%s","completed_at":"%s","known_threats":[],"trials":[${trials ? trial : ""}],` +
    `"typed_diff":null,"oracle":${trials ? "null" : '{"oracle":"conservative","bound_reached":false}'}}\\n`;
  const script = [
    "set -eo pipefail",
    "unset NODE_EXTRA_CA_CERTS",
    // The result's time and a fresh id, by bash itself: the pilot has the act's result in hand (no process besides the
    // tools).
    "TZ=UTC printf -v now '%(%Y-%m-%dT%H:%M:%SZ)T' -1",
    "{",
    `  "$0/forge-observe" --json --scope bench | "$0/forge-plan" --json --history .forge/pilot/history.jsonl > ` +
      `/dev/null`,
    `  printf '${result}' "$$" "\${EPOCHREALTIME/./}" "$now" "$now"` +
      `${trials ? ` ${"1".repeat(40)} ${"2".repeat(40)} "$now"` : ""}`,
    '} | nice -n 10 "$0/forge-export" --scope bench',
  ].join("\n");
  return {
    name:
      `loop iteration with a lane started with it (observe + plan + export) @10k entities + 10k ` +
      `trials${trials ? ", act adds a trial" : ""}`,
    target: { kind: "ms", max: 500 },
    note:
      "checks excluded; as forge-pilot runs an iteration whose lane it has just opened (after a lane died, or at a " +
      "run's start when the pick-up had nothing to export): the lane's start-up and read-ahead beside observe | " +
      "plan, the act's result, the three without NODE_EXTRA_CA_CERTS, the lane at niceness 10; " +
      (trials
        ? "each run exports a check rerun's result with one fresh trial (a real import that changes the fold: the " +
          "lane compiles it and keeps its kernel view for the next observation)"
        : "each run exports one fresh act result (a real import): an oracle's, which adds no kernel record, so " +
          "forge-observe reuses its kernel view (.forge/.cache/kernel.observed)"),
    baseline: { label: "node -e 0", argv: ["node", "-e", "0"], cwd: root },
    subject: {
      label: "bash: { forge-observe | forge-plan; act result } | forge-export",
      argv: ["bash", "--norc", "-c", script, bin],
      cwd: dir,
      check: (out) => (out.includes('"status":"imported"') ? undefined : `no import: ${out.slice(0, 120)}`),
    },
  };
}

/**
 * The same iteration as forge-pilot runs them: its lane (one forge-export
 * for the whole run, opened before the pick-up, packages/pilot/src/lane.ts)
 * is open and ready, so the iteration is `forge-observe | forge-plan` and
 * the lane's answer to the act's result (the import, and the kernel view
 * kept current before it answers). Measured by tools/lane_iteration.ts,
 * which keeps the lane open across the runs, interleaved with `node -e 0`.
 */
export function keptLaneIteration(
  bench: string,
  bin: string,
  root: string,
  env: NodeJS.ProcessEnv,
  runs: number,
  warmup: number,
  trials = false
): Result {
  const dir = join(bench, "loop-10k");
  const r = spawnSync(
    "node",
    [
      join(root, "tools", "dist", "lane_iteration.js"),
      bin,
      dir,
      String(runs),
      String(warmup),
      trials ? "trial" : "oracle",
    ],
    {
      cwd: dir,
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 1 << 26,
    }
  );
  if (r.status !== 0) throw new Error(r.stderr.trim().split("\n").pop() ?? `exit ${r.status}`);
  const { samplesMs, baselineSamplesMs } = JSON.parse(r.stdout) as { samplesMs: number[]; baselineSamplesMs: number[] };
  const m = median(samplesMs);
  const b = median(baselineSamplesMs);
  return {
    case: `loop iteration (observe + plan + export) @10k entities + 10k trials${trials ? ", act adds a trial" : ""}`,
    subject: "forge-observe | forge-plan, then the act's result to the open lane, to its answer",
    baseline: "node -e 0",
    medianMs: round(m),
    baselineMedianMs: round(b),
    ratio: Math.round((m / b) * 100) / 100,
    target: "≤ 500 ms",
    pass: m <= 500,
    note:
      "checks excluded; as forge-pilot runs its iterations: the export lane (one forge-export for the run, niceness " +
      "10, opened before the pick-up) is open and ready, " +
      (trials
        ? "and the act's result adds one fresh trial (a real import that changes the fold: the lane extends its fold " +
          "and kernel view, and writes the view before it answers)"
        : "and the act's result is an oracle's (a real import that adds no kernel record: the kept view stays)"),
    samplesMs: samplesMs.map(round),
    baselineSamplesMs: baselineSamplesMs.map(round),
  };
}

/** A repo whose three steps each sleep 150 ms and pass, and a PR that touches a file. */
function pairedRepo(dir: string, bin: string): { base: string; plan: string; prNumber: number } {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, FORGE_AUTHOR: "bench", GIT_CONFIG_NOSYSTEM: "1" };
  const sh = (cmd: string, ...a: string[]) =>
    execFileSync(cmd, a, { cwd: dir, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  sh("git", "init", "-q", "-b", "main");
  sh("git", "config", "user.name", "bench");
  sh("git", "config", "user.email", "b@e");
  sh("git", "config", "commit.gpgsign", "false");
  sh(join(bin, "forge"), "init");
  const steps = join(dir, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  for (const s of ["10-a", "20-b", "30-c"]) {
    writeFileSync(join(steps, s), "#!/bin/sh\nsleep 0.15\n");
    chmodSync(join(steps, s), 0o755);
  }
  writeFileSync(join(dir, "app.txt"), "v1\n");
  sh("git", "add", "-A");
  sh("git", "commit", "-qm", "app");
  sh("git", "checkout", "-q", "-b", "change");
  writeFileSync(join(dir, "app.txt"), "v2\n");
  sh("git", "commit", "-qam", "change");
  sh("git", "checkout", "-q", "main");
  const pr = JSON.parse(
    sh(join(bin, "forge-pr"), "create", "-t", "change", "-B", "main", "-H", "change", "--json", "id,number,patchSha256")
  ) as { id: string; number: number; patchSha256: string };
  const base = sh("git", "rev-parse", "main").trim();
  const plan = JSON.stringify({
    kind: "plan",
    plan_id: "bench-paired",
    plan_kind: "PairedPatch",
    target_key: "bench",
    scope: "default",
    params: {
      pr: { id: pr.id, number: pr.number },
      patch_sha256: pr.patchSha256,
      base_sha: base,
      checks: ["10-a", "20-b", "30-c"],
      repetitions: 3,
      closes: [],
    },
  });
  writeFileSync(join(dir, "..", "paired-plan.jsonl"), plan + "\n");
  return { base, plan: join(dir, "..", "paired-plan.jsonl"), prNumber: pr.number };
}

/**
 * The paired-wall case: medians of the three commands, interleaved; the ratio is paired / max(sides).
 * @param env the environment of every run
 */
export function pairedWall(bench: string, bin: string, env: NodeJS.ProcessEnv, runs: number, warmup: number): Result {
  const dir = join(bench, "paired", "repo");
  mkdirSync(join(bench, "paired"), { recursive: true });
  const { base, plan, prNumber } = pairedRepo(dir, bin);
  const ci = join(bin, "forge-ci");
  const cmds: Cmd[] = [
    {
      label: "forge-ci run --at <base> --repeat 3 (baseline alone)",
      argv: [ci, "run", "--at", base, "--repeat", "3", "--continue-on-error"],
      cwd: dir,
      stderrOk: true,
    },
    {
      label: `forge-ci run ${prNumber} --repeat 3 (patched alone)`,
      argv: [ci, "run", String(prNumber), "--repeat", "3", "--continue-on-error"],
      cwd: dir,
      stderrOk: true,
    },
    {
      label: "forge-act < PairedPatch (both, in parallel)",
      argv: ["sh", "-c", `exec ${join(bin, "forge-act")} --json < ${plan}`],
      cwd: dir,
    },
  ];
  const samples: number[][] = cmds.map(() => []);
  for (let i = 0; i < warmup; i++) for (const c of cmds) time(c, i === 0, env);
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
    for (const k of order) samples[k]!.push(time(cmds[k]!, false, env));
  }
  const [b, p, both] = samples.map(median) as [number, number, number];
  const slower = Math.max(b, p);
  const ratio = both / slower;
  return {
    case: "paired experiment wall vs the slower side alone",
    subject: cmds[2]!.label,
    baseline: b >= p ? cmds[0]!.label : cmds[1]!.label,
    medianMs: round(both),
    baselineMedianMs: round(slower),
    ratio: Math.round(ratio * 100) / 100,
    target: "≤ 1.15×",
    pass: ratio <= 1.15,
    note: `baseline side ${round(b)} ms, patched side ${round(p)} ms, paired ${round(both)} ms`,
    samplesMs: samples[2]!.map(round),
    baselineSamplesMs: (b >= p ? samples[0]! : samples[1]!).map(round),
  };
}
