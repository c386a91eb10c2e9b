import test from "ava";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { listEntityRefs } from "../store/entities_dir.js";
import { readStoreFileStat } from "../store/read_file.js";
import { folderStamp } from "../store/stamp.js";
import { cacheDir, entityDir, entityFile, ISSUES, storeAt, type Store } from "../store/store.js";
import { activityDirs, lastActivity } from "./activity.js";
import { addComment, archiveIssue, createIssue, ISSUE_FIELDS, type IssueContext } from "./issue.js";
import { cachedIssueFields, cachedIssueList, IssueStaging } from "./issue_list_cache.js";
import { loadEntity } from "./load.js";
import { entityOrder } from "./order.js";
import { PREREAD_AT, PreRead } from "./pre_read.js";
import { knownFile } from "./record_cache.js";
import { ISSUE } from "./schema.js";

const ID = (i: number): string => `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`;
const REC = (i: number): string => `${String(i).padStart(8, "0")}-1111-4000-8000-000000000000`;
const two = (n: number): string => String(n).padStart(2, "0");
const at = (i: number): string =>
  `2026-01-01T${two(Math.floor(i / 3600) % 24)}:${two(Math.floor(i / 60) % 60)}:${two(i % 60)}Z`;

/** A store of `n` issues created a second apart, every third with a comment; bodies of `body(i)` bytes. */
async function storeOf(n: number, body = (_i: number) => 8): Promise<Store> {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-preread-")), ".forge");
  mkdirSync(dir);
  const s = storeAt(dir);
  for (let i = 0; i < n; i++) {
    const text = `b${i} ${"x".repeat(Math.max(0, body(i) - 8))}`;
    createIssue(s, { title: `t${i}`, body: text, author: "a", labels: [], assignees: [], now: at(i), id: ID(i) });
    if (i % 3 === 0) {
      const e = await loadEntity(s, ISSUES, ISSUE, { id: ID(i), archived: false });
      addComment(s, e, { body: `c${i}`, author: "b", now: at(n + i), id: REC(i) });
    }
  }
  return s;
}

/** An edit record of issue `i` as `pr ready` writes one (it sets isDraft): the thread leaves its folders alone. */
function draftEdit(s: Store, i: number): void {
  const dir = join(entityDir(s, ISSUES, ID(i)), "edits");
  mkdirSync(dir, { recursive: true });
  const head = `---\nid: ${REC(i)}\nauthor: a\ncreatedAt: "2026-03-01T00:00:00Z"\n`;
  const text = `${head}fields:\n  - isDraft\nisDraft: true\n---\n`;
  writeFileSync(join(dir, `${REC(i)}.md`), text);
}

test("PreRead gives each live issue's file and record folders as the reader would read and stamp them", async (t) => {
  const s = await storeOf(40);
  archiveIssue(s, await loadEntity(s, ISSUES, ISSUE, { id: ID(3), archived: false }));
  // Issue 7's file a symlink (the reader follows it inside the store); 8's over a quarter of the text ring.
  const seven = entityFile(s, ISSUES, ID(7));
  renameSync(seven, `${seven}.real`);
  symlinkSync(`${seven}.real`, seven);
  const eight = entityFile(s, ISSUES, ID(8));
  writeFileSync(eight, readFileSync(eight, "utf8").replace("b8 ", `b8 ${"y".repeat(140_000)}`));
  // 10's comments/ a file, not a folder (stamped, not listed); 11 has an edit record that sets isDraft.
  writeFileSync(join(entityDir(s, ISSUES, ID(10)), "comments"), "not a folder");
  draftEdit(s, 11);
  const refs = listEntityRefs(s, ISSUES);
  const pre = PreRead.start(s, ISSUES);
  t.truthy(pre, "a thread started");
  pre!.list(refs);
  await pre!.exited; // 40 ranks: all published (a ring of 512), the reader at none
  let files = 0;
  let folders = 0;
  for (let rank = 0; rank < refs.length; rank++) {
    const ref = refs[rank]!;
    const got = pre!.take(rank);
    if (ref.archived) {
      t.is(got, undefined, "an archived issue is the reader's");
      continue;
    }
    t.truthy(got, ref.id);
    const path = entityFile(s, ISSUES, ref.id);
    if (ref.id === ID(7) || ref.id === ID(8)) t.is(got!.file, undefined, `${ref.id}: its file is the reader's`);
    else {
      const own = readStoreFileStat(s, path);
      t.is(got!.file!.text, own.text);
      const { ino, mtimeMs, ctimeMs, size } = own.stat!;
      const st = got!.file!.stat;
      t.deepEqual([st.ino, st.mtimeMs, st.ctimeMs, st.size, st.isFile()], [ino, mtimeMs, ctimeMs, size, true]);
      t.true(got!.at <= Date.now() && got!.at > Date.now() - 60_000);
      files++;
    }
    if (ref.id === ID(11)) {
      t.is(got!.folders, undefined, "an isDraft edit: its folders are the reader's");
      continue;
    }
    const dirs = activityDirs(path, false);
    const stamp = folderStamp(dirs);
    t.is(got!.folders!.value, stamp.value, ref.id);
    t.deepEqual(
      got!.folders!.absent.map((i) => dirs[i]),
      stamp.absent ?? [],
      ref.id
    );
    const e = await loadEntity(s, ISSUES, ISSUE, ref);
    t.is(got!.folders!.activity, lastActivity(e), ref.id);
    if (ref.id === ID(0)) t.is(got!.folders!.activity, at(40), "its comment's createdAt");
    folders++;
  }
  t.is(files, 37);
  t.is(folders, 38);
});

test("a rank the reader reaches first stays the reader's: the thread goes on past it", async (t) => {
  const s = await storeOf(40);
  const refs = listEntityRefs(s, ISSUES);
  const pre = PreRead.start(s, ISSUES)!;
  pre.list(refs);
  // Asked before the thread can have started (its set-up takes ms): the reader reads it itself.
  t.is(pre.take(0), undefined);
  await pre.exited;
  for (let rank = 1; rank < 8; rank++) t.is(pre.take(rank), undefined, `rank ${rank}: within the gap, never taken`);
  t.truthy(pre.take(8), "past the gap, the thread's");
  t.truthy(pre.take(39));
});

test("the thread's stamps are judged still as of when it took them, not when they are used", async (t) => {
  const s = await storeOf(3);
  // Issue 0's comments/ changed after now (a clock ahead, or a write the thread raced): not still when stamped.
  const later = Date.now() / 1000 + 5;
  utimesSync(join(entityDir(s, ISSUES, ID(0)), "comments"), later, later);
  const refs = listEntityRefs(s, ISSUES);
  const pre = PreRead.start(s, ISSUES)!;
  pre.list(refs);
  await pre.exited;
  const rank = refs.findIndex((r) => r.id === ID(0));
  const got = pre.take(rank)!;
  const path = entityFile(s, ISSUES, ID(0));
  const st = got.file!.stat;
  const dirs = activityDirs(path, false);
  const used = Date.now() + 60_000; // used long after: stamped now, the folders would be still by then
  t.not(knownFile(st, used, dirs).stamp, null);
  t.is(knownFile(st, used, dirs, got).stamp, null, "the thread's stamp cannot vouch");
  t.is(knownFile(st, used, dirs, got).key, knownFile(st, used, dirs).key, "the same key");
});

const DEFS: IssueContext = { labels: new Map(), milestones: new Map(), baseUrl: "https://x.test/o/r" };
const FIELDS = ISSUE_FIELDS.filter((f) => f !== "comments");

/** A cold (or warm) full list, as `forge-issue list --json` makes it, and the record cache it leaves. */
async function listed(s: Store, cold: boolean): Promise<string> {
  const staged = new IssueStaging(s, Promise.resolve(DEFS));
  const order = await entityOrder(s, ISSUES, ISSUE, cold ? { onRead: staged.onRead } : {});
  const fail = (e: unknown): never => {
    throw new Error(String(e));
  };
  const fields = cachedIssueFields(FIELDS, false)!;
  const opts = { state: "all" as const, limit: 100_000, fields, onError: fail, onWarning: fail, closed: () => false };
  const out: Buffer[] = [];
  for await (const b of cachedIssueList(s, order, DEFS, { ...opts, staged: cold ? staged : undefined }))
    out.push(Buffer.from(b));
  staged.close();
  return Buffer.concat(out).toString("utf8");
}

test("a cold list read ahead is the list without the thread, its cache too, and sees later comments", async (t) => {
  // 1,200 issues, every tenth of 60 KB: the 512 KiB text ring holds a few of those (it wraps, and waits).
  const s = await storeOf(1200, (i) => (i % 10 === 0 ? 60_000 : 1100));
  draftEdit(s, 5);
  await sleep(120); // past the racy-clean window of the writes, so every record is cached
  const was = PREREAD_AT.refs;
  try {
    PREREAD_AT.refs = Infinity;
    const alone = await listed(s, true);
    t.is(alone.split("\n").length - 1, 1200);
    const records = readFileSync(join(cacheDir(s), "issues.records"));
    rmSync(cacheDir(s), { recursive: true });
    PREREAD_AT.refs = 1;
    t.is(await listed(s, true), alone, "the same list");
    t.deepEqual(readFileSync(join(cacheDir(s), "issues.records")), records, "the same cache");
    t.deepEqual(
      readdirSync(cacheDir(s)).filter((n) => n.includes("staged")),
      [],
      "no temp file left"
    );
    // An old issue gains a comment: the stamps the thread took no longer vouch for its line.
    const e = await loadEntity(s, ISSUES, ISSUE, { id: ID(1), archived: false });
    addComment(s, e, { body: "late", author: "c", now: "2026-06-01T00:00:00Z" });
    const warm = await listed(s, false);
    t.regex(
      warm.split("\n").find((l) => l.includes('"title":"t1"'))!,
      /"updatedAt":"2026-06-01T00:00:00Z"/
    );
    rmSync(cacheDir(s), { recursive: true });
    PREREAD_AT.refs = Infinity;
    t.is(warm, await listed(s, true), "the answer with no cache");
  } finally {
    PREREAD_AT.refs = was;
  }
});
