/**
 * `forge-issue list --json` through the record cache (`.forge/.cache/
 * issues.records`): whatever is cached, the bytes are the ones a list
 * without the cache prints, after every kind of change to the store —
 * forge's own writes, an edit in place that puts size and mtime back, a
 * label colour, an archive, a new issue.
 */
import test from "ava";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cloneAs, commitAll, gitIn } from "./lib/clones.js";
import { fixtureRepo } from "./lib/fixture.js";
import { removeScratch } from "./lib/scratch.js";
import { jsonl, run } from "./lib/run.js";

test.after.always(removeScratch);

const LISTS: string[][] = [
  ["list", "--json", "-s", "all", "-L", "1000"],
  ["list", "--json", "number,title,labels,url", "-s", "all", "-L", "1000"],
  ["list", "--json", "-s", "closed", "-L", "1000"],
  ["list", "--json", "number,state"],
  ["list", "--json", "title", "-L", "2"],
];

async function issue(repo: string, args: string[]): Promise<string> {
  const r = await run("forge-issue", args, { cwd: repo });
  if (r.code !== 0) throw new Error(`forge-issue ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const records = (repo: string): string => join(repo, ".forge", ".cache", "issues.records");

/** Every list as printed without a cache, and then twice more (building the cache, then from it): all the same. */
async function sameWithAndWithoutCache(t: import("ava").ExecutionContext, repo: string): Promise<string[]> {
  await sleep(120); // past the racy-clean window of the last write, so the walk may cache every file
  const outs: string[] = [];
  for (const args of LISTS) {
    rmSync(records(repo), { force: true });
    const cold = await issue(repo, args);
    rmSync(records(repo), { force: true });
    const building = await issue(repo, args);
    const warm = await issue(repo, args);
    t.is(building, cold, args.join(" "));
    t.is(warm, cold, args.join(" "));
    outs.push(cold);
  }
  // The full lists leave a cache behind: one line per live issue.
  await issue(repo, LISTS[0]!);
  const live = jsonl(outs[0]!).length;
  t.is(
    readFileSync(records(repo), "utf8")
      .trimEnd()
      .split("\n")
      .filter((l) => !l.startsWith("\x1e")).length,
    live + 1
  );
  return outs;
}

test(
  "list --json prints the same bytes from the record " + "cache as without it, for each field set and state",
  async (t) => {
    const repo = await fixtureRepo();
    const [all, some] = await sameWithAndWithoutCache(t, repo);
    t.deepEqual(
      jsonl(some!),
      jsonl(all!).map((r) => ({ labels: r.labels, number: r.number, title: r.title, url: r.url }))
    );
  }
);

test(
  "changes made after the cache was written are listed: " + "edit, close, a new issue, a label colour, an archive",
  async (t) => {
    const repo = await fixtureRepo();
    await sameWithAndWithoutCache(t, repo);
    const before = await issue(repo, LISTS[0]!);
    await issue(repo, ["edit", "1", "--title", "Renamed ünïcödé ✓"]);
    await issue(repo, ["close", "2"]);
    await issue(repo, ["create", "-t", "a new one", "-b", "body\nwith lines"]);
    const labels = join(repo, ".forge", "labels.md");
    writeFileSync(labels, readFileSync(labels, "utf8").replace("d73a4a", "ee0000"));
    await issue(repo, ["archive", "4"]);
    const warm = await issue(repo, LISTS[0]!);
    t.not(warm, before);
    const rows = jsonl(warm);
    t.is(rows.find((r) => r.number === 1)?.title, "Renamed ünïcödé ✓");
    t.is(rows.find((r) => r.number === 2)?.state, "CLOSED");
    t.true(rows.some((r) => r.title === "a new one"));
    t.false(rows.some((r) => r.number === 4));
    t.true(
      rows.some((r) =>
        (r.labels as Array<{ name: string; color: string }>).some((l) => l.name === "bug" && l.color === "ee0000")
      )
    );
    await sameWithAndWithoutCache(t, repo);
  }
);

test("an edit in place that keeps the file's size and puts its mtime back is still seen (ctime)", async (t) => {
  const repo = await fixtureRepo();
  await sameWithAndWithoutCache(t, repo);
  const one = jsonl(await issue(repo, ["view", "1", "--json", "id,title"]))[0]!;
  const file = join(repo, ".forge", "issues", one.id as string, "issue.md");
  const st = statSync(file, { bigint: true });
  const text = readFileSync(file, "utf8");
  const title = one.title as string;
  const changed = title.replace(/^./, (c) => (c === "X" ? "Y" : "X"));
  writeFileSync(file, text.replace(title, changed)); // same length, in place
  // The mtime to the nanosecond (utimes in Node rounds to the microsecond).
  const ns = st.mtimeNs.toString().padStart(10, "0");
  execFileSync("touch", ["-m", "-d", `@${ns.slice(0, -9)}.${ns.slice(-9)}`, file]);
  t.is(statSync(file, { bigint: true }).size, st.size);
  t.is(statSync(file, { bigint: true }).mtimeNs, st.mtimeNs);
  const rows = jsonl(await issue(repo, LISTS[0]!));
  t.is(rows.find((r) => r.id === one.id)?.title, changed);
});

test("a comment another clone added, brought by git pull, is listed from a warm cache", async (t) => {
  const origin = await fixtureRepo();
  commitAll(origin, "the store");
  const clone = cloneAs(origin, "carol");
  await sameWithAndWithoutCache(t, clone); // leaves the warm cache the pull below must not be answered from
  const before = jsonl(await issue(clone, LISTS[0]!)).find((r) => r.number === 1)!;
  const file = join(clone, ".forge", "issues", before.id as string, "issue.md");
  const stamp = (): string => {
    const st = statSync(file, { bigint: true });
    return `${st.ino}:${st.mtimeNs}:${st.ctimeNs}:${st.size}`;
  };
  const was = stamp();
  await issue(origin, ["comment", "1", "-b", "from the other clone"]);
  commitAll(origin, "a comment");
  gitIn(clone, ["pull", "-q", "--no-edit"]);
  await sleep(120); // the pulled files past the racy-clean window: only their stamps can say they changed
  // The owning file is as it was: only the comments/ folder's stamp can tell the cached line is stale.
  t.is(stamp(), was);
  const warm = await issue(clone, LISTS[0]!);
  const after = jsonl(warm).find((r) => r.number === 1)!;
  t.not(after.updatedAt, before.updatedAt);
  const withComments = ["list", "--json", "number,updatedAt,comments", "-s", "all"];
  const one = jsonl(await issue(clone, withComments)).find((r) => r.number === 1)!;
  t.is(one.updatedAt, after.updatedAt);
  t.is((one.comments as Array<{ body: string }>).at(-1)?.body, "from the other clone");
  rmSync(records(clone), { force: true });
  t.is(await issue(clone, LISTS[0]!), warm);
});

test("a warm list, from the repository's root or a folder in it, takes every record from the cache", async (t) => {
  const repo = await fixtureRepo();
  const sub = join(repo, "sub");
  mkdirSync(sub);
  const lists = [LISTS[0]!, ["list", "--json", "-s", "all", "-l", "bug"]];
  const before = await Promise.all(lists.map((args) => issue(repo, args)));
  await sleep(120); // past the racy-clean window: the next walk caches every file, and the ones after rewrite nothing
  await issue(repo, LISTS[0]!);
  const stamp = (): string => {
    const st = statSync(records(repo), { bigint: true });
    return `${st.ino}:${st.mtimeNs}:${st.size}`;
  };
  const kept = stamp();
  // From the root a walk stats by paths relative to it (statStore); a line whose lstat it could not take would be
  // a miss, dropped, and the cache written again.
  for (const cwd of [repo, sub]) {
    for (const [k, args] of lists.entries()) {
      const r = await run("forge-issue", args, { cwd });
      t.is(r.stdout, before[k], `${args.join(" ")} from ${cwd === repo ? "the root" : "sub/"}`);
    }
    t.is(stamp(), kept, `the cache as it was, from ${cwd === repo ? "the root" : "sub/"}`);
  }
});

test("a store whose cache folder cannot be written still lists (the cache only costs time)", async (t) => {
  const repo = await fixtureRepo();
  await sleep(120);
  const cold = await issue(repo, LISTS[0]!);
  rmSync(join(repo, ".forge", ".cache"), { recursive: true, force: true });
  writeFileSync(join(repo, ".forge", ".cache"), "not a folder\n");
  t.is(await issue(repo, LISTS[0]!), cold);
  t.false(existsSync(records(repo)));
});

test(
  "a cache line whose stat still matches but whose payload " +
    "is torn or garbage is read from its file, never printed",
  async (t) => {
    const repo = await fixtureRepo();
    const [cold] = await sameWithAndWithoutCache(t, repo);
    const lines = readFileSync(records(repo), "utf8").split("\n");
    const cut = (l: string, payload: string): string => `${l.slice(0, l.indexOf("\x1f"))}\x1f${payload}`;
    // The stat part (before U+001F) kept, so each line would still be a hit but for its block's checksum: one torn, one
    // without its separator, one not JSON.
    lines[1] = lines[1]!.slice(0, lines[1]!.length - 40);
    lines[2] = cut(lines[2]!, "no separator here");
    lines[3] = cut(lines[3]!, '"assignees":[garbage\x1f"state":"OPEN"');
    writeFileSync(records(repo), lines.join("\n"));
    t.is(await issue(repo, LISTS[0]!), cold);
    writeFileSync(records(repo), lines.join("\n"));
    t.is(
      await issue(repo, LISTS[1]!),
      jsonl(cold!)
        .map((r) => JSON.stringify({ labels: r.labels, number: r.number, title: r.title, url: r.url }) + "\n")
        .join("")
    );
  }
);

test(
  "a walk that sees every live issue writes the cache even " + "when --limit is below the count with the archived ones",
  async (t) => {
    const repo = await fixtureRepo();
    await issue(repo, ["archive", "3"]); // with the fixture's own, two archived
    await sleep(120);
    const live = jsonl(await issue(repo, LISTS[0]!)).length;
    const total =
      readdirSync(join(repo, ".forge", "issues")).length +
      readdirSync(join(repo, ".forge", "archive", "issues")).length;
    t.true(total > live + 1);
    rmSync(records(repo), { force: true });
    await issue(repo, ["list", "--json", "-s", "all", "-L", String(live + 1)]);
    t.true(existsSync(records(repo)));
    rmSync(records(repo), { force: true });
    await issue(repo, ["list", "--json", "-s", "all", "-L", String(live - 1)]); // cut short: nothing written
    t.false(existsSync(records(repo)));
  }
);

test("a full record's url is origin's, cold and from the cache", async (t) => {
  const repo = await fixtureRepo();
  execFileSync("git", ["remote", "add", "origin", "git@github.com:acme/widgets.git"], { cwd: repo });
  const [cold] = await sameWithAndWithoutCache(t, repo);
  const rows = jsonl(cold!);
  t.true(rows.length > 1);
  for (const r of rows) t.is(r.url, `https://github.com/acme/widgets/issues/${r.number as number}`);
});

test("--ready from a warm cache sees a comment pulled into a ready issue (folders stamped as written)", async (t) => {
  const origin = await fixtureRepo();
  commitAll(origin, "the store");
  const clone = cloneAs(origin, "dave");
  const ready = ["list", "--ready", "--json", "number,updatedAt", "-L", "1000"];
  await sleep(120); // past the racy-clean window, so the walk may cache every file
  const before = jsonl(await issue(clone, ready));
  t.true(before.length > 0);
  const n = before[0]!.number as number;
  t.deepEqual(jsonl(await issue(clone, ready)), before); // from the cache it left
  await issue(origin, ["comment", String(n), "-b", "from the other clone"]);
  commitAll(origin, "a comment");
  gitIn(clone, ["pull", "-q", "--no-edit"]);
  await sleep(120); // the pulled files past the racy-clean window: only the comments/ folder's stamp moved
  const warm = await issue(clone, ready);
  t.not(jsonl(warm).find((r) => r.number === n)!.updatedAt, before[0]!.updatedAt);
  rmSync(records(clone), { force: true });
  t.is(await issue(clone, ready), warm);
});
