import test from "ava";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheDir, ISSUES, storeAt, type Store } from "../store/store.js";
import { openRecordCache } from "./record_cache.js";

const RECORDS = (s: Store) => join(cacheDir(s), "issues.records");
const LATER = () => Date.now() + 10_000; // every file is "still" for a walk that starts later

/** A store with `n` owning files (`issues/<id>/issue.md` holding `v<i>`), newest key first. */
function makeStore(n: number): { store: Store; keys: string[]; files: string[] } {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-records-")), ".forge");
  mkdirSync(dir);
  const store = storeAt(dir);
  const keys: string[] = [];
  const files: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    mkdirSync(join(dir, "issues", id), { recursive: true });
    const file = join(dir, "issues", id, "issue.md");
    writeFileSync(file, `v${i}`);
    keys.push(`2025-01-01T00:00:${String(i).padStart(2, "0")}Z ${id}`);
    files.push(file);
  }
  return { store, keys, files };
}

/** One newest-first walk: every hit's payload (or null), the files' contents kept for the misses. */
function walk(store: Store, keys: string[], files: string[], opts: { now?: number; context?: string; upTo?: number; order?: number[] } = {}): Array<string | null> {
  const cache = openRecordCache(store, ISSUES, { layout: "v", context: opts.context ?? "c1", write: opts.upTo === undefined, now: opts.now ?? LATER() });
  const out: Array<string | null> = [];
  const idx = opts.order ?? keys.map((_, i) => i);
  for (const i of idx.slice(0, opts.upTo ?? idx.length)) {
    const hit = cache.get(keys[i]!, files[i]!);
    out.push(hit ? hit.buf.toString("utf8", hit.start, hit.end) : null);
    if (!hit) cache.put(keys[i]!, `payload of ${readFileSync(files[i]!, "utf8")}`);
  }
  cache.close(opts.upTo === undefined);
  return out;
}

test("a complete walk writes the cache; the next walk hits every entity with what was put", (t) => {
  const { store, keys, files } = makeStore(5);
  t.deepEqual(walk(store, keys, files), [null, null, null, null, null]);
  t.deepEqual(walk(store, keys, files), ["payload of v4", "payload of v3", "payload of v2", "payload of v1", "payload of v0"]);
  const text = readFileSync(RECORDS(store), "utf8");
  t.is(text.split("\n")[0], "forge-records 1 v c1");
  t.is(text.split("\n").filter(Boolean).length, 6);
  t.deepEqual(readdirSync(cacheDir(store)).sort(), [".gitignore", "issues.records"]); // no temp file left
});

test("a file rewritten by rename, or edited in place with its size and mtime put back, is read again", (t) => {
  const { store, keys, files } = makeStore(3);
  walk(store, keys, files);
  writeFileSync(`${files[0]}.tmp`, "v9");
  renameSync(`${files[0]}.tmp`, files[0]!);
  const st = statSync(files[2]!);
  writeFileSync(files[2]!, "w0"); // same size, in place
  utimesSync(files[2]!, st.atime, st.mtime); // mtime as it was: only ctime tells
  t.deepEqual(walk(store, keys, files), [null, "payload of v1", null]);
  t.deepEqual(walk(store, keys, files), ["payload of v9", "payload of v1", "payload of w0"]);
});

test("a file changed within 50 ms of the walk is not cached (racy clean)", (t) => {
  const { store, keys, files } = makeStore(2);
  walk(store, keys, files, { now: Date.now() }); // both files were just written
  t.deepEqual(walk(store, keys, files), [null, null]);
  t.deepEqual(walk(store, keys, files), ["payload of v1", "payload of v0"]);
});

test("a walk that stops early writes nothing, and one in another order neither hits nor writes", (t) => {
  const { store, keys, files } = makeStore(4);
  walk(store, keys, files, { upTo: 2 });
  t.throws(() => readFileSync(RECORDS(store)));
  walk(store, keys, files);
  const before = readFileSync(RECORDS(store), "utf8");
  t.deepEqual(walk(store, keys, files, { order: [1, 0, 2, 3] }), ["payload of v2", null, null, null]);
  t.is(readFileSync(RECORDS(store), "utf8"), before);
  t.deepEqual(walk(store, keys, files, { upTo: 2 }), ["payload of v3", "payload of v2"]);
});

test("another context (label definitions changed) makes every entity a miss, then a new cache", (t) => {
  const { store, keys, files } = makeStore(2);
  walk(store, keys, files);
  t.deepEqual(walk(store, keys, files, { context: "c2" }), [null, null]);
  t.deepEqual(walk(store, keys, files, { context: "c2" }), ["payload of v1", "payload of v0"]);
  t.deepEqual(walk(store, keys, files), [null, null]);
});

test("lines of entities that are gone are dropped; a new entity is added in its place", (t) => {
  const { store, keys, files } = makeStore(4);
  walk(store, keys, files);
  // Walk without the newest and the third; the others hit.
  t.deepEqual(walk(store, [keys[1]!, keys[3]!], [files[1]!, files[3]!]), ["payload of v2", "payload of v0"]);
  const lines = readFileSync(RECORDS(store), "utf8").trimEnd().split("\n");
  t.is(lines.length, 3);
  t.true(lines[1]!.startsWith(keys[1]!) && lines[2]!.startsWith(keys[3]!));
  t.deepEqual(walk(store, keys, files), [null, "payload of v2", null, "payload of v0"]);
  t.is(readFileSync(RECORDS(store), "utf8").trimEnd().split("\n").length, 5);
});

test("a malformed or out-of-order line ends what the cache is trusted for; the next complete walk rewrites it", (t) => {
  const { store, keys, files } = makeStore(3);
  walk(store, keys, files);
  const lines = readFileSync(RECORDS(store), "utf8").split("\n");
  writeFileSync(RECORDS(store), [lines[0], lines[1], "garbage", lines[2], lines[3], ""].join("\n"));
  t.deepEqual(walk(store, keys, files), ["payload of v2", null, null]);
  t.deepEqual(walk(store, keys, files), ["payload of v2", "payload of v1", "payload of v0"]);
  writeFileSync(RECORDS(store), [lines[0], lines[2], lines[1], lines[3], ""].join("\n"));
  t.deepEqual(walk(store, keys, files), [null, "payload of v1", null]);
  t.deepEqual(walk(store, keys, files), ["payload of v2", "payload of v1", "payload of v0"]);
});

test("an owning file that is a symlink, or gone, is never a hit", (t) => {
  const { store, keys, files } = makeStore(2);
  walk(store, keys, files);
  const target = join(store.dir, "elsewhere.md");
  writeFileSync(target, "v1");
  renameSync(files[0]!, `${files[0]}.old`);
  symlinkSync(target, files[0]!);
  const cache = openRecordCache(store, ISSUES, { layout: "v", context: "c1", write: false, now: LATER() });
  t.is(cache.get(keys[0]!, files[0]!), undefined);
  t.is(cache.get(keys[1]!, `${files[1]}.missing`), undefined);
  cache.close(true);
});

test("a rewrite removes the temp files of its cache left by processes that are gone, and nothing else", (t) => {
  const { store, keys, files } = makeStore(2);
  walk(store, keys, files);
  const dir = cacheDir(store);
  const dead = join(dir, "issues.records.999999999.0a0b0c0d.tmp"); // no such pid
  const alive = join(dir, `issues.records.${process.ppid}.0a0b0c0d.tmp`);
  const other = join(dir, "issues.order.999999999.0a0b0c0d.tmp");
  for (const f of [dead, alive, other]) writeFileSync(f, "x");
  writeFileSync(files[0]!, "v7"); // a change: the next complete walk rewrites
  walk(store, keys, files);
  t.deepEqual(readdirSync(dir).sort(), [".gitignore", "issues.order.999999999.0a0b0c0d.tmp", "issues.records", `issues.records.${process.ppid}.0a0b0c0d.tmp`].sort());
});
