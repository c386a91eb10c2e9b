import test from "ava";
import { ok as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cacheDir, entityDir, ISSUES, storeAt, type Store } from "../store/store.js";
import { addComment, archiveIssue, createIssue, ISSUE_FIELDS, type IssueContext } from "./issue.js";
import { cachedIssueFields, cachedIssueList, IssueStaging } from "./issue_list_cache.js";
import { loadEntityFast } from "./load.js";
import { entityOrder } from "./order.js";
import { ISSUE } from "./schema.js";

test("cachedIssueFields() answers JSON lines filtered by state alone, without comments, fields sorted", (t) => {
  t.deepEqual(cachedIssueFields(["title", "number"], false, false), ["number", "title"]);
  t.is(cachedIssueFields(undefined, false, false), undefined, "no --json");
  t.is(cachedIssueFields(["title"], true, false), undefined, "--jq");
  t.is(cachedIssueFields(["title"], false, true), undefined, "a filter");
  t.is(cachedIssueFields(["comments", "title"], false, false), undefined, "comments");
});

/**
 * A store of `n` issues (some closed, a body with a newline) and `archived` more, archived, with a comment each (a list
 * passes over them), their files' mtimes in the past.
 */
function storeOf(n: number, archived = 0): Store {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-staged-")), ".forge");
  mkdirSync(dir);
  const s = storeAt(dir);
  for (let i = 0; i < n; i++) {
    const id = `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`;
    const now = `2026-01-01T00:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;
    createIssue(s, { title: `t${i} ✓`, body: `b\n${i}`, author: "a", labels: [], assignees: [], now, id });
    if (i % 3 === 0) {
      const f = join(entityDir(s, ISSUES, id), "issue.md");
      writeFileSync(f, readFileSync(f, "utf8").replace("state: open", "state: closed"));
    }
  }
  for (let i = 0; i < archived; i++) {
    const id = `${String(i).padStart(8, "0")}-0000-4000-8000-00000000000a`;
    const now = `2025-12-31T00:00:${String(i).padStart(2, "0")}Z`;
    createIssue(s, { title: `archived ${i}`, body: "", author: "a", labels: [], assignees: [], now, id });
    const e = loadEntityFast(s, ISSUES, ISSUE, { id, archived: false })!;
    addComment(s, e, { author: "b", body: "c", now: "2026-02-01T00:00:00Z" });
    archiveIssue(s, e);
  }
  const past = new Date(Date.now() - 10_000);
  for (const id of readdirSync(join(dir, "issues"))) utimesSync(join(entityDir(s, ISSUES, id), "issue.md"), past, past);
  return s;
}

const DEFS: IssueContext = { labels: new Map(), milestones: new Map(), baseUrl: "https://x.test/o/r" };

async function listed(s: Store, staged: IssueStaging | undefined, limit: number): Promise<string> {
  const order = await entityOrder(s, ISSUES, ISSUE, staged ? { onRead: staged.onRead } : {});
  // Every file was read for the order, and all are clean: every live issue's record staged, no archived one's.
  if (staged) assert(staged.size === 40, `${staged.size} staged`);
  const out: Buffer[] = [];
  const fields = cachedIssueFields(FIELDS, false, false)!;
  const fail = (e: unknown): never => {
    throw new Error(String(e));
  };
  const opts = { state: "all" as const, limit, fields, onError: fail, onWarning: fail, closed: () => false, staged };
  for await (const b of cachedIssueList(s, order, DEFS, opts)) out.push(Buffer.from(b));
  return Buffer.concat(out).toString("utf8");
}

const FIELDS = ISSUE_FIELDS.filter((f) => f !== "comments");

test("a cold list from staged records (in memory or spilled) is the list read from the files", async (t) => {
  const s = storeOf(40, 3);
  await sleep(120); // past the racy-clean window of the writes (ctime too), so every record is cached
  const plain = await listed(s, undefined, 1000);
  const records = readFileSync(join(cacheDir(s), "issues.records"));
  t.is(plain.split("\n").length, 41);
  for (const memLimit of [1 << 20, 2000, 1]) {
    rmSync(cacheDir(s), { recursive: true });
    const staged = new IssueStaging(s, Promise.resolve(DEFS), memLimit);
    t.is(await listed(s, staged, 1000), plain, `memLimit ${memLimit}`);
    t.is(staged.size, 0, "closed with the walk");
    t.deepEqual(readFileSync(join(cacheDir(s), "issues.records")), records, "the same cache, byte for byte");
    t.deepEqual(
      readdirSync(cacheDir(s)).filter((n) => n.includes("staged")),
      [],
      "no temp file left"
    );
  }
  // Cut short by --limit, a cold walk still leaves the whole cache (the rest from what was staged).
  rmSync(cacheDir(s), { recursive: true });
  const staged = new IssueStaging(s, Promise.resolve(DEFS), 2000);
  t.is(await listed(s, staged, 3), plain.split("\n").slice(0, 3).join("\n") + "\n");
  t.deepEqual(readFileSync(join(cacheDir(s), "issues.records")), records);
});

test("the first record is yielded alone, then about 4 KiB (| head -1 has its line as it is made)", async (t) => {
  const s = storeOf(40);
  await sleep(120); // past the racy-clean window: the second walk reads every record from the cache
  const fields = cachedIssueFields(FIELDS, false, false)!;
  const fail = (e: unknown): never => {
    throw new Error(String(e));
  };
  for (const walk of ["cold", "warm"]) {
    const order = await entityOrder(s, ISSUES, ISSUE);
    const opts = { state: "all" as const, limit: 1000, fields, onError: fail, onWarning: fail, closed: () => false };
    const chunks: Buffer[] = [];
    for await (const b of cachedIssueList(s, order, DEFS, opts)) chunks.push(Buffer.from(b));
    const lines = (b: Buffer): number => b.toString("utf8").split("\n").length - 1;
    t.true(chunks.length >= 3, `${walk}: ${chunks.length} chunks`);
    t.is(lines(chunks[0]!), 1, `${walk}: the first chunk is one record`);
    t.true(chunks[1]!.length >= 4096 && chunks[1]!.length < 8192, `${walk}: then ${chunks[1]!.length} bytes`);
    t.is(lines(Buffer.concat(chunks)), 40, `${walk}: every record, once`);
  }
});
