import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ISSUES, storeAt, type Store } from "../store/store.js";
import { addComment, createIssue, loadComments } from "./issue.js";
import { loadEntity } from "./load.js";
import { ISSUE } from "./schema.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function store(): Store {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-comments-")));
  made.push(root);
  mkdirSync(join(root, ".forge"));
  return storeAt(join(root, ".forge"));
}

test("issue comments made in the same second read back in the order they were made (issue 14)", async (t) => {
  const s = store();
  const now = "2026-01-08T00:00:00Z";
  const id = createIssue(s, { title: "t", body: "", author: "alice", labels: [], assignees: [], now });
  const e = await loadEntity(s, ISSUES, ISSUE, { id, archived: false });
  const bodies = Array.from({ length: 10 }, (_, i) => addComment(s, e, { body: `c${i + 1}`, author: "bob", now }).body);
  const back = await loadComments(s, e);
  t.deepEqual(
    back.map((c) => c.body),
    bodies
  );
  t.is(back.at(-1)!.body, "c10", ".comments[-1] is the latest");
});
