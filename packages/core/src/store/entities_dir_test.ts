import test from "ava";
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addComment, archiveIssue, createIssue, loadComments } from "../entities/issue.js";
import { loadEntity } from "../entities/load.js";
import { ISSUE } from "../entities/schema.js";
import { listEntityRefs } from "./entities_dir.js";
import { commentsDir, entityDir, ISSUES, storeAt, type Store } from "./store.js";

const ID = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
const OTHER = "0d1e2f3a-4b5c-4d6e-8f7a-8b9c0d1e2f3a";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function store(): Store {
  const root = mkdtempSync(join(tmpdir(), "forge-refs-"));
  made.push(root);
  const dir = join(root, ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}

function issue(s: Store, id: string): void {
  createIssue(s, { id, title: "t", body: "", author: "a", labels: [], assignees: [], now: "2020-01-01T00:00:00Z" });
}

/** What `git merge` leaves when one side archived ID and the other commented on it. */
async function archivedWithStrayComment(s: Store): Promise<void> {
  issue(s, ID);
  const live = await loadEntity(s, ISSUES, ISSUE, { id: ID, archived: false });
  addComment(s, live, {
    id: "c1000000-0000-4000-8000-000000000001",
    author: "b",
    body: "stray",
    now: "2020-01-02T00:00:00Z",
  });
  const stray = join(tmpdir(), `forge-stray-${process.pid}-${Date.now()}`);
  cpSync(commentsDir(s, ISSUES, ID), stray, { recursive: true });
  archiveIssue(s, live);
  // The archiving side never saw the comment: it stays only in the live folder.
  rmSync(commentsDir(s, ISSUES, ID, true), { recursive: true });
  mkdirSync(entityDir(s, ISSUES, ID));
  renameSync(stray, commentsDir(s, ISSUES, ID));
}

test(
  "listEntityRefs() gives one ref per id when a merge " + "leaves comments in the live folder of an archived issue",
  async (t) => {
    const s = store();
    issue(s, OTHER);
    await archivedWithStrayComment(s);
    const refs = listEntityRefs(s, ISSUES).sort((a, b) => (a.id < b.id ? -1 : 1));
    t.deepEqual(refs, [
      { id: OTHER, archived: false },
      { id: ID, archived: true },
    ]);
  }
);

test("listEntityRefs() keeps the live folder when only it holds the owning file", (t) => {
  const s = store();
  issue(s, ID);
  mkdirSync(entityDir(s, ISSUES, ID, true), { recursive: true });
  t.deepEqual(listEntityRefs(s, ISSUES), [{ id: ID, archived: false }]);
});

test("loadComments() of an archived issue also reads comments a merge left in its live folder", async (t) => {
  const s = store();
  await archivedWithStrayComment(s);
  const e = await loadEntity(s, ISSUES, ISSUE, { id: ID, archived: true });
  const later = addComment(s, e, {
    id: "c1000000-0000-4000-8000-000000000002",
    author: "a",
    body: "after",
    now: "2020-01-03T00:00:00Z",
  });
  t.deepEqual(
    (await loadComments(s, e)).map((c) => c.body),
    ["stray", later.body]
  );
});
