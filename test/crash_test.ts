/**
 * kill -9 in the middle of writes (issue 11): creates, edits and comments
 * are started and killed after a seeded random delay, some of them while
 * other writers run. Afterwards every file of the store is readable
 * (`forge fsck` finds nothing but stray temp and lock files of the killed
 * processes), every write that was acknowledged (exit 0 before the kill)
 * is there, and the next writer gets through the dead processes' locks.
 * `FORGE_TEST_KILLS` sets the number of kills (default 60).
 */
import test from "ava";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { rng, int } from "@forge/kernel/testing";
import { BIN, baseEnv, defineLabels, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

interface Outcome {
  code: number | null;
  stdout: string;
  killed: boolean;
}

/** Start `forge-issue args`, SIGKILL it after `ms` (if still running). */
function killedAfter(dir: string, args: string[], ms: number): Promise<Outcome> {
  return new Promise((res) => {
    const child = spawn(join(BIN, "forge-issue"), args, {
      cwd: dir,
      env: baseEnv({ FORGE_LOCK_WAIT_MS: "20000" }) as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    let killed = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const timer = setTimeout(() => {
      killed = child.kill("SIGKILL");
    }, ms);
    child.on("close", (code) => {
      clearTimeout(timer);
      res({ code, stdout, killed: killed && code === null });
    });
  });
}

test("kill -9 mid-write: every file stays readable and no acknowledged write is lost", async (t) => {
  const kills = Number(process.env.FORGE_TEST_KILLS ?? "60");
  const r = rng(11);
  const dir = scratch(tempRepo("forge-crash-"));
  // Every label an edit below adds (gh refuses an undefined one).
  defineLabels(dir, ["warm", "after", ...Array.from({ length: Math.ceil(kills / 3) }, (_, i) => `r${i * 3}`)]);
  const base = await run("forge-issue", ["create", "-t", "base", "--json", "id"], { cwd: dir });
  t.is(base.code, 0, base.stderr);
  const labels: string[] = [];
  const comments: string[] = [];
  const created: string[] = [];
  let killedCount = 0;
  // Kill times spread over a whole run of a writer, as long as one takes on this machine now.
  const t0 = Date.now();
  await run("forge-issue", ["edit", "1", "--add-label", "warm"], { cwd: dir });
  let span = Date.now() - t0;
  labels.push("warm");
  for (let round = 0; round < kills; round += 3) {
    // Three writers at once: a create, an edit of issue 1 and a comment on it, each killed at a random moment.
    const tag = `r${round}`;
    const outs = await Promise.all([
      killedAfter(dir, ["create", "-t", `c ${tag}`, "--json", "id"], int(r, span / 3, span * 1.5)),
      killedAfter(dir, ["edit", "1", "--add-label", tag], int(r, span / 3, span * 1.5)),
      killedAfter(dir, ["comment", "1", "-b", `comment ${tag}`], int(r, span / 3, span * 1.5)),
    ]);
    // All three done before their kill: the machine got faster; all killed: slower. Follow it.
    if (outs.every((o) => !o.killed)) span = Math.max(20, span * 0.8);
    if (outs.every((o) => o.killed)) span *= 1.25;
    const [c, e, m] = outs as [Outcome, Outcome, Outcome];
    killedCount += outs.filter((o) => o.killed).length;
    if (c.code === 0) created.push((jsonl(c.stdout)[0] as { id: string }).id);
    if (e.code === 0) labels.push(tag);
    if (m.code === 0) comments.push(`comment ${tag}`);
    for (const o of outs)
      t.true(o.killed || o.code === 0, "a writer that was not killed succeeds (through the dead ones' locks)");
  }
  t.true(killedCount > 0, "some writers were killed mid-way");
  // The next writer breaks the dead processes' locks (with a note) and lands.
  const after = await run("forge-issue", ["edit", "1", "--add-label", "after"], {
    cwd: dir,
    env: { FORGE_LOCK_WAIT_MS: "20000" },
  });
  t.is(after.code, 0, after.stderr);
  labels.push("after");

  const fsck = await run("forge", ["fsck"], { cwd: dir });
  t.log(
    `${killedCount} killed, ${created.length} creates, ${labels.length} edits, ${comments.length} comments ` +
      `acknowledged; fsck: ${fsck.stdout.split("\n").filter(Boolean).length} stray files`
  );
  // Strays are what a kill -9 leaves by design (a temp file, a lock, a lock set aside mid-break); --prune-temp's.
  const stray = /: (stray (temp|lock) file|a broken lock set aside by an interrupted lock break)/;
  const real = fsck.stdout.split("\n").filter((l) => l !== "" && !stray.test(l));
  t.deepEqual(real, [], "every file is readable");
  const list = await run("forge-issue", ["list", "--state", "all", "-L", "100000", "--json", "id"], { cwd: dir });
  t.is(list.code, 0, list.stderr);
  const ids = new Set(jsonl(list.stdout).map((x) => x.id));
  for (const id of created) t.true(ids.has(id), `acknowledged create ${id} is there`);
  const view = await run("forge-issue", ["view", "1", "--json", "labels,comments"], { cwd: dir });
  t.is(view.code, 0, view.stderr);
  const v = jsonl(view.stdout)[0] as { labels: Array<{ name: string }>; comments: Array<{ body: string }> };
  const have = new Set(v.labels.map((l) => l.name));
  for (const l of labels) t.true(have.has(l), `acknowledged label ${l} is there`);
  const bodies = new Set(v.comments.map((c) => c.body));
  for (const b of comments) t.true(bodies.has(b), `acknowledged ${b} is there`);
});
