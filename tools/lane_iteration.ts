/**
 * The bench's loop iteration as forge-pilot runs it, its lane open and
 * ready (packages/pilot/src/lane.ts: openLane): one forge-export for the whole run, at
 * niceness 10, without NODE_EXTRA_CA_CERTS; each iteration is `forge-observe
 * | forge-plan` and then the act's result on the lane's stdin, until the
 * lane answers it (its import-log line, written once it has kept the kernel
 * view current). Interleaved with `node -e 0` in the same process.
 *
 * Usage: node tools/dist/lane_iteration.js <bin> <store dir> <runs> <warm-up runs> oracle|trial
 * Prints {"samplesMs": [...], "baselineSamplesMs": [...]}; exit 1 on any failure.
 */
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import { join } from "node:path";

const [bin, dir, runsArg, warmupArg, kind] = process.argv.slice(2) as [string, string, string, string, string];
const env: NodeJS.ProcessEnv = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

/** Run a command to its end; rejects on a non-zero exit or any stderr. */
function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", rej);
    child.on("close", (code) =>
      code === 0 && err === "" ? res() : rej(new Error(`${cmd}: exit ${code}: ${err.split("\n")[0]}`))
    );
  });
}

const lane = spawn(join(bin, "forge-export"), ["--scope", "bench"], { cwd: dir, env, stdio: ["pipe", "pipe", "pipe"] });
setPriority(lane.pid!, 10);
let out = "";
let wake = (): void => undefined;
lane.stdout.on("data", (d: Buffer) => {
  out += d.toString();
  wake();
});
let laneError = "";
lane.stderr.on("data", (d: Buffer) => {
  laneError += d.toString();
  wake();
});
lane.on("close", () => {
  laneError ||= "the lane exited";
  wake();
});

/** The lane's next answer line. */
async function answer(): Promise<string> {
  for (;;) {
    if (laneError) throw new Error(`forge-export: ${laneError.split("\n")[0]}`);
    const nl = out.indexOf("\n");
    if (nl >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      return line;
    }
    await new Promise<void>((res) => (wake = res));
  }
}

let n = 0;
/** The act's result: an oracle's (no kernel record), or a check rerun's with one fresh trial; a fresh id each time. */
function result(): string {
  const now = new Date().toISOString().slice(0, 19) + "Z";
  const id = `bench-${process.pid}-${++n}-${Date.now()}`;
  const trial = {
    step: "00-bench",
    head_sha: "1".repeat(40),
    code_tree: "2".repeat(40),
    patch_sha256: null,
    recorded_at: now,
    argv: ["00-bench"],
    duration_ms: 10,
    exit_code: 0,
    outcome: "pass",
  };
  return (
    JSON.stringify({
      kind: "act_result",
      schema_version: "forge-act-result/v1",
      id,
      plan_id: "bench",
      target_key: "bench",
      plan_kind: kind === "trial" ? "CheckRerun" : "OracleConservative",
      advisory: false,
      started_at: now,
      completed_at: now,
      known_threats: [],
      trials: kind === "trial" ? [trial] : [],
      typed_diff: null,
      oracle: kind === "trial" ? null : { oracle: "conservative", bound_reached: false },
    }) + "\n"
  );
}

const pipe =
  '"$0/forge-observe" --json --scope bench | "$0/forge-plan" --json --history .forge/pilot/history.jsonl > /dev/null';

async function iteration(): Promise<number> {
  const t0 = performance.now();
  await run("bash", ["--norc", "-o", "pipefail", "-c", pipe, bin]);
  lane.stdin.write(result());
  const line = await answer();
  const ms = performance.now() - t0;
  if (!line.includes('"status":"imported"')) throw new Error(`no import: ${line.slice(0, 120)}`);
  return ms;
}

async function floor(): Promise<number> {
  const t0 = performance.now();
  await run("node", ["-e", "0"]);
  return performance.now() - t0;
}

const samplesMs: number[] = [];
const baselineSamplesMs: number[] = [];
try {
  for (let i = 0; i < Number(warmupArg); i++) {
    await iteration();
    await floor();
  }
  for (let i = 0; i < Number(runsArg); i++) {
    if (i % 2 === 0) {
      samplesMs.push(await iteration());
      baselineSamplesMs.push(await floor());
    } else {
      baselineSamplesMs.push(await floor());
      samplesMs.push(await iteration());
    }
  }
  lane.stdin.end();
  process.stdout.write(JSON.stringify({ samplesMs, baselineSamplesMs }) + "\n");
} catch (err) {
  lane.kill();
  process.stderr.write(`lane_iteration: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
