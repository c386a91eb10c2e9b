import test from "ava";
import { ok as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { matchSearch, type SearchItem } from "../search/match.js";
import { parseSearch } from "../search/query.js";
import { cacheDir, entityDir, ISSUES, storeAt, type Store } from "../store/store.js";
import { addComment, archiveIssue, createIssue, ISSUE_FIELDS, type IssueContext } from "./issue.js";
import { cachedIssueFields, cachedIssueList, IssueStaging, rawTextSearch, searchFilter } from "./issue_list_cache.js";
import { loadEntityFast } from "./load.js";
import { entityOrder } from "./order.js";
import { ISSUE } from "./schema.js";

test("cachedIssueFields() answers a list filtered by state alone, without comments, fields sorted", (t) => {
  t.deepEqual(cachedIssueFields(["title", "number"], false), ["number", "title"]);
  t.is(cachedIssueFields(undefined, false), undefined, "no fields");
  t.is(cachedIssueFields(["title"], true), undefined, "a filter");
  t.is(cachedIssueFields(["comments", "title"], false), undefined, "comments");
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
  const fields = cachedIssueFields(FIELDS, false)!;
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
  const fields = cachedIssueFields(FIELDS, false)!;
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

// Pieces of a title or body: escapes JSON writes (newline, quote, backslash, `\u0001`), the letters they are made of,
// bytes past ASCII (the Kelvin sign lowercases to `k`), and cases.
const PIECES = ["a", "C", "\n", "\\", '"', "\u212a", "é", "\u0001", "u0", "n", "b", " "];
const QUERIES = [
  "a",
  "A",
  "nb",
  "n",
  "u0",
  "01",
  "b",
  "k",
  "\u212a",
  '"c a"',
  '"a b"',
  "a b",
  "-n",
  "a -b",
  "a in:title",
  "A in:body",
  "a in:title,body",
  "a -in:title",
  "in:comments a",
  "in:title",
  "\\",
  '"\\"\\""',
];

/** The bodies and titles: every string of up to three pieces. */
function texts(): string[] {
  const out = [""];
  for (const x of PIECES) {
    out.push(x);
    for (const y of PIECES) {
      out.push(x + y);
      for (const z of PIECES) out.push(x + y + z);
    }
  }
  return out;
}

/** A cached payload as the list keeps it (record cache): body in the first part, title in the second, links after. */
function payload(title: string, body: string): { b: Buffer; sep: number; end: number } {
  const first = `"assignees":[],"author":{"login":"ann"},"body":${JSON.stringify(body)},"labels":[]`;
  const second = `"state":"OPEN","title":${JSON.stringify(title)},"updatedAt":"2026-01-01T00:00:00Z"`;
  // The lines after it in the buffer hold the same members: nothing past `end` is read.
  const b = Buffer.from(`${first}\x1f${second}\x1f\n"body":"a n b","title":"a n b"\n`);
  const sep = b.indexOf(0x1f);
  return { b, sep, end: b.indexOf(0x1f, sep + 1) };
}

function item(title: string, body: string): SearchItem {
  const empty = { state: "open", author: "", assignees: [], labels: [], createdAt: "", updatedAt: "" } as const;
  return { kind: "issue", ...empty, title, body };
}

test("a text search's answer from a cached payload's bytes is matchSearch's on its title and body", (t) => {
  const all = texts();
  const titles = ["", "a", "C\\n", "\u212a", 'x"a'];
  let fromBytes = 0;
  let checked = 0;
  for (const text of QUERIES) {
    const q = parseSearch(text);
    const raw = rawTextSearch(q);
    const decide = searchFilter(q, {}).decide!;
    for (const title of titles) {
      for (const body of all) {
        const { b, sep, end } = payload(title, body);
        const want = matchSearch(q, item(title, body));
        const got = raw?.(b, 0, sep, end);
        if (got !== undefined) {
          fromBytes++;
          if (got !== want) t.fail(`${JSON.stringify(text)} over ${JSON.stringify([title, body])}: bytes said ${got}`);
        }
        if (decide(b, 0, sep, end) !== want) t.fail(`${JSON.stringify(text)} over ${JSON.stringify([title, body])}`);
        checked++;
      }
    }
  }
  // The bytes answer every ASCII title and body of a plain-word query (most of them), the parse the rest.
  t.true(fromBytes > checked / 3, `${fromBytes} of ${checked} from the bytes`);
  t.is(rawTextSearch(parseSearch("\\")), undefined, "a backslash is not a plain word");
});

test("a word that only an escape's letters spell is not in the text", (t) => {
  const q = parseSearch("nb");
  const raw = rawTextSearch(q)!;
  const at = (title: string, body: string): boolean | undefined => {
    const { b, sep, end } = payload(title, body);
    return raw(b, 0, sep, end);
  };
  t.false(at("", "\nb"), "`\\nb`");
  t.true(at("", "\\nb"), "a backslash, then nb: `\\\\nb`");
  t.false(at("", "\\\nb"), "a backslash, then a newline: `\\\\\\nb`");
  t.false(at("", "a\nb a\nb"), "every place is an escape's");
  t.true(at("", "a\nb nb"), "the second place is not");
  t.false(rawTextSearch(parseSearch("01"))!(...args("\u0001")), "`\\u0001`'s digits");
  t.true(rawTextSearch(parseSearch("01"))!(...args("\u000101")), "after `\\u0001`");
  t.is(at("", "é nb"), undefined, "past ASCII: the text is parsed");
});

function args(body: string): [Buffer, number, number, number] {
  const { b, sep, end } = payload("", body);
  return [b, 0, sep, end];
}
