/**
 * forge-observe's evidence caches (`.forge/.cache/imports.observed`, the
 * import log without its payloads, and `kernel.observed`, the kernel's
 * view of the fold): an observation made from them is byte for byte the one
 * made from the import files, after every kind of change — an import that
 * adds no kernel record (the view is reused, not rewritten), one that adds
 * trials, an import file edited in place with its size and mtime put back,
 * another precision, torn caches — and the view really is what answered.
 */
import test from "ava";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { crc32 } from "node:zlib";
import { makeSampleRepo } from "./lib/sample.js";
import { baseEnv, BIN, jsonl, run, sh } from "./lib/run.js";

const CACHES = ["imports.observed", "kernel.observed"];
const cache = (dir: string, name: string): string => join(dir, ".forge", ".cache", name);
const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A sample repository (tools/sample_repo.ts) in a temp folder removed after the tests. */
async function sampleRepo(seed: number): Promise<string> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-evcache-")));
  made.push(root);
  return (await makeSampleRepo(join(root, "repo"), { seed, binDir: BIN })).dir;
}

/** One observation (every file changed more than the racy window ago, so it may be kept). */
async function observeIn(dir: string, ...flags: string[]): Promise<string> {
  await sleep(80);
  const r = await run("forge-observe", ["--json", ...flags], { cwd: dir });
  if (r.code !== 0 || r.stderr !== "") throw new Error(`forge-observe: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** The observation made from the caches as they are, then the one made with none: they must agree. */
async function warmThenCold(
  t: { is: (a: string, b: string, m?: string) => void },
  dir: string,
  what: string,
  ...flags: string[]
): Promise<string> {
  const warm = await observeIn(dir, ...flags);
  for (const c of CACHES) rmSync(cache(dir, c), { force: true });
  const cold = await observeIn(dir, ...flags);
  t.is(warm, cold, what);
  await observeIn(dir, ...flags); // the caches again, for the next change
  return cold;
}

async function exportLines(dir: string, input: string, ...flags: string[]): Promise<Array<Record<string, unknown>>> {
  const r = await run("forge-export", flags, { cwd: dir, input });
  if (r.code !== 0) throw new Error(`forge-export: exit ${r.code}: ${r.stderr}`);
  return jsonl(r.stdout);
}

/** An oracle's act result: an import with an episode and no kernel record. */
const oracleResult = (id: string): string =>
  JSON.stringify({
    kind: "act_result",
    schema_version: "forge-act-result/v1",
    id,
    plan_id: "p",
    target_key: "k",
    plan_kind: "OracleConservative",
    advisory: false,
    started_at: "2026-12-01T00:00:00Z",
    completed_at: "2026-12-01T00:00:00Z",
    known_threats: [],
    trials: [],
    typed_diff: null,
    oracle: { oracle: "conservative", bound_reached: false },
  }) + "\n";

const nodes = (out: string) => jsonl(out).filter((l) => l.kind === "node");

/** The kept view changed (by default every passing check made failing), its checksum fixed. */
function forgeView(
  dir: string,
  change = (view: string): string => view.replaceAll('"verdict":"passing"', '"verdict":"failing"')
): void {
  const file = readFileSync(cache(dir, "kernel.observed"), "utf8");
  const nl = file.indexOf("\n") + 1;
  const rest = change(file.slice(nl));
  writeFileSync(
    cache(dir, "kernel.observed"),
    `${file.slice(0, nl - 10)} ${crc32(rest).toString(16).padStart(8, "0")}\n${rest}`
  );
}

/** How many checks an observation calls passing. */
const passing = (out: string): number =>
  nodes(out).filter((n) => n.claim_kind === "check" && n.verdict === "passing").length;

/**
 * A passing trial of an import file made failing in place: same size, mtime put back to the nanosecond (only ctime
 * tells).
 */
function failInPlace(file: string): void {
  const st = statSync(file, { bigint: true });
  writeFileSync(file, readFileSync(file, "utf8").replace('"outcome":"pass"', '"outcome":"fail"'));
  const ns = st.mtimeNs.toString();
  execFileSync("touch", ["-m", "-d", `@${ns.slice(0, -9)}.${ns.slice(-9)}`, file]);
}
const viewIno = (dir: string): bigint => statSync(cache(dir, "kernel.observed"), { bigint: true }).ino;

test(
  "forge-observe gives the same bytes from its evidence caches as from the import files, after every kind of " +
    "change",
  async (t) => {
    const dir = await sampleRepo(3);
    const first = await warmThenCold(t, dir, "cold");
    t.regex(readFileSync(cache(dir, "imports.observed"), "latin1"), /^forge-imports 1 [0-9a-f]{8}\n/);
    // Kept under the build of forge (a hash of its sources, the same in every executable).
    t.regex(
      readFileSync(cache(dir, "kernel.observed"), "latin1"),
      /^forge-kernel-view 1 [0-9a-f]{8}\n\{"code":"[0-9a-f]{32}",/
    );
    t.is(await observeIn(dir), first, "from the caches");

    // An import that adds no kernel record: the view is the same one, not made again.
    const ino = viewIno(dir);
    t.is((await exportLines(dir, oracleResult("oracle-1")))[0]!.status, "imported");
    const afterOracle = await observeIn(dir);
    t.is(viewIno(dir), ino, "the view was reused");
    t.not(afterOracle, first, "the import is counted");
    t.deepEqual(nodes(afterOracle), nodes(first));
    t.is(await warmThenCold(t, dir, "after an import with no kernel record"), afterOracle);

    // A CI run exported: new trials, a new view.
    const ci = await run("forge-ci", ["run"], { cwd: dir });
    t.true(ci.code === 0 || ci.code === 1, ci.stderr);
    const list = await run("forge-ci", ["list", "--json"], { cwd: dir });
    t.true((await exportLines(dir, list.stdout)).some((e) => e.status === "imported"));
    const afterRun = await warmThenCold(t, dir, "after an import with trials");
    t.not(JSON.stringify(nodes(afterRun)), JSON.stringify(nodes(afterOracle)));

    // An import file edited in place (a passing trial made failing), same size, mtime put back: only ctime tells.
    const imports = join(dir, ".forge", "evidence", "imports");
    const name = execFileSync("grep", ["-l", '"outcome":"pass"', "-r", imports], { encoding: "utf8" }).split("\n")[0]!;
    const st = statSync(name, { bigint: true });
    failInPlace(name);
    t.is(statSync(name, { bigint: true }).size, st.size);
    t.is(statSync(name, { bigint: true }).mtimeNs, st.mtimeNs);
    const edited = await warmThenCold(t, dir, "after an import file was edited in place");
    t.not(edited, afterRun);

    // Another precision is another view.
    const wide = await warmThenCold(t, dir, "at another precision", "--precision", "0.9");
    t.is(await observeIn(dir), edited);
    t.is(await observeIn(dir, "--precision", "0.9"), wide);

    // Torn and garbled caches.
    const view = readFileSync(cache(dir, "kernel.observed"));
    writeFileSync(cache(dir, "kernel.observed"), view.subarray(0, view.length - 3));
    const log = readFileSync(cache(dir, "imports.observed"));
    log.fill(0x7a, Math.floor(log.length / 2), Math.floor(log.length / 2) + 5);
    writeFileSync(cache(dir, "imports.observed"), log);
    t.is(await observeIn(dir), edited, "after a torn view and a garbled log cache");
    t.is(await warmThenCold(t, dir, "after a torn view and a garbled log cache"), edited);
  }
);

test(
  "forge-observe's kernel view is what answers while its imports are unchanged (a forged view with a good " +
    "checksum shows)",
  async (t) => {
    const dir = await sampleRepo(4);
    const before = await observeIn(dir);
    await observeIn(dir);
    t.true(passing(before) > 0);
    forgeView(dir);
    const forged = await observeIn(dir);
    t.is(passing(forged), 0, "the forged view was used");
    // An import that adds no kernel record keeps the same key (the forged view still answers) ...
    await exportLines(dir, oracleResult("oracle-2"));
    t.deepEqual(nodes(await observeIn(dir)), nodes(forged));
    // ... one that adds trials does not.
    await run("forge-ci", ["run"], { cwd: dir });
    await exportLines(dir, (await run("forge-ci", ["list", "--json"], { cwd: dir })).stdout);
    const after = await observeIn(dir);
    t.true(passing(after) > 0);
    for (const c of CACHES) rmSync(cache(dir, c), { force: true });
    t.is(await observeIn(dir), after);
  }
);

/** The view file's identity (inode, mtime, size): moved only when the view is written. */
const viewStamp = (dir: string): string => {
  const st = statSync(cache(dir, "kernel.observed"), { bigint: true });
  return `${st.ino}:${st.mtimeNs}:${st.size}`;
};

/** A CI run made and exported (an import with trials): the lane's entries. */
async function runAndExport(dir: string, ...flags: string[]): Promise<Array<Record<string, unknown>>> {
  const ci = await run("forge-ci", ["run"], { cwd: dir });
  if (ci.code !== 0 && ci.code !== 1) throw new Error(`forge-ci run: exit ${ci.code}: ${ci.stderr}`);
  return exportLines(dir, (await run("forge-ci", ["list", "--json"], { cwd: dir })).stdout, ...flags);
}

test(
  "forge-export keeps forge-observe's kernel view current: after an import with trials the next observation " +
    "answers from the lane's view, byte for byte the one made from no cache",
  async (t) => {
    const dir = await sampleRepo(5);
    await observeIn(dir);

    // The lane replaces the view, and the observation right after it (no pause: the new import may be too recent for
    // its lstat) uses it.
    let before = viewStamp(dir);
    t.true((await runAndExport(dir)).some((e) => e.status === "imported"));
    t.not(viewStamp(dir), before, "the lane wrote the view");
    before = viewStamp(dir);
    const r = await run("forge-observe", ["--json"], { cwd: dir });
    t.is(r.code, 0, r.stderr);
    t.is(viewStamp(dir), before, "observe compiled nothing: it kept the lane's view");
    t.is(await warmThenCold(t, dir, "after the lane's view"), r.stdout);

    // A lane started before its record comes (as forge-pilot starts it) reads the kept view while it waits and
    // makes again only what the new trials change: the observation is the one from no cache, and a forged line
    // the trials do not touch stays (it is the kept view the lane built on).
    for (const forged of [false, true]) {
      const ci = await run("forge-ci", ["run"], { cwd: dir });
      t.true(ci.code === 0 || ci.code === 1, ci.stderr);
      const latest = (await run("forge-ci", ["list", "--json", "-L", "1"], { cwd: dir })).stdout;
      await observeIn(dir);
      // Every node's median duration forged to one no trial has.
      if (forged) forgeView(dir, (view) => view.replaceAll(/"duration_ms":[0-9]+/g, '"duration_ms":7777777'));
      before = viewStamp(dir);
      const lane = await sh('{ sleep 1; printf %s "$RUNS"; } | forge-export', { cwd: dir, env: { RUNS: latest } });
      t.is(lane.code, 0, lane.stderr);
      t.true(jsonl(lane.stdout).some((e) => e.status === "imported"));
      t.not(viewStamp(dir), before, "the lane wrote the view");
      before = viewStamp(dir);
      const late = await observeIn(dir);
      t.is(viewStamp(dir), before, "observe compiled nothing: it kept the lane's view");
      if (!forged) {
        t.is(await warmThenCold(t, dir, "after a lane that read ahead"), late);
        continue;
      }
      const timed = nodes(late).filter((n) => n.duration_ms !== null);
      const kept = timed.filter((n) => n.duration_ms === 7777777).length;
      t.true(
        kept > 0 && kept < timed.length,
        `the nodes the run touched are made again, the others kept as forged (${kept} of ${timed.length})`
      );
      for (const c of CACHES) rmSync(cache(dir, c), { force: true });
      t.false((await observeIn(dir)).includes("7777777"), "no trial has the forged duration");
    }

    // It is the lane's view that answers (a forged one shows) ...
    await runAndExport(dir);
    forgeView(dir);
    t.is(passing(await observeIn(dir)), 0, "the forged view was used");
    for (const c of CACHES) rmSync(cache(dir, c), { force: true });
    t.true(passing(await observeIn(dir)) > 0);

    // ... at the precision the kept view was made with.
    await observeIn(dir, "--precision", "0.9");
    await runAndExport(dir);
    before = viewStamp(dir);
    const wide = await observeIn(dir, "--precision", "0.9");
    t.is(viewStamp(dir), before, "the lane made the view at 0.9");
    t.is(await warmThenCold(t, dir, "the lane's view at another precision", "--precision", "0.9"), wide);

    // The lane's new import edited in place (same size, mtime put back): its digest no longer holds, the fold is
    // compiled.
    await observeIn(dir);
    const entries = await runAndExport(dir);
    const file = join(dir, String(entries.filter((e) => e.status === "imported").at(-1)!.file));
    t.true(readFileSync(file, "utf8").includes('"outcome":"pass"'));
    const good = readFileSync(file);
    failInPlace(file);
    before = viewStamp(dir);
    const edited = await observeIn(dir);
    t.not(viewStamp(dir), before, "the view was made anew");
    t.is(await warmThenCold(t, dir, "after the lane's import was edited in place"), edited);
    // Its record_sha256 no longer holds: left out and named (the lane would refuse to import into this log).
    t.true(edited.includes(`unreadable:import:${file.slice(-69, -5)}`));
    writeFileSync(file, good);

    // A lane into another scope leaves the view of this one alone.
    await observeIn(dir);
    before = viewStamp(dir);
    t.true((await runAndExport(dir, "--scope", "other")).some((e) => e.status === "imported"));
    t.is(viewStamp(dir), before);
    const here = await observeIn(dir);
    t.is(viewStamp(dir), before, "still this scope's view");
    t.is(await warmThenCold(t, dir, "after a lane into another scope"), here);

    // Two lanes at once, each with a run the other may not have seen: whichever view is kept, the observation is the
    // one from no cache.
    await observeIn(dir);
    const runs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const ci = await run("forge-ci", ["run"], { cwd: dir });
      t.true(ci.code === 0 || ci.code === 1, ci.stderr);
      runs.push((await run("forge-ci", ["list", "--json", "-L", "1"], { cwd: dir })).stdout);
    }
    const both = await Promise.all(runs.map((r) => exportLines(dir, r)));
    t.true(both.every((es) => es.some((e) => e.status === "imported")));
    await warmThenCold(t, dir, "after two lanes at once");

    // With no view kept, the lane makes none.
    rmSync(cache(dir, "kernel.observed"));
    await runAndExport(dir);
    t.throws(() => statSync(cache(dir, "kernel.observed")), { code: "ENOENT" });
  }
);

/**
 * forge-export kept open, as forge-pilot keeps its lane: `send` writes lines and resolves with the answers they got
 * (stdout lines), `close` ends it.
 */
function openLane(dir: string): {
  send: (text: string, answers: number) => Promise<string[]>;
  close: () => Promise<number | null>;
} {
  const child = spawn(join(BIN, "forge-export"), [], {
    cwd: dir,
    env: baseEnv() as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let waiting: (() => void) | undefined;
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    waiting?.();
  });
  const closed = new Promise<number | null>((res) => child.on("close", (code) => res(code)));
  return {
    send: (text, answers) =>
      new Promise((res, rej) => {
        const seen = out.split("\n").length - 1;
        const timer = setTimeout(() => rej(new Error(`no answer from the open lane: ${out}`)), 20_000);
        waiting = () => {
          const all = out.split("\n").filter((l) => l !== "");
          if (all.length < seen + answers) return;
          clearTimeout(timer);
          waiting = undefined;
          res(all.slice(seen));
        };
        child.stdin.write(text);
      }),
    close: () => {
      child.stdin.end();
      return closed;
    },
  };
}

test(
  "forge-export kept open (forge-pilot's lane) answers each record as it comes, with the kernel view current when " +
    "it answers, and sees what other processes imported meanwhile",
  async (t) => {
    const dir = await sampleRepo(6);
    await observeIn(dir);
    const lane = openLane(dir);
    await sleep(1_000); // it reads the log and the view while it waits
    for (const foreign of [false, true, false]) {
      const ci = await run("forge-ci", ["run"], { cwd: dir });
      t.true(ci.code === 0 || ci.code === 1, ci.stderr);
      const latest = (await run("forge-ci", ["list", "--json", "-L", "1"], { cwd: dir })).stdout;
      // Another process imports a run of its own first: the open lane's next import must know of it.
      if (foreign) {
        const other = await run("forge-ci", ["run"], { cwd: dir });
        t.true(other.code === 0 || other.code === 1, other.stderr);
        t.true(
          (await exportLines(dir, (await run("forge-ci", ["list", "--json", "-L", "1"], { cwd: dir })).stdout)).some(
            (e) => e.status === "imported"
          )
        );
        await sleep(80);
      }
      const before = viewStamp(dir);
      const answers = await lane.send(latest, 1);
      t.is(answers.length, 1);
      t.is(JSON.parse(answers[0]!).status, "imported");
      t.not(viewStamp(dir), before, "the view was written before the answer");
      const now = viewStamp(dir);
      const seen = await observeIn(dir);
      t.is(
        viewStamp(dir),
        now,
        foreign
          ? "observe kept the lane's view: it folds the other process's import too"
          : "observe kept the lane's view"
      );
      t.is(await warmThenCold(t, dir, `an open lane's import${foreign ? " after another process's" : ""}`), seen);
    }
    t.is(await lane.close(), 0);
  }
);
