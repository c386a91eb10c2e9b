/**
 * `forge-pr list` through its record cache (`.forge/.cache/prs.records`,
 * packages/pr/src/_list_cache.ts): whatever is cached, the bytes are the
 * ones a list without the cache prints, after every kind of write (create,
 * edit, review, comment, ready, merge, close), an edit in place of a review that
 * puts size and mtime back, a pull that rewrites files, and a torn cache.
 */
import test, { type ExecutionContext } from "ava";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cloneAs, commitAll, gitIn } from "./lib/clones.js";
import { prFixtureRepo } from "./lib/pr_fixture.js";
import { jsonl, run, sh } from "./lib/run.js";
import { removeScratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const FULL = ["list", "--json", "-s", "all", "-L", "1000"];
const LISTS: string[][] = [
  FULL,
  ["list", "--json", "number,title,closingIssuesReferences,mergeCommit,reviews,files,url", "-s", "all", "-L", "1000"],
  ["list", "--json", "number,state", "-l", "bug", "-s", "closed"],
  ["list", "--json", "number,isDraft,updatedAt", "--draft", "-s", "all"],
];

async function pr(repo: string, args: string[]): Promise<string> {
  const r = await run("forge-pr", args, { cwd: repo });
  if (r.code !== 0) throw new Error(`forge-pr ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const records = (repo: string): string => join(repo, ".forge", ".cache", "prs.records");

/** The cache's lines (not its header or block trailers). */
function cacheLines(repo: string): number {
  return readFileSync(records(repo), "utf8")
    .trimEnd()
    .split("\n")
    .filter((l) => !l.startsWith("\x1e")).length;
}

/**
 * Every list as printed without a cache, then after a full list built the cache (twice: from it, and after
 * a list that kept it): all the same. Returns the cold outputs.
 */
async function sameWithAndWithoutCache(t: ExecutionContext, repo: string): Promise<string[]> {
  await sleep(120); // past the racy-clean window of the last write, so the walk may cache every file
  const outs: string[] = [];
  for (const args of LISTS) {
    // First from whatever cache the writes before found (a stale line must miss), then without any.
    const warm = existsSync(records(repo)) ? await pr(repo, args) : undefined;
    rmSync(records(repo), { force: true });
    const cold = await pr(repo, args);
    if (warm !== undefined) t.is(warm, cold, `the cache the last writes found: ${args.join(" ")}`);
    rmSync(records(repo), { force: true });
    await pr(repo, FULL);
    t.is(await pr(repo, args), cold, args.join(" "));
    outs.push(cold);
  }
  // A full list leaves a cache behind: one line per live PR.
  rmSync(records(repo), { force: true });
  const full = await pr(repo, FULL);
  t.is(cacheLines(repo), jsonl(full).length + 1);
  return outs;
}

test.serial(
  "list prints the same bytes from the record cache as without it, for each field set, state and filter",
  async (t) => {
    const repo = await prFixtureRepo();
    const [all, some] = await sameWithAndWithoutCache(t, repo);
    // The table (records from the cache as objects) and gh's one array (through emit): the same as without the cache.
    for (const args of [
      ["list", "-s", "all"],
      ["list", "--json", "-s", "all"],
    ]) {
      rmSync(records(repo), { force: true });
      const array = async (): Promise<string> => {
        const r = await run("forge-pr", args, { cwd: repo, env: { FORGE_JSON: "array" } });
        t.is(r.code, 0, r.stderr);
        return r.stdout;
      };
      const cold = args.length === 3 ? await pr(repo, args) : await array();
      await pr(repo, FULL);
      t.is(args.length === 3 ? await pr(repo, args) : await array(), cold, args.join(" "));
    }
    t.true(jsonl(all!).length >= 4);
    t.deepEqual(
      jsonl(some!).map((r) => r.number),
      jsonl(all!).map((r) => r.number)
    );
  }
);

test.serial(
  "after create, edit, review, comment, merge and close the cached list is the list without the cache",
  async (t) => {
    const repo = await prFixtureRepo();
    await sameWithAndWithoutCache(t, repo);
    const before = await pr(repo, FULL);
    const created = jsonl(
      await pr(repo, ["create", "-t", "Wait for drain", "-B", "main", "-H", "topic", "--json"])
    )[0]!;
    await pr(repo, ["edit", "1", "--title", "Renamed ünïcödé ✓", "--add-label", "enhancement"]);
    await pr(repo, ["review", "2", "--request-changes", "-b", "not yet"]);
    await pr(repo, ["comment", "1", "-b", "a comment"]);
    await pr(repo, ["close", "3"]);
    await sameWithAndWithoutCache(t, repo);
    // A comment moves updatedAt; ready/ready --undo records isDraft as an edit (neither rewrites pr.md).
    await sleep(1100);
    await pr(repo, ["comment", "2", "-b", "a later comment"]);
    await pr(repo, ["ready", "2", "--undo"]);
    await sameWithAndWithoutCache(t, repo);
    await pr(repo, ["ready", "2"]);
    await sameWithAndWithoutCache(t, repo);
    mkdirSync(join(repo, ".forge", "ci", "steps"), { recursive: true });
    writeFileSync(join(repo, ".forge", "ci", "steps", "10-test"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const merged = await run("forge-pr", ["merge", String(created.number)], { cwd: repo });
    t.is(merged.code, 0, merged.stderr);
    const outs = await sameWithAndWithoutCache(t, repo);
    t.not(outs[0], before);
    const rows = jsonl(outs[0]!);
    t.is(rows.find((r) => r.number === 1)?.title, "Renamed ünïcödé ✓");
    t.is(rows.find((r) => r.number === 2)?.reviewDecision, "CHANGES_REQUESTED");
    const landed = rows.find((r) => r.id === created.id)!;
    t.is(landed.state, "MERGED");
    t.truthy((landed.mergeCommit as { oid: string } | null)?.oid);
  }
);

test.serial(
  "an edit in place of a review that keeps its size and puts its mtime back is still seen (ctime)",
  async (t) => {
    const repo = await prFixtureRepo();
    await sameWithAndWithoutCache(t, repo);
    const one = jsonl(await pr(repo, ["view", "1", "--json", "id,reviews"]))[0]!;
    const dir = join(repo, ".forge", "prs", one.id as string, "reviews");
    const file = join(dir, readdirSync(dir).sort()[0]!);
    const st = statSync(file, { bigint: true });
    const text = readFileSync(file, "utf8");
    const body = (one.reviews as Array<{ id: string; body: string }>).find((r) => file.includes(r.id))!.body;
    const word = /[A-Za-z]{3,}/.exec(body)![0];
    const changed = word.replace(/^./, (c) => (c === "X" ? "Y" : "X"));
    writeFileSync(file, text.replace(word, changed)); // same length, in place
    const ns = st.mtimeNs.toString();
    execFileSync("touch", ["-m", "-d", `@${ns.slice(0, -9)}.${ns.slice(-9)}`, file]);
    t.is(statSync(file, { bigint: true }).mtimeNs, st.mtimeNs);
    const rows = jsonl(await pr(repo, FULL));
    const reviews = rows.find((r) => r.id === one.id)!.reviews as Array<{ body: string }>;
    t.true(reviews.some((r) => r.body.includes(changed)));
    await sameWithAndWithoutCache(t, repo);
  }
);

test.serial("a pull that rewrites pr.md, a review and a patch is listed as without the cache", async (t) => {
  const origin = await prFixtureRepo();
  commitAll(origin, "the store");
  const clone = cloneAs(origin, "carol");
  await sameWithAndWithoutCache(t, clone);
  // Upstream: forge's writes, and a review file and a patch rewritten by hand (as a merge of others' edits would).
  await pr(origin, ["edit", "2", "--title", "From upstream"]);
  await pr(origin, ["review", "1", "--approve"]);
  const one = jsonl(await pr(origin, ["view", "1", "--json", "id"]))[0]!.id as string;
  const dir = join(origin, ".forge", "prs", one, "reviews");
  const review = join(dir, readdirSync(dir).sort()[0]!);
  writeFileSync(review, `${readFileSync(review, "utf8")}edited upstream\n`);
  commitAll(origin, "upstream changes");
  await sleep(120);
  const before = await pr(clone, FULL);
  gitIn(clone, ["pull", "-q", "--no-edit"]);
  const after = await pr(clone, FULL);
  t.not(after, before);
  const rows = jsonl(after);
  t.is(rows.find((r) => r.number === 2)?.title, "From upstream");
  t.true(
    (rows.find((r) => r.id === one)!.reviews as Array<{ body: string }>).some((r) => r.body.includes("edited upstream"))
  );
  rmSync(records(clone), { force: true });
  t.is(await pr(clone, FULL), after);
  await sameWithAndWithoutCache(t, clone);
});

test.serial(
  "a pull that brings only a comment, or only a ready edit, is listed with a warm cache: pr.md untouched, the " +
    "record folders' stamps miss",
  async (t) => {
    const origin = await prFixtureRepo();
    commitAll(origin, "the store");
    const clone = cloneAs(origin, "carol");
    await sameWithAndWithoutCache(t, clone); // leaves the warm cache the pulls below must not be answered from
    const row = (out: string, n: number): Record<string, unknown> => jsonl(out).find((r) => r.number === n)!;
    const owning = (n: number, out: string): string => join(clone, ".forge", "prs", row(out, n).id as string, "pr.md");
    const stamp = (file: string): string => {
      const st = statSync(file, { bigint: true });
      return `${st.ino}:${st.mtimeNs}:${st.ctimeNs}:${st.size}`;
    };
    for (const [n, args, field] of [
      [3, ["comment", "3", "-b", "from upstream"], "updatedAt"],
      [1, ["ready", "1", "--undo"], "isDraft"],
    ] as const) {
      const before = await pr(clone, FULL);
      const file = owning(n, before);
      const was = stamp(file);
      await pr(origin, [...args]);
      commitAll(origin, `upstream: ${args.join(" ")}`);
      gitIn(clone, ["pull", "-q", "--no-edit"]);
      await sleep(120); // the pulled files past the racy-clean window: only their stamps can say they changed
      // The owning file is as it was: only the record folders' stamps can tell the cached line is stale.
      t.is(stamp(file), was, `${args.join(" ")} left pr.md as it was`);
      const warm = await pr(clone, FULL);
      t.not(row(warm, n)[field], row(before, n)[field], `${args.join(" ")}: ${field} from a warm cache`);
      rmSync(records(clone), { force: true });
      t.is(await pr(clone, FULL), warm);
    }
  }
);

test.serial("a torn or garbled cache is read past, never printed", async (t) => {
  const repo = await prFixtureRepo();
  const [cold] = await sameWithAndWithoutCache(t, repo);
  const size = statSync(records(repo)).size;
  truncateSync(records(repo), Math.floor(size / 2));
  t.is(await pr(repo, FULL), cold);
  // Payloads garbled with their stat parts kept (each line would be a hit but for its block's checksum).
  await pr(repo, FULL);
  const text = readFileSync(records(repo), "utf8");
  writeFileSync(records(repo), text.replace(/"title":"[^"]*"/g, '"title":"forged"'));
  t.is(await pr(repo, FULL), cold);
  // A payload of another shape with a valid checksum: refused, read from the files.
  writeFileSync(records(repo), "not a cache\n");
  t.is(await pr(repo, FULL), cold);
  t.is(await pr(repo, FULL), cold);
  t.is(cacheLines(repo), jsonl(cold!).length + 1);
});

test.serial("list | head -1: the newest PR, exit 0 and nothing on stderr (pipefail), cold and warm", async (t) => {
  const repo = await prFixtureRepo();
  for (const args of [FULL, ["list", "-s", "all"], ["list", "-s", "all", "-S", "is:pr", "--json", "number"]]) {
    const first = (await pr(repo, args)).split("\n")[0];
    for (const walk of ["cold", "warm"]) {
      // Cold: no cache; warm: the cache a full list leaves.
      if (walk === "cold") rmSync(records(repo), { force: true });
      else await pr(repo, FULL);
      const r = await sh(`forge-pr ${args.join(" ")} | head -1`, { cwd: repo });
      const what = `${args.join(" ")}, ${walk}`;
      t.is(r.code, 0, `${what}: exit ${r.code} ${r.signal ?? ""}: ${r.stderr}`);
      t.is(r.stderr, "", what);
      t.is(r.stdout, `${first}\n`, what);
    }
  }
});
