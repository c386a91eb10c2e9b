/**
 * A cold list (no `.cache/`) of more issues than `PREREAD_AT` reads them
 * with a second thread ahead of it (`PreRead`: each file, its record
 * folders' stamps and its last activity). Run through the built executable,
 * whose thread runs code the bundler rewrote: its answer is the uncached
 * path's (a field the record cache does not hold, `comments`, bypasses it),
 * and the cache it leaves answers the same.
 */
import test from "ava";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { COMMENT, formatFrontmatter, ISSUES, toFrontmatter } from "@forge/core";
import { genId, genTime, writeManyIssues } from "./lib/fixture.js";
import { run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const N = 8300;

test("a cold list read ahead by a thread answers as the uncached path, and its cache as well", async (t) => {
  const repo = scratch(tempRepo("forge-cold-thread-"));
  writeManyIssues(repo, N);
  // Every seventh issue has a comment, some newer than the issue: updatedAt comes from the record folders.
  for (let k = 0; k < N; k += 7) {
    const dir = join(repo, ".forge", ISSUES.plural, genId(k), "comments");
    mkdirSync(dir);
    const id = `11111111-0000-4000-8000-${k.toString(16).padStart(12, "0")}`;
    const data = { id, author: "bob", createdAt: genTime(N + k) };
    writeFileSync(join(dir, `${id}.md`), formatFrontmatter(toFrontmatter(COMMENT, data), `seen ${k}\n`));
  }
  await sleep(120); // past the racy-clean window of the writes
  const list = async (args: string[]): Promise<string> => {
    const r = await run("forge-issue", ["list", "-s", "all", "-L", "10000", ...args], { cwd: repo });
    t.is(r.code, 0, r.stderr);
    t.is(r.stderr, "");
    return r.stdout;
  };
  const cold = await list(["--json"]);
  const lines = cold.trimEnd().split("\n");
  t.is(lines.length, N);
  t.is(await list(["--json"]), cold, "warm, from the cache it left");
  const fields = Object.keys(JSON.parse(lines[0]!) as object);
  const uncached = (await list(["--json", [...fields, "comments"].join(",")])).trimEnd().split("\n");
  t.is(uncached.length, N);
  let moved = 0;
  for (let i = 0; i < N; i++) {
    const u = JSON.parse(uncached[i]!) as Record<string, unknown>;
    delete u.comments;
    const c = JSON.parse(lines[i]!) as Record<string, unknown>;
    t.deepEqual(c, u);
    if (c.updatedAt !== c.createdAt) moved++;
  }
  t.is(moved, Math.ceil(N / 7), "each commented issue's updatedAt is its comment's");
});

test("a cold list read ahead while issues are edited and commented on: later answers are the uncached", async (t) => {
  const repo = scratch(tempRepo("forge-cold-race-"));
  writeManyIssues(repo, N);
  await sleep(120);
  const list = async (): Promise<string> => {
    const r = await run("forge-issue", ["list", "-s", "all", "-L", "10000", "--json"], { cwd: repo });
    t.is(r.code, 0, r.stderr);
    return r.stdout;
  };
  // Writers on old and new issues (ranks the thread reads ahead, or has read) while the cold list runs.
  const writes = (async () => {
    for (let i = 0; i < 6; i++) {
      const n = String(((i * 977) % N) + 1);
      const c = await run("forge-issue", ["comment", n, "-b", `meanwhile ${i}`], { cwd: repo });
      const e = await run("forge-issue", ["edit", String(N - i * 13), "-t", `retitled ${i}`], { cwd: repo });
      t.deepEqual([c.code, e.code], [0, 0], c.stderr + e.stderr);
    }
  })();
  await list();
  await writes;
  const warm = await list();
  renameSync(join(repo, ".forge", ".cache"), join(repo, "cache.was"));
  t.is(warm, await list(), "the answer with no cache");
  t.is(warm.split("\n").filter((l) => l.includes('"title":"retitled')).length, 6);
});
