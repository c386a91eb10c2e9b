import test from "ava";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { folderStamp, type StampedStat } from "../store/stamp.js";
import { entityFile, ISSUES, storeAt, type Store } from "../store/store.js";
import { activityDirs } from "./activity.js";
import { addComment, archiveIssue, createIssue, ISSUE_FIELDS, type IssueContext } from "./issue.js";
import {
  cachedIssueFields,
  cachedIssueList,
  issueFilter,
  searchFilter,
  type RecordFilter,
} from "./issue_list_cache.js";
import { loadEntity } from "./load.js";
import { entityOrder, orderIds } from "./order.js";
import { handOverAfter, PRESTAT_AT, PreStat } from "./prestat.js";
import { ISSUE } from "./schema.js";
import { parseSearch } from "../search/query.js";

/** A file's lstat as the record cache compares it (`fileKey`'s fields). */
const statOf = (path: string): StampedStat => {
  const { ino, mtimeMs, ctimeMs, size } = lstatSync(path);
  return { ino, mtimeMs, ctimeMs, size };
};

const ID = (i: number): string => `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`;

/** A store of `n` issues, every fourth labelled `bug`, created a minute apart. */
function storeOf(n: number): Store {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-prestat-")), ".forge");
  mkdirSync(dir);
  const s = storeAt(dir);
  for (let i = 0; i < n; i++) {
    const now = `2026-01-01T${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:00Z`;
    const labels = i % 4 === 0 ? ["bug"] : [];
    createIssue(s, { title: `t${i}`, body: `b${i}`, author: "a", labels, assignees: [], now, id: ID(i) });
  }
  return s;
}

test("PreStat gives each live issue's lstat as the walk's own lstat would find it", async (t) => {
  const s = storeOf(30);
  archiveIssue(s, await loadEntity(s, ISSUES, ISSUE, { id: ID(3), archived: false }));
  // Not a regular file: a symlink in place of issue 7's file.
  const seven = entityFile(s, ISSUES, ID(7));
  renameSync(seven, `${seven}.real`);
  symlinkSync(`${seven}.real`, seven);
  await sleep(120); // past the racy-clean window of the writes
  const order = await entityOrder(s, ISSUES, ISSUE);
  const ps = PreStat.start(s, ISSUES, order, order.length);
  t.truthy(ps, "a thread started");
  await ps!.exited;
  for (let i = order.length - 1; i >= 0; i--) {
    const { ref } = order.at(i)!;
    const got = ps!.known(i);
    // It starts 16 ranks (GAP) below the walk's, which never asked: at the top.
    if (i >= order.length - 16) {
      t.is(got, undefined, `rank ${i}: the walk's`);
      continue;
    }
    if (ref.archived || ref.id === ID(7)) {
      t.is(got, undefined, `${ref.id}: left to the walk`);
      continue;
    }
    t.deepEqual(got && { ...got }, statOf(entityFile(s, ISSUES, ref.id)), ref.id);
  }
});

test("the thread reads an order kept as its cache file itself, a block at a time, blank past a cut", async (t) => {
  const s = storeOf(600); // three blocks of lines (256 a block)
  await sleep(120);
  const order = await entityOrder(s, ISSUES, ISSUE);
  t.truthy(orderIds(order)?.file, "an order over its cache file: nothing copied into the thread's memory");
  const ps = PreStat.start(s, ISSUES, order, order.length);
  await ps!.exited;
  for (let i = order.length - 17; i >= 0; i--) {
    t.deepEqual({ ...ps!.known(i)! }, statOf(entityFile(s, ISSUES, order.at(i)!.ref.id)), `rank ${i}`);
  }
  // Cut in place under the fd (nothing forge does): the lines past the cut read as blanks, which name no file.
  const again = await entityOrder(s, ISSUES, ISSUE);
  const file = join(s.dir, ".cache", "issues.order");
  truncateSync(file, statSync(file).size - 300 * 60); // 60 bytes a line
  const cut = PreStat.start(s, ISSUES, again, again.length);
  await cut!.exited;
  for (let i = again.length - 17; i >= 0; i--) {
    if (i >= 300) t.is(cut!.known(i), undefined, `rank ${i}: cut`);
    else t.deepEqual({ ...cut!.known(i)! }, statOf(entityFile(s, ISSUES, again.at(i)!.ref.id)), `rank ${i}`);
  }
});

test("a filter's walk that no limit cuts short starts the thread at its first entity; others after 1,024", (t) => {
  t.is(handOverAfter(PRESTAT_AT, true, 100_000, 100_000), 1, "-l bug -L 100000");
  t.is(handOverAfter(PRESTAT_AT, true, 100_000, 20_000), 1);
  t.is(handOverAfter(PRESTAT_AT, true, 30, 100_000), 1024, "a filter's 30: it may end soon");
  t.is(handOverAfter(PRESTAT_AT, false, 100_000, 100_000), 1024, "a state alone (list | head -1)");
});

test("the thread lstats newest first, 16 ranks below the rank the walk asked last", async (t) => {
  const s = storeOf(40);
  const order = await entityOrder(s, ISSUES, ISSUE);
  const ps = PreStat.start(s, ISSUES, order, order.length);
  // Asked before the thread can have started: the walk lstats it itself.
  t.is(ps!.known(39), undefined);
  await ps!.exited;
  t.is(ps!.known(39), undefined, "never given later");
  for (let i = 38; i > 22; i--) t.is(ps!.known(i), undefined, `rank ${i}: between the walk and the thread`);
  for (let i = 22; i >= 0; i--) t.truthy(ps!.known(i), `rank ${i}: the thread's`);
  t.is(ps!.known(40), undefined, "past the ranks it was given");
});

test("a walk racing the thread gets each lstat right, or none", async (t) => {
  const s = storeOf(200);
  await sleep(120);
  const order = await entityOrder(s, ISSUES, ISSUE);
  let all = 0;
  for (let round = 0; round < 5; round++) {
    const ps = PreStat.start(s, ISSUES, order, order.length);
    // In even rounds the thread is set up first (20–30 ms), so it gives ranks; in odd ones the walk starts at once
    // and catches it up as it starts.
    while (round % 2 === 0 && !ps!.running) await sleep(1);
    let given = 0;
    // Every few ranks the walk lets the thread run: it is caught up, and jumps ahead, again and again.
    for (let i = order.length - 1; i >= 0; i--) {
      if (i % (3 + round) === 0) await sleep(0);
      const got = ps!.known(i);
      if (got === undefined) continue;
      given++;
      t.deepEqual({ ...got }, statOf(entityFile(s, ISSUES, order.at(i)!.ref.id)), `round ${round}, rank ${i}`);
    }
    ps!.stop();
    all += given;
    t.log(`round ${round}: ${given} of ${order.length} from the thread`);
  }
  t.true(all > 0, "the thread gave some");
});

const DEFS: IssueContext = { labels: new Map(), milestones: new Map(), baseUrl: "https://x.test/o/r" };

async function bugs(
  s: Store,
  ahead?: { after: number; left: number; settle: boolean },
  match: RecordFilter | undefined = issueFilter({ labels: ["bug"] })
): Promise<string> {
  const order = await entityOrder(s, ISSUES, ISSUE);
  const fail = (e: unknown): never => {
    throw new Error(String(e));
  };
  const opts = {
    state: "all" as const,
    limit: 1000,
    fields: cachedIssueFields(
      ISSUE_FIELDS.filter((f) => f !== "comments"),
      false
    )!,
    onError: fail,
    onWarning: fail,
    closed: () => false,
    match,
    ahead,
  };
  const out: Buffer[] = [];
  for await (const b of cachedIssueList(s, order, DEFS, opts)) out.push(Buffer.from(b));
  return Buffer.concat(out).toString("utf8");
}

test("a filtered list with the thread's lstats is the list without them, after an edit in place too", async (t) => {
  const s = storeOf(60);
  await sleep(120);
  const alone = await bugs(s); // 60 issues: no thread; writes the cache
  t.is(alone.split("\n").length - 1, 15);
  const shared = { after: 1, left: 0, settle: true }; // the thread takes every rank below the newest
  t.is(await bugs(s, shared), alone, "from the cache");
  // An old issue (a rank the thread stats) gains the label in place: same inode, no folder moves.
  const f = entityFile(s, ISSUES, ID(1));
  const text = readFileSync(f, "utf8");
  t.true(text.includes("\nlabels:\nassignees:"));
  writeFileSync(f, text.replace("\nlabels:\n", "\nlabels:\n  - bug\n"));
  const edited = await bugs(s, shared);
  t.is(edited.split("\n").length - 1, 16);
  t.regex(edited.split("\n")[14]!, /"title":"t1"/);
  t.is(await bugs(s), edited, "the same without the thread");
});

test("the thread stamps record folders ahead of the walk as folderStamp does", async (t) => {
  const s = storeOf(60);
  // Folders there (a comment's), and not.
  for (const k of [2, 5, 40]) {
    const e = await loadEntity(s, ISSUES, ISSUE, { id: ID(k), archived: false });
    addComment(s, e, { body: "seen", author: "b", now: "2026-02-01T00:00:00Z" });
  }
  await sleep(120);
  const order = await entityOrder(s, ISSUES, ISSUE);
  const ps = PreStat.start(s, ISSUES, order, order.length);
  await ps!.exited;
  let given = 0;
  for (let i = order.length - 1; i >= 0; i--) {
    const got = ps!.folders(i);
    if (got === undefined) continue;
    given++;
    t.is(got, folderStamp(activityDirs(entityFile(s, ISSUES, order.at(i)!.ref.id), false)).value, `rank ${i}`);
  }
  // The walk is at the top: the thread stamps all but the 16 ranks just ahead of it.
  t.is(given, 60 - 16);
  t.regex(ps!.folders(2)!, /^\d+\.\d+;-;$/);
  t.is(ps!.folders(3), "-;-;");
  t.is(ps!.folders(60), undefined);
  // A walk that stamps folders with each lookup asks for none: the thread only lstats.
  const lstatsOnly = PreStat.start(s, ISSUES, order, order.length, false);
  await lstatsOnly!.exited;
  t.truthy(lstatsOnly!.known(0), "its lstats");
  for (let i = 0; i < order.length; i++) t.is(lstatsOnly!.folders(i), undefined, `rank ${i}`);
});

test("a filtered list with the thread's folder stamps sees a comment added to an old issue", async (t) => {
  const s = storeOf(60);
  await sleep(120);
  const shared = { after: 1, left: 0, settle: true };
  const before = await bugs(s, shared); // writes the cache
  t.is(await bugs(s, shared), before, "from the cache");
  // Issue 4 (a bug, a rank the thread stamps): a comment moves its updatedAt, not its file.
  const e = await loadEntity(s, ISSUES, ISSUE, { id: ID(4), archived: false });
  addComment(s, e, { body: "again", author: "b", now: "2026-03-01T00:00:00Z" });
  await sleep(120);
  const after = await bugs(s, shared);
  t.not(after, before);
  t.regex(
    after.split("\n").find((l) => l.includes('"title":"t4"'))!,
    /"updatedAt":"2026-03-01T00:00:00Z"/
  );
  t.is(await bugs(s), after, "the same without the thread");
});

test("a search by updatedAt with the thread's lstats stamps each record's folders: a comment moves it", async (t) => {
  const s = storeOf(60);
  await sleep(120);
  // `updated:` reads what the record folders move: the walk stamps them with each lookup, not the thread.
  const updated = searchFilter(parseSearch("updated:>2000-01-01"), {});
  const shared = { after: 1, left: 0, settle: true };
  const before = await bugs(s, shared, updated); // writes the cache
  t.is(before.split("\n").length - 1, 60);
  t.is(await bugs(s, shared, updated), before, "from the cache");
  // Twice: the second list reads the cache the first one wrote after the comment.
  for (const [k, at] of [
    [4, "2026-03-01T00:00:00Z"],
    [5, "2026-04-01T00:00:00Z"],
  ] as const) {
    addComment(s, await loadEntity(s, ISSUES, ISSUE, { id: ID(k), archived: false }), {
      body: "again",
      author: "b",
      now: at,
    });
    await sleep(120);
    const after = await bugs(s, shared, updated);
    t.true(
      after
        .split("\n")
        .find((l) => l.includes(`"title":"t${k}"`))!
        .includes(`"updatedAt":"${at}"`),
      `t${k}`
    );
    t.is(after, await bugs(s, undefined, updated), "the same without the thread");
  }
});
