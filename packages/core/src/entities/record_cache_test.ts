import test, { type ExecutionContext } from "ava";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheDir, ISSUES, storeAt, type Store } from "../store/store.js";
import { openRecordCache } from "./record_cache.js";

const RECORDS = (s: Store) => join(cacheDir(s), "issues.records");
/** The cache's record lines (its blocks' checksum lines left out). */
const recordLines = (s: Store): string[] =>
  readFileSync(RECORDS(s), "utf8")
    .trimEnd()
    .split("\n")
    .slice(1)
    .filter((l) => !l.startsWith("\x1e"));
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
    const two = (x: number): string => String(x).padStart(2, "0");
    keys.push(`2025-01-01T${two(Math.floor(i / 3600))}:${two(Math.floor(i / 60) % 60)}:${two(i % 60)}Z ${id}`);
    files.push(file);
  }
  return { store, keys, files };
}

/** One newest-first walk: every hit's payload (or null), the files' contents kept for the misses. */
function walk(
  store: Store,
  keys: string[],
  files: string[],
  opts: { now?: number; context?: string; upTo?: number; order?: number[] } = {}
): Array<string | null> {
  const cache = openRecordCache(store, ISSUES, {
    layout: "v",
    context: opts.context ?? "c1",
    write: opts.upTo === undefined,
    now: opts.now ?? LATER(),
  });
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
  t.deepEqual(walk(store, keys, files), [
    "payload of v4",
    "payload of v3",
    "payload of v2",
    "payload of v1",
    "payload of v0",
  ]);
  const text = readFileSync(RECORDS(store), "utf8");
  t.is(text.split("\n")[0], "forge-records 2 v c1");
  t.is(recordLines(store).length, 5);
  t.regex(text, /\n\x1e[0-9a-f]{8}\n$/); // one block, closed by its checksum
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
  const lines = recordLines(store);
  t.is(lines.length, 2);
  t.true(lines[0]!.startsWith(keys[1]!) && lines[1]!.startsWith(keys[3]!));
  t.deepEqual(walk(store, keys, files), [null, "payload of v2", null, "payload of v0"]);
  t.is(recordLines(store).length, 4);
});

test(
  "a block that does not match its checksum (an edited, torn or reordered cache) is trusted for nothing; the next " +
    "complete walk rewrites it",
  (t) => {
    const { store, keys, files } = makeStore(3);
    walk(store, keys, files);
    const good = readFileSync(RECORDS(store), "utf8");
    const lines = good.split("\n");
    const edits = [
      // edited
      [lines[0], lines[1], lines[2]!.replace("payload of v1", "payload of v8"), lines[3], lines[4], ""].join("\n"),
      good.slice(0, good.length - 30), // torn
      [lines[0], lines[2], lines[1], lines[3], lines[4], ""].join("\n"), // reordered
      [lines[0], lines[1], "garbage", lines[2], lines[3], lines[4], ""].join("\n"), // a line added
    ];
    for (const text of edits) {
      writeFileSync(RECORDS(store), text);
      t.deepEqual(walk(store, keys, files), [null, null, null]);
      t.deepEqual(walk(store, keys, files), ["payload of v2", "payload of v1", "payload of v0"]);
    }
  }
);

test(
  "a cache of many blocks, past the 1 MiB read chunk: each is checked as it is reached; a change keeps the blocks " +
    "before it as they were",
  (t) => {
    const { store, keys, files } = makeStore(400); // 400 × 3 KB: 1.2 MB, read in two chunks
    const big = (i: number): string => `payload ${i} ${"x".repeat(3000)}`; // 20 lines to a 64 KiB block
    const walkBig = (): number => walkPayloads(t, store, keys, files, big);
    t.is(walkBig(), 0);
    t.is(walkBig(), 400);
    const first = readFileSync(RECORDS(store), "latin1");
    t.true((first.match(/\n\x1e[0-9a-f]{8}\n/g) ?? []).length >= 3);
    t.is(walkBig(), 400);
    // A change in a late block: the blocks before it are copied byte for byte.
    writeFileSync(`${files[385]}.tmp`, "new");
    renameSync(`${files[385]}.tmp`, files[385]!);
    t.is(walkBig(), 399);
    const second = readFileSync(RECORDS(store), "latin1");
    const cut = first.lastIndexOf("\n\x1e", first.indexOf(keys[385]!));
    t.true(cut > 1 << 20);
    t.is(second.slice(0, cut), first.slice(0, cut));
    t.is(walkBig(), 400);
    // A block in the middle corrupted: the blocks before it still hit.
    const bad = second.replace(keys[200]!, keys[200]!.replace("2025", "2024"));
    writeFileSync(RECORDS(store), bad);
    const hits = walkBig();
    t.true(hits > 150 && hits < 201, String(hits));
    t.is(walkBig(), 400);
  }
);

test("blocks start small and double up to 64 KiB: a reader of the first record checks about 4 KiB", (t) => {
  const { store, keys, files } = makeStore(600);
  const mid = (i: number): string => `payload ${i} ${"y".repeat(400)}`; // ~470-byte lines
  t.is(walkPayloads(t, store, keys, files, mid), 0);
  const text = readFileSync(RECORDS(store), "latin1");
  const body = text.indexOf("\n") + 1;
  const ends = [...text.matchAll(/\n\x1e[0-9a-f]{8}\n/g)].map((m) => m.index + 1);
  const sizes = ends.map((e, i) => e - (i === 0 ? body : ends[i - 1]! + 10));
  // A block ends with the first line that takes it past its size: 4, 8, 16, 32, then 64 KiB.
  for (const [i, size] of sizes.slice(0, -1).entries()) {
    const want = Math.min(4096 << i, 65536);
    t.true(size >= want && size < want + 600, `block ${i}: ${size} bytes, not just past ${want}`);
  }
  t.is(walkPayloads(t, store, keys, files, mid), 600);
});

test("lines longer than the first read, and than the 1 MiB chunk, are read whole", (t) => {
  const { store, keys, files } = makeStore(3);
  const sized = [100_000, 2_500_000, 10].map((n, i) => `payload ${i} ${"y".repeat(n)}`);
  t.is(
    walkPayloads(t, store, keys, files, (i) => sized[i]!),
    0
  );
  t.is(
    walkPayloads(t, store, keys, files, (i) => sized[i]!),
    3
  );
});

test("a payload that holds U+001E, even where a block ends, is no block's end", (t) => {
  const { store, keys, files } = makeStore(40);
  // ~150-byte lines: the first block ends near the 27th; every payload has U+001E, one at its start.
  const odd = (i: number): string => `\x1e${i}\x1e${"z".repeat(140)}\x1e`;
  t.is(walkPayloads(t, store, keys, files, odd), 0);
  t.true(readFileSync(RECORDS(store), "latin1").split("\n\x1e").length > 2, "more than one block");
  t.is(walkPayloads(t, store, keys, files, odd), 40);
});

/** One writing walk: each hit checked against `payload(i)`, each miss put; the number of hits. */
function walkPayloads(
  t: ExecutionContext,
  store: Store,
  keys: readonly string[],
  files: readonly string[],
  payload: (i: number) => string
): number {
  const cache = openRecordCache(store, ISSUES, { layout: "v", context: "c1", write: true, now: LATER() });
  let hits = 0;
  keys.forEach((k, i) => {
    const hit = cache.get(k, files[i]!);
    if (hit) {
      t.is(hit.buf.toString("utf8", hit.start, hit.end), payload(i));
      hits++;
    } else cache.put(k, payload(i));
  });
  cache.close(true);
  return hits;
}

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
  t.deepEqual(
    readdirSync(dir).sort(),
    [
      ".gitignore",
      "issues.order.999999999.0a0b0c0d.tmp",
      "issues.records",
      `issues.records.${process.ppid}.0a0b0c0d.tmp`,
    ].sort()
  );
});

test("a refused hit is dropped and what the reader puts instead is kept, in order", (t) => {
  const { store, keys, files } = makeStore(3);
  walk(store, keys, files);
  const cache = openRecordCache(store, ISSUES, { layout: "v", context: "c1", write: true, now: LATER() });
  const got: string[] = [];
  for (let i = 0; i < 3; i++) {
    const hit = cache.get(keys[i]!, files[i]!)!;
    got.push(hit.buf.toString("utf8", hit.start, hit.end));
    if (i === 1) {
      cache.refuse();
      cache.put(keys[i]!, "replaced");
    }
  }
  cache.close(true);
  t.deepEqual(got, ["payload of v2", "payload of v1", "payload of v0"]);
  t.deepEqual(walk(store, keys, files), ["payload of v2", "replaced", "payload of v0"]);
});
