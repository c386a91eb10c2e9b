/**
 * Numbers are derived from `(createdAt, id)`, never stored: the same set of
 * issues gets the same numbers whatever order it was created in, two clones
 * that both create issues agree after pulling from each other, and the
 * order cache (`.forge/.cache`) changes no answer.
 */
import test from "ava";
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type FixtureIssue, writeIssues } from "./lib/fixture.js";
import { addPeer, cloneAs, commitAll, gitIn, gitTry, originRepo } from "./lib/clones.js";
import { removeScratch, scratch } from "./lib/scratch.js";
import { jsonl, run, tempRepo } from "./lib/run.js";

test.after.always(removeScratch);

/** A uuid v4 that does not sort with k (so id order and creation order differ). */
function hashId(k: number): string {
  const h = createHash("sha256").update(`issue ${k}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** 12 issues, three per second (ties on createdAt), some closed, some archived. */
const SET: FixtureIssue[] = Array.from({ length: 12 }, (_, k) => ({
  id: hashId(k),
  createdAt: `2020-03-0${1 + Math.floor(k / 3)}T12:00:00Z`,
  title: `Issue ${k}`,
  author: "alice",
  closedAt: k % 4 === 1 ? "2020-04-01T00:00:00Z" : undefined,
  archived: k % 5 === 2,
}));

/** Fisher-Yates with a small LCG: a fixed shuffle per seed. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const ORDERS: Array<[string, FixtureIssue[]]> = [
  ["as listed", SET],
  ["reversed", [...SET].reverse()],
  ["shuffle 1", shuffled(SET, 1)],
  ["shuffle 2", shuffled(SET, 2)],
  ["shuffle 3", shuffled(SET, 3)],
];

/** What the numbers must be: rank by (createdAt, id), archived included. */
const EXPECTED = [...SET]
  .sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? -1 : 1) : a.id < b.id ? -1 : 1))
  .map((i, n) => ({ id: i.id, number: n + 1, archived: i.archived === true }));

test("the shuffles really create the issues in different orders, with ties on createdAt", (t) => {
  const firsts = new Set(ORDERS.map(([, o]) => o.map((i) => i.id).join()));
  t.is(firsts.size, ORDERS.length);
  // Ids within a second are not in creation order, so the id decides ties.
  t.notDeepEqual(
    EXPECTED.map((e) => e.id),
    SET.map((i) => i.id)
  );
});

for (const [name, order] of ORDERS) {
  test(`forge-issue numbers the same set identically when created ${name}`, async (t) => {
    const cwd = scratch(tempRepo());
    await writeIssues(cwd, order);
    const r = await run("forge-issue", ["list", "--state", "all", "--limit", "100", "--json", "number,id"], { cwd });
    t.is(r.code, 0, r.stderr);
    const live = EXPECTED.filter((e) => !e.archived)
      .reverse()
      .map(({ id, number }) => ({ id, number }));
    t.deepEqual(jsonl(r.stdout), live);
    for (const e of EXPECTED.filter((x) => x.archived)) {
      const v = await run("forge-issue", ["view", e.id, "--json", "number"], { cwd });
      t.deepEqual(jsonl(v.stdout), [{ number: e.number }]);
    }
  });
}

/** `list --state all --json number,id` in `cwd`. */
async function numbers(cwd: string): Promise<Array<Record<string, unknown>>> {
  const r = await run("forge-issue", ["list", "--state", "all", "--limit", "1000", "--json", "number,id"], { cwd });
  if (r.code !== 0) throw new Error(r.stderr);
  return jsonl(r.stdout);
}

/** The ids that numbers 1..count resolve to (one `view -` fed `{"number": n}` lines). */
async function viewIds(cwd: string, count: number): Promise<string[]> {
  const input = Array.from({ length: count }, (_, i) => JSON.stringify({ number: i + 1 })).join("\n");
  const r = await run("forge-issue", ["view", "-", "--json", "number,id"], { cwd, input });
  if (r.code !== 0) throw new Error(`view -: ${r.stderr}`);
  const rows = jsonl(r.stdout);
  if (rows.some((x, i) => x.number !== i + 1)) throw new Error(`view - answered out of order: ${r.stdout}`);
  return rows.map((x) => String(x.id));
}

/** The id that `view <n>` resolves to, typed as a user would. */
async function viewId(cwd: string, n: number): Promise<string> {
  const r = await run("forge-issue", ["view", String(n), "--jq", ".id"], { cwd });
  if (r.code !== 0) throw new Error(`view ${n}: ${r.stderr}`);
  return r.stdout.trim();
}

async function create(cwd: string, author: string, title: string): Promise<void> {
  const r = await run("forge-issue", ["create", "-t", title], { cwd, env: { FORGE_AUTHOR: author } });
  if (r.code !== 0) throw new Error(r.stderr);
}

test("two clones that create issues and pull from each other agree on every number", async (t) => {
  const origin = originRepo();
  await writeIssues(origin, [{ id: hashId(100), createdAt: "2020-01-01T00:00:00Z", title: "Seed", author: "alice" }]);
  commitAll(origin, "seed issue");
  const a = cloneAs(origin, "alice");
  const b = cloneAs(origin, "bob");
  addPeer(a, b);
  addPeer(b, a);
  // Two rounds, a second apart: within a round the ids decide, across rounds the clock.
  await create(a, "alice", "A1");
  await create(b, "bob", "B1");
  await sleep(1100);
  await create(b, "bob", "B2");
  await create(a, "alice", "A2");
  await create(b, "bob", "B3");
  t.is((await numbers(a)).length, 3);
  t.is((await numbers(b)).length, 4);
  // Warm both caches with the pre-pull order (and resolve a number through it).
  await viewIds(a, 3);
  await viewIds(b, 4);
  commitAll(a, "alice's issues");
  commitAll(b, "bob's issues");

  const pullB = gitTry(b, ["pull", "peer", "main"]);
  t.is(pullB.code, 0, pullB.out);
  const pullA = gitTry(a, ["pull", "peer", "main"]);
  t.is(pullA.code, 0, pullA.out);
  t.is(gitIn(a, ["rev-parse", "HEAD"]), gitIn(b, ["rev-parse", "HEAD"]));

  const inA = await numbers(a);
  const inB = await numbers(b);
  t.deepEqual(inB, inA);
  t.deepEqual(
    inA.map((r) => r.number),
    [6, 5, 4, 3, 2, 1]
  );
  t.is(new Set(inA.map((r) => r.id)).size, 6, "no id clashes");
  // A number typed in either clone names the same issue (stale caches refreshed).
  const idsA = await viewIds(a, 6);
  t.deepEqual(await viewIds(b, 6), idsA);
  t.deepEqual(
    idsA,
    [...inA].reverse().map((r) => r.id)
  );
  for (const n of [1, 4, 6]) t.is(await viewId(b, n), idsA[n - 1]);
  // Titles follow creation time: the seed first, then round one, then round two.
  const titles = jsonl(
    (await run("forge-issue", ["list", "--state", "all", "--json", "number,title"], { cwd: a })).stdout
  );
  t.is(titles.at(-1)!.title, "Seed");
  t.deepEqual(
    titles
      .slice(3, 5)
      .map((r) => r.title)
      .sort(),
    ["A1", "B1"]
  );
  t.deepEqual(
    titles
      .slice(0, 3)
      .map((r) => r.title)
      .sort(),
    ["A2", "B2", "B3"]
  );
  // The cache is machine state: nothing to commit after all that reading.
  t.is(gitIn(a, ["status", "--porcelain"]), "");
  t.is(gitIn(b, ["status", "--porcelain"]), "");
});

test("deleting .forge/.cache changes no number", async (t) => {
  const cwd = scratch(tempRepo());
  await writeIssues(cwd, shuffled(SET, 7));
  const before = await numbers(cwd);
  const ids = await viewIds(cwd, 12);
  rmSync(join(cwd, ".forge", ".cache"), { recursive: true, force: true });
  // A number lookup first (it rebuilds the cache itself), then list.
  t.deepEqual(await viewIds(cwd, 12), ids);
  rmSync(join(cwd, ".forge", ".cache"), { recursive: true, force: true });
  t.deepEqual(await numbers(cwd), before);
  t.deepEqual(
    ids,
    EXPECTED.map((e) => e.id)
  );
});

test("view <n> in the pulling clone resolves the issue the other clone calls n", async (t) => {
  const origin = originRepo();
  const a = cloneAs(origin, "alice");
  const b = cloneAs(origin, "bob");
  addPeer(b, a);
  // Issues written with fixed times (older than anything b has), so the pull renumbers b's own issue.
  await create(b, "bob", "B's own");
  const bOwn = await viewId(b, 1);
  await writeIssues(a, SET.slice(0, 4));
  commitAll(a, "alice's issues");
  const pull = gitTry(b, ["pull", "peer", "main"]);
  t.is(pull.code, 0, pull.out);
  const idsA = await viewIds(a, 4);
  t.is(await viewId(b, 1), idsA[0]);
  t.is(await viewId(b, 5), bOwn, "b's own issue moved from #1 to #5");
  t.deepEqual(await viewIds(b, 5), [...idsA, bOwn]);
});
