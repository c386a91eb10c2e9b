/**
 * Parallel writers in one clone (issue 11): edits of different fields of one
 * issue, `--add-label` from many processes, and many creates at once. Every
 * process exits 0, nothing is lost, every file stays readable, and every
 * number a create printed is the number it kept.
 */
import test from "ava";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineLabels, jsonl, run, tempRepo, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

async function newIssue(dir: string): Promise<{ id: string }> {
  const r = await run("forge-issue", ["create", "-t", "target", "--json", "id"], { cwd: dir });
  if (r.code !== 0) throw new Error(r.stderr);
  return jsonl(r.stdout)[0] as { id: string };
}

function allOk(t: { is: (a: unknown, b: unknown, m?: string) => void }, rs: Ran[]): void {
  for (const r of rs) t.is(r.code, 0, r.stderr);
}

test("8 parallel edits of different fields of one issue all land", async (t) => {
  const dir = scratch(tempRepo());
  const { id } = await newIssue(dir);
  defineLabels(dir, ["l1", "l2", "l3"]);
  const edits: string[][] = [
    ["--title", "renamed"],
    ["--body", "the body"],
    ["--add-label", "l1"],
    ["--add-assignee", "ann"],
    ["--milestone", "m1"],
    ["--add-label", "l2"],
    ["--add-assignee", "bob"],
    ["--add-label", "l3"],
  ];
  allOk(t, await Promise.all(edits.map((e) => run("forge-issue", ["edit", "1", ...e], { cwd: dir }))));
  const r = await run("forge-issue", ["view", "1", "--json", "title,body,labels,assignees,milestone,id"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  const v = jsonl(r.stdout)[0] as {
    id: string;
    title: string;
    body: string;
    labels: Array<{ name: string }>;
    assignees: Array<{ login: string }>;
    milestone: { title: string };
  };
  t.is(v.id, id);
  t.is(v.title, "renamed");
  t.is(v.body, "the body");
  t.deepEqual(v.labels.map((l) => l.name).sort(), ["l1", "l2", "l3"]);
  t.deepEqual(v.assignees.map((a) => a.login).sort(), ["ann", "bob"]);
  t.is(v.milestone.title, "m1");
  t.deepEqual(strays(dir), [], "no lock or temp file left");
});

test("8 parallel --add-label of one issue give all 8 labels", async (t) => {
  const dir = scratch(tempRepo());
  await newIssue(dir);
  const names = Array.from({ length: 8 }, (_, i) => `label-${i}`);
  defineLabels(dir, names);
  allOk(t, await Promise.all(names.map((n) => run("forge-issue", ["edit", "1", "--add-label", n], { cwd: dir }))));
  const r = await run("forge-issue", ["view", "1", "--json", "labels"], { cwd: dir });
  const labels = (jsonl(r.stdout)[0] as { labels: Array<{ name: string }> }).labels.map((l) => l.name).sort();
  t.deepEqual(labels, names);
});

test("8 × 50 parallel creates: every printed number is the number kept", async (t) => {
  const dir = scratch(tempRepo());
  const per = Number(process.env.FORGE_TEST_CREATES ?? "50");
  const worker = async (w: number): Promise<Array<{ id: string; number: number }>> => {
    const got: Array<{ id: string; number: number }> = [];
    for (let i = 0; i < per; i++) {
      const r = await run("forge-issue", ["create", "-t", `w${w} i${i}`, "--json", "id,number"], { cwd: dir });
      if (r.code !== 0) throw new Error(`create failed: ${r.stderr}`);
      got.push(jsonl(r.stdout)[0] as { id: string; number: number });
    }
    return got;
  };
  const printed = (await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)))).flat();
  t.is(printed.length, 8 * per);
  const r = await run("forge-issue", ["list", "--state", "all", "--limit", "100000", "--json", "id,number"], {
    cwd: dir,
  });
  t.is(r.code, 0, r.stderr);
  const kept = new Map(jsonl(r.stdout).map((x) => [x.id as string, x.number as number]));
  t.is(kept.size, 8 * per, "every create is there");
  const moved = printed.filter((p) => kept.get(p.id) !== p.number);
  t.deepEqual(moved, [], "no create ended with another number than it printed");
  t.deepEqual(new Set(printed.map((p) => p.number)).size, 8 * per, "no number printed twice");
});

/** Lock and temp files left anywhere in the store. */
export function strays(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".cache") continue;
      if (/\.lock$|\.tmp$|\.stale$/.test(e.name)) out.push(join(d, e.name).slice(dir.length + 1));
      if (e.isDirectory()) walk(join(d, e.name));
    }
  };
  walk(join(dir, ".forge"));
  return out;
}

test("strays() finds a lock file (the helper the tests above rely on)", (t) => {
  const dir = scratch(tempRepo());
  t.deepEqual(strays(dir), []);
  writeFileSync(join(dir, ".forge", "labels.md.lock"), "1 h 0\n");
  t.deepEqual(strays(dir), [".forge/labels.md.lock"]);
});
