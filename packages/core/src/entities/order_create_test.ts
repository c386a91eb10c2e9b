import test from "ava";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { withKindLock } from "../store/lock.js";
import { archiveDir, cacheDir, entityDir, ISSUES, storeAt, type Store } from "../store/store.js";
import { createIssue } from "./issue.js";
import { entityOrder, recordCreated } from "./order.js";
import { ISSUE } from "./schema.js";

function store(): Store {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-ocreate-")), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}

const idOf = (i: number): string => `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`;

async function create(s: Store, i: number): Promise<number> {
  return withKindLock(s, ISSUES, async () => {
    const before = await entityOrder(s, ISSUES, ISSUE);
    const now = `2026-01-01T00:00:${String(i).padStart(2, "0")}Z`;
    createIssue(s, { title: `t${i}`, body: "", author: "a", labels: [], assignees: [], now, id: idOf(i) });
    recordCreated(s, ISSUES, before, { createdAt: now, ref: { id: idOf(i), archived: false } });
    return before.rankOf(now, idOf(i)) + 1;
  });
}

test("creates under the kind lock record a racy stamp the next create trusts, without a listing", async (t) => {
  const s = store();
  t.is(await create(s, 1), 1);
  const text = readFileSync(join(cacheDir(s), "issues.order"), "latin1");
  t.regex(
    text,
    /^forge-order 3 r\S+ \d{10}\.[0-9a-f]{8}\.[0-9a-f]{8}\/\d{10}\.[0-9a-f]{8}\.[0-9a-f]{8} \d{10}\n/,
    "a racy stamp, and the names' digest with the new one added"
  );
  t.is(await create(s, 2), 2);
  const ino = statSync(join(cacheDir(s), "issues.order")).ino;
  t.is(await create(s, 3), 3);
  t.is(
    statSync(join(cacheDir(s), "issues.order")).ino,
    ino,
    "the newest entity's line is appended in place, not a rewrite of the whole cache"
  );
  t.true(readFileSync(join(cacheDir(s), "issues.order"), "latin1").endsWith(`2026-01-01T00:00:03Z ${idOf(3)} L\n`));
  t.deepEqual(
    (await entityOrder(s, ISSUES, ISSUE)).entries.map((e) => e.ref.id),
    [idOf(1), idOf(2), idOf(3)]
  );
});

test(
  "a reader that is not a create never trusts a create's racy stamp: a folder added by someone else in that " +
    "moment is found",
  async (t) => {
    const s = store();
    await create(s, 1);
    // Someone else (a git pull, another tool) adds an issue right after, and the folder's mtime may not move.
    createIssue(s, {
      title: "theirs",
      body: "",
      author: "b",
      labels: [],
      assignees: [],
      now: "2025-01-01T00:00:00Z",
      id: idOf(9),
    });
    const text = readFileSync(join(cacheDir(s), "issues.order"), "latin1");
    const o = await entityOrder(s, ISSUES, ISSUE);
    t.deepEqual(
      o.entries.map((e) => e.ref.id),
      [idOf(9), idOf(1)]
    );
    t.not(readFileSync(join(cacheDir(s), "issues.order"), "latin1"), text, "rebuilt from the listing");
  }
);

test(
  "a create that ranks before the newest (a clock behind " + "the store) rewrites the cache and still numbers right",
  async (t) => {
    const s = store();
    await create(s, 5);
    await create(s, 6);
    t.is(await create(s, 2), 1, "created at :02, before :05 and :06");
    t.deepEqual(
      (await entityOrder(s, ISSUES, ISSUE)).entries.map((e) => e.ref.id),
      [idOf(2), idOf(5), idOf(6)]
    );
  }
);

test(
  "the digest creates keep is the names' digest: the first " + "other reader trusts the cache by it, with no listing",
  async (t) => {
    const s = store();
    for (const i of [1, 2, 3]) await create(s, i);
    const path = join(cacheDir(s), "issues.order");
    const text = readFileSync(path, "latin1");
    const digest = (t: string): string => t.slice(0, t.indexOf("\n")).split(" ")[3]!;
    // A damaged flag on the last line, behind the digest's back: a listing would stop at it and rewrite the line
    // from the file; a reader that trusts the digest (no listing) keeps it as it is.
    writeFileSync(path, text.slice(0, -2) + "X\n", "latin1");
    const o = await entityOrder(s, ISSUES, ISSUE);
    t.deepEqual(
      o.entries.map((e) => e.ref.id),
      [idOf(1), idOf(2), idOf(3)]
    );
    t.true(
      readFileSync(path, "latin1").endsWith(`${idOf(3)} X\n`),
      "trusted by the digest, not rebuilt from a listing"
    );
    // A listing from nothing computes the same digest from the folder names.
    rmSync(path);
    await entityOrder(s, ISSUES, ISSUE);
    t.is(digest(readFileSync(path, "latin1")), digest(text));
  }
);

test("after a create, an entity archived or added by someone else is found by the next reader", async (t) => {
  const s = store();
  await create(s, 1);
  await create(s, 2);
  mkdirSync(archiveDir(s, ISSUES), { recursive: true });
  renameSync(entityDir(s, ISSUES, idOf(1)), join(archiveDir(s, ISSUES), idOf(1)));
  const o = await entityOrder(s, ISSUES, ISSUE);
  t.deepEqual(
    o.entries.map((e) => [e.ref.id, e.ref.archived]),
    [
      [idOf(1), true],
      [idOf(2), false],
    ]
  );
  await create(s, 3);
  // Same count of names, one swapped: a folder renamed to another uuid.
  renameSync(entityDir(s, ISSUES, idOf(2)), entityDir(s, ISSUES, idOf(7)));
  const e = await entityOrder(s, ISSUES, ISSUE);
  t.deepEqual(
    e.errors.map((u) => u.ref.id),
    [idOf(7)],
    "its file names another id: unranked, reported"
  );
  t.deepEqual(
    e.entries.map((x) => x.ref.id),
    [idOf(1), idOf(3)]
  );
});

test("a folder someone else adds while a create runs keeps the create's racy stamp from being trusted", async (t) => {
  // Where a folder's link count counts its subfolders (ext4, XFS, tmpfs); elsewhere the stamp alone is the check.
  const probe = join(mkdtempSync(join(tmpdir(), "forge-links-")), "d");
  mkdirSync(join(probe, "sub"), { recursive: true });
  const counts = statSync(probe).nlink === 3;
  rmSync(dirname(probe), { recursive: true });
  if (!counts) {
    t.log("this filesystem does not count subfolders in a folder's link count: nothing to check here");
    t.pass();
    return;
  }
  const s = store();
  t.is(await create(s, 1), 1);
  // What `create` does, with a folder added by someone else (a git pull) between the order and the create: in the
  // same mtime tick, the stamp the create takes after its own folder would hide it.
  await withKindLock(s, ISSUES, async () => {
    const before = await entityOrder(s, ISSUES, ISSUE);
    const theirs = { title: "theirs", body: "", author: "b", labels: [], assignees: [], id: idOf(8) };
    createIssue(s, { ...theirs, now: "2025-06-01T00:00:00Z" });
    const now = "2026-01-01T00:00:02Z";
    createIssue(s, { title: "t2", body: "", author: "a", labels: [], assignees: [], now, id: idOf(2) });
    recordCreated(s, ISSUES, before, { createdAt: now, ref: { id: idOf(2), archived: false } });
  });
  // The next create counts theirs (the oldest): #4, not #3.
  t.is(await create(s, 3), 4);
  t.deepEqual(
    (await entityOrder(s, ISSUES, ISSUE)).entries.map((e) => e.ref.id),
    [idOf(8), idOf(1), idOf(2), idOf(3)]
  );
});
