import test from "ava";
import {
  cpSync,
  mkdirSync,
  rmSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheDir, entityDir, ISSUES, storeAt, type Store } from "../store/store.js";
import { createIssue } from "./issue.js";
import { bigListing, entityOrder, recordCreated } from "./order.js";
import { ISSUE } from "./schema.js";

const ORDER = (s: Store) => join(cacheDir(s), "issues.order");

/** A store with `n` issues whose creation times collide in pairs, made in a scrambled order. */
function makeStore(n: number): { store: Store; want: string[] } {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-order-")), ".forge");
  mkdirSync(dir);
  const store = storeAt(dir);
  const made: Array<{ id: string; at: string }> = [];
  for (let i = 0; i < n; i++) {
    const k = (i * 7) % n; // scrambled
    const id = `${String(k).padStart(8, "0")}-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const at = new Date(Date.UTC(2025, 0, 1) + (k >> 1) * 86_400_000).toISOString().replace(".000Z", "Z");
    createIssue(store, { title: `t${i}`, body: "", author: "a", labels: [], assignees: [], now: at, id });
    made.push({ id, at });
  }
  made.sort((a, b) => (a.at !== b.at ? (a.at < b.at ? -1 : 1) : a.id < b.id ? -1 : 1));
  return { store, want: made.map((m) => m.id) };
}

async function ids(store: Store): Promise<string[]> {
  const o = await entityOrder(store, ISSUES, ISSUE);
  return o.entries.map((e) => e.ref.id);
}

test("entityOrder() ranks by (createdAt, id) without a cache and writes one", async (t) => {
  const { store, want } = makeStore(20);
  t.deepEqual(await ids(store), want);
  t.is(readFileSync(ORDER(store), "utf8").split("\n").filter(Boolean).length, 21); // the stamp line + 20
  t.deepEqual(readdirSync(cacheDir(store)).sort(), [".gitignore", "issues.order"]);
});

test("entityOrder() gives the same order from its own cache", async (t) => {
  const { store, want } = makeStore(20);
  await ids(store);
  t.deepEqual(await ids(store), want);
});

test("entityOrder() merges issues made after the cache into the cached order", async (t) => {
  const { store } = makeStore(10);
  await ids(store);
  const late = [
    { id: "ffffffff-0000-4000-8000-000000000001", at: "2024-12-31T00:00:00Z" },
    { id: "00000000-0000-4000-8000-000000000009", at: "2025-01-03T00:00:00Z" },
    { id: "ffffffff-0000-4000-8000-000000000002", at: "2026-01-01T00:00:00Z" },
  ];
  for (const l of late)
    createIssue(store, { title: "x", body: "", author: "a", labels: [], assignees: [], now: l.at, id: l.id });
  const got = await ids(store);
  t.is(got.length, 13);
  t.is(got[0], late[0]!.id);
  t.is(got[12], late[2]!.id);
  // The cache rewritten after the merge gives the same answer, and so does no cache at all.
  t.deepEqual(await ids(store), got);
  writeFileSync(ORDER(store), "");
  t.deepEqual(await ids(store), got);
});

test("entityOrder() drops cached ids whose folders are gone and counts archived ones", async (t) => {
  const { store, want } = makeStore(10);
  await ids(store);
  mkdirSync(join(store.dir, "archive", "issues"), { recursive: true });
  renameSync(entityDir(store, ISSUES, want[3]!), entityDir(store, ISSUES, want[3]!, true));
  renameSync(entityDir(store, ISSUES, want[5]!), join(store.dir, "elsewhere"));
  const o = await entityOrder(store, ISSUES, ISSUE);
  t.deepEqual(
    o.entries.map((e) => e.ref.id),
    want.filter((_, i) => i !== 5)
  );
  t.true(o.entries[3]!.ref.archived);
  // A few changes are found again by the next listing rather than rewritten; the answer is the same without a cache.
  rmSync(ORDER(store));
  t.deepEqual(
    (await entityOrder(store, ISSUES, ISSUE)).entries.map((e) => e.ref.id),
    want.filter((_, i) => i !== 5)
  );
});

test("entityOrder() ignores a torn last line of the cache and still ranks every issue", async (t) => {
  const { store, want } = makeStore(10);
  await ids(store);
  const whole = readFileSync(ORDER(store), "utf8");
  writeFileSync(ORDER(store), whole.slice(0, -20));
  t.deepEqual(await ids(store), want);
  const body = (x: string) => x.slice(x.indexOf("\n") + 1); // the stamp line may differ by now
  t.is(body(readFileSync(ORDER(store), "utf8")), body(whole)); // rewritten whole
  t.deepEqual(await ids(store), want);
});

test("entityOrder() ranks an id found both live and archived once, with or without a cache", async (t) => {
  const { store, want } = makeStore(6);
  await ids(store);
  mkdirSync(join(store.dir, "archive", "issues"), { recursive: true });
  cpSync(entityDir(store, ISSUES, want[2]!), entityDir(store, ISSUES, want[2]!, true), { recursive: true });
  t.deepEqual(await ids(store), want);
  const o = await entityOrder(store, ISSUES, ISSUE);
  t.deepEqual(
    o.entries.map((e) => e.ref.id),
    want
  );
  t.true(o.entries[2]!.ref.archived);
});

/** Make the kind folders look still for a while (mtime in the past). */
function age(store: Store): void {
  const past = new Date(Date.now() - 60_000);
  for (const d of [join(store.dir, "issues"), join(store.dir, "archive", "issues")]) {
    try {
      utimesSync(d, past, past);
    } catch {
      // no archive folder
    }
  }
}

test(
  "entityOrder() stamps the cache only once the folders have been still, and a stamped cache is read without " +
    "listing",
  async (t) => {
    const { store, want } = makeStore(8);
    const soon = new Date(Date.now() + 10_000); // "just changed", whatever the machine's speed
    utimesSync(join(store.dir, "issues"), soon, soon);
    await ids(store);
    t.regex(
      readFileSync(ORDER(store), "utf8"),
      /^forge-order 3 unstamped \d{10}\.[0-9a-f]{8}\.[0-9a-f]{8}\/\d{10}\.[0-9a-f]{8}\.[0-9a-f]{8} \d{10}\n/,
      "folders changed just now: racy, no stamp"
    );
    age(store);
    t.deepEqual(await ids(store), want);
    const stamped = readFileSync(ORDER(store), "utf8");
    t.regex(
      stamped,
      /^forge-order 3 \d+\.\d+;-; \d{10}\.[0-9a-f]{8}\.[0-9a-f]{8}\/\d{10}\.[0-9a-f]{8}\.[0-9a-f]{8} \d{10}\n/
    );
    // Trusted without listing: a folder added behind the stamp's back (mtime put back) is not seen…
    const dirStat = statSync(join(store.dir, "issues"));
    const sneaky = "ffffffff-0000-4000-8000-00000000000a";
    createIssue(store, {
      title: "x",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: "2026-06-01T00:00:00Z",
      id: sneaky,
    });
    utimesSync(join(store.dir, "issues"), dirStat.atime, dirStat.mtime);
    t.deepEqual(await ids(store), want);
    // …while an ordinary change moves the mtime, voids the stamp, and is seen.
    const id = "ffffffff-0000-4000-8000-00000000000b";
    createIssue(store, {
      title: "y",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: "2026-06-02T00:00:00Z",
      id,
    });
    t.deepEqual(await ids(store), [...want, sneaky, id]);
  }
);

test("entityOrder() never stamps a cache while an issue cannot be ranked", async (t) => {
  const { store } = makeStore(3);
  mkdirSync(join(store.dir, "issues", "eeeeeeee-0000-4000-8000-000000000000"));
  age(store);
  const o = await entityOrder(store, ISSUES, ISSUE);
  t.is(o.errors.length, 1);
  t.regex(
    readFileSync(ORDER(store), "utf8"),
    /^forge-order 3 unstamped - \d{10}\n/,
    "no digest either: the next read lists again"
  );
  t.is((await entityOrder(store, ISSUES, ISSUE)).errors.length, 1);
});

test("Order.at() reads one line, counting from either end", async (t) => {
  const { store, want } = makeStore(5);
  const o = await entityOrder(store, ISSUES, ISSUE);
  t.is(o.length, 5);
  t.is(o.at(0)!.ref.id, want[0]);
  t.is(o.at(-1)!.ref.id, want[4]);
  t.is(o.at(5), undefined);
  t.false(o.at(2)!.ref.archived);
});

test("Order.rankOf() gives the index a new (createdAt, id) would take", async (t) => {
  const { store, want } = makeStore(6);
  const o = await entityOrder(store, ISSUES, ISSUE);
  const first = o.at(0)!;
  t.is(o.rankOf("2000-01-01T00:00:00Z", "ffffffff-0000-4000-8000-000000000000"), 0);
  t.is(o.rankOf("2999-01-01T00:00:00Z", "00000000-0000-4000-8000-000000000000"), 6);
  t.is(o.rankOf(first.createdAt, first.ref.id), 0);
  const third = o.at(2)!;
  t.is(
    o.rankOf(third.createdAt, "ffffffff-ffff-4fff-bfff-ffffffffffff"),
    want.filter((_, i) => o.at(i)!.createdAt <= third.createdAt).length
  );
});

/** Make the kind folder look just changed (never stampable), whatever the machine's speed. */
function fresh(store: Store): void {
  const soon = new Date(Date.now() + 10_000);
  utimesSync(join(store.dir, "issues"), soon, soon);
}

test(
  "entityOrder() trusts an unstamped cache whose digest matches the folder names, and lists again when a name " +
    "changes",
  async (t) => {
    const { store, want } = makeStore(8);
    fresh(store);
    t.deepEqual(await ids(store), want);
    const text = readFileSync(ORDER(store), "utf8");
    // Trusted on the names alone: two cache lines swapped behind the digest's back are not noticed…
    const nl = text.indexOf("\n") + 1;
    const swap = (x: string): string =>
      x.slice(0, nl) + x.slice(nl + 60, nl + 120) + x.slice(nl, nl + 60) + x.slice(nl + 120);
    writeFileSync(ORDER(store), swap(text));
    t.deepEqual(await ids(store), [want[1]!, want[0]!, ...want.slice(2)]);
    // …but one taken out is (the header counts the lines), and so is…
    writeFileSync(ORDER(store), text.slice(0, nl) + text.slice(nl + 60));
    t.deepEqual(await ids(store), want);
    // …a new name, a removed one, or a swap of one for another changes the digest and is seen.
    writeFileSync(ORDER(store), text);
    const added = "ffffffff-0000-4000-8000-00000000000c";
    createIssue(store, {
      title: "x",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: "2026-06-01T00:00:00Z",
      id: added,
    });
    fresh(store);
    t.deepEqual(await ids(store), [...want, added]);
    renameSync(entityDir(store, ISSUES, want[0]!), join(store.dir, "gone"));
    fresh(store);
    t.deepEqual(await ids(store), [...want.slice(1), added]);
    const swapped = "eeeeeeee-0000-4000-8000-00000000000d";
    renameSync(entityDir(store, ISSUES, added), join(store.dir, "gone2"));
    createIssue(store, {
      title: "y",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: "2026-06-02T00:00:00Z",
      id: swapped,
    });
    fresh(store);
    t.deepEqual(await ids(store), [...want.slice(1), swapped]);
  }
);

test(
  "recordCreated() adds the new entity to the cache under the new names' digest; a create by someone else " +
    "meanwhile is still found",
  async (t) => {
    const { store, want } = makeStore(6);
    fresh(store);
    const before = await entityOrder(store, ISSUES, ISSUE);
    const id = "ffffffff-0000-4000-8000-00000000000e";
    createIssue(store, {
      title: "x",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: "2026-06-01T00:00:00Z",
      id,
    });
    recordCreated(store, ISSUES, before, { createdAt: "2026-06-01T00:00:00Z", ref: { id, archived: false } });
    fresh(store);
    const text = readFileSync(ORDER(store), "utf8");
    t.regex(
      text,
      /^forge-order 3 unstamped \d{10}\.[0-9a-f]{8}\.[0-9a-f]{8}\/\d{10}\.[0-9a-f]{8}\.[0-9a-f]{8} \d{10}\n/
    );
    t.true(text.endsWith(`2026-06-01T00:00:00Z ${id} L\n`));
    t.deepEqual(await ids(store), [...want, id]);
    t.is(readFileSync(ORDER(store), "utf8"), text, "trusted by its digest: not rewritten");

    const again = await entityOrder(store, ISSUES, ISSUE);
    const mine = "ffffffff-0000-4000-8000-00000000000f";
    const theirs = "00000000-0000-4000-8000-0000000000aa";
    createIssue(store, {
      title: "theirs",
      body: "",
      author: "b",
      labels: [],
      assignees: [],
      now: "2025-06-01T00:00:00Z",
      id: theirs,
    });
    createIssue(store, {
      title: "mine",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: "2026-06-02T00:00:00Z",
      id: mine,
    });
    recordCreated(store, ISSUES, again, { createdAt: "2026-06-02T00:00:00Z", ref: { id: mine, archived: false } });
    fresh(store);
    const all = await ids(store);
    t.is(all.length, 9);
    t.true(all.includes(theirs));
    t.is(all.at(-1), mine);
  }
);

test(
  "recordCreated() after a read through the stamp lists the names once and keeps the digest current, unless the " +
    "folder changed otherwise",
  async (t) => {
    const { store, want } = makeStore(6);
    age(store);
    await ids(store); // lists, writes a stamped cache
    const before = await entityOrder(store, ISSUES, ISSUE); // trusted through the stamp: no names in hand
    t.regex(
      readFileSync(ORDER(store), "utf8"),
      /^forge-order 3 \d+\.\d+;-; \d{10}\.[0-9a-f]{8}\.[0-9a-f]{8}\/\d{10}\.[0-9a-f]{8}\.[0-9a-f]{8} \d{10}\n/
    );
    const id = "ffffffff-0000-4000-8000-000000000010";
    createIssue(store, {
      title: "x",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: "2026-06-01T00:00:00Z",
      id,
    });
    recordCreated(store, ISSUES, before, { createdAt: "2026-06-01T00:00:00Z", ref: { id, archived: false } });
    const text = readFileSync(ORDER(store), "utf8");
    t.regex(
      text,
      /^forge-order 3 unstamped \d{10}\.[0-9a-f]{8}\.[0-9a-f]{8}\/\d{10}\.[0-9a-f]{8}\.[0-9a-f]{8} \d{10}\n/
    );
    t.true(text.endsWith(`2026-06-01T00:00:00Z ${id} L\n`));
    // Trusted by its digest now: two lines swapped behind its back are not noticed (the names still match), but one
    // taken out is (the header counts the lines).
    fresh(store);
    const nl = text.indexOf("\n") + 1;
    writeFileSync(
      ORDER(store),
      text.slice(0, nl) + text.slice(nl + 60, nl + 120) + text.slice(nl, nl + 60) + text.slice(nl + 120)
    );
    t.deepEqual(await ids(store), [want[1]!, want[0]!, ...want.slice(2), id]);
    writeFileSync(ORDER(store), text.slice(0, nl) + text.slice(nl + 60));
    t.deepEqual(await ids(store), [...want, id]);

    // Someone else's folder appeared between the stamped read and the record: nothing is written, the next read lists.
    rmSync(ORDER(store));
    age(store);
    await ids(store);
    const again = await entityOrder(store, ISSUES, ISSUE);
    const stamped = readFileSync(ORDER(store), "utf8");
    const theirs = "00000000-0000-4000-8000-0000000000bb";
    const mine = "ffffffff-0000-4000-8000-000000000011";
    createIssue(store, {
      title: "theirs",
      body: "",
      author: "b",
      labels: [],
      assignees: [],
      now: "2025-06-01T00:00:00Z",
      id: theirs,
    });
    createIssue(store, {
      title: "mine",
      body: "",
      author: "a",
      labels: [],
      assignees: [],
      now: "2026-06-02T00:00:00Z",
      id: mine,
    });
    recordCreated(store, ISSUES, again, { createdAt: "2026-06-02T00:00:00Z", ref: { id: mine, archived: false } });
    t.is(readFileSync(ORDER(store), "utf8"), stamped, "not written");
    fresh(store);
    const all = await ids(store);
    t.true(all.includes(theirs));
    t.is(all.at(-1), mine);
  }
);

test(
  "entityOrder() writes a listing's cache in blocks, byte for byte its lines, and answers from the file it wrote " +
    "even once another replaces it",
  async (t) => {
    // 1,200 lines: 72 KB, more than one 64 KiB block.
    const { store, want } = makeStore(1200);
    age(store);
    const o = await entityOrder(store, ISSUES, ISSUE);
    const text = readFileSync(ORDER(store), "latin1");
    const lines = text.slice(text.indexOf("\n") + 1);
    t.is(lines.length, 1200 * 60);
    t.is(lines, o.entries.map((e) => `${e.createdAt} ${e.ref.id} L\n`).join(""));
    t.deepEqual(
      o.entries.map((e) => e.ref.id),
      want
    );
    // Another writer's cache renamed over it: the order already given reads what it wrote.
    writeFileSync(ORDER(store) + ".x", "forge-order 3 unstamped -\n");
    renameSync(ORDER(store) + ".x", ORDER(store));
    t.is(o.at(1199)!.ref.id, want[1199]);
    t.is(o.rankOf(o.at(600)!.createdAt, want[600]!), 600);
  }
);

test("entityOrder() ranks from its lines in memory when the cache cannot be written", async (t) => {
  const { store, want } = makeStore(30);
  writeFileSync(cacheDir(store), "not a folder");
  const o = await entityOrder(store, ISSUES, ISSUE);
  t.deepEqual(
    o.entries.map((e) => e.ref.id),
    want
  );
  t.is(o.at(-1)!.ref.id, want[29]);
  t.is(readFileSync(cacheDir(store), "utf8"), "not a folder");
});

test("bigListing() holds a cold listing by its folder's size, or by its names where the size counts entries", (t) => {
  t.false(bigListing(600_000, 10_000), "10,000 issues on ext4");
  t.true(bigListing(2_000_000, 0), "over 1 MiB of entries: from the first name");
  t.false(bigListing(100_002, 16_128), "ZFS (a size of 2 + entries): not yet");
  t.true(bigListing(100_002, 16_384), "ZFS, once 16,384 names have come");
});
