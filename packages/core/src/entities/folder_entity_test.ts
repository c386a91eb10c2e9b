import test from "ava";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entityFile, storeAt } from "../store/store.js";
import { appendRecord, archiveEntity, createEntity, loadRecords, TASKS, updateEntity } from "./folder_entity.js";
import { loadEntity } from "./load.js";
import { COMMENT, TASK } from "./schema.js";

const ID = "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11";
function store() {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-fe-")), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}
const task = { title: "t", id: ID, status: "todo", author: "a", createdAt: "2026-01-02T03:04:05Z", assignees: [] };

test("createEntity() writes the owning file and extra files in one folder; a second create with the id fails", (t) => {
  const s = store();
  createEntity(s, TASKS, TASK, task, "body\n", { "notes.txt": "n" });
  t.is(
    readFileSync(entityFile(s, TASKS, ID), "utf8"),
    `---\ntitle: t\nid: ${ID}\nstatus: todo\nauthor: a\ncreatedAt: "2026-01-02T03:04:05Z"\nassignees:\n---\nbody\n`
  );
  t.is(readFileSync(join(s.dir, "tasks", ID, "notes.txt"), "utf8"), "n");
  t.throws(() => createEntity(s, TASKS, TASK, task, ""), { message: /already exists/ });
});

test("updateEntity() rewrites only the changed fields and keeps unknown ones", async (t) => {
  const s = store();
  createEntity(s, TASKS, TASK, { ...task }, "");
  const f = entityFile(s, TASKS, ID);
  writeFileSync(f, readFileSync(f, "utf8").replace(/---\n$/, "mine: x\n---\n"));
  const e = await loadEntity(s, TASKS, TASK, { id: ID, archived: false });
  const u = updateEntity(TASK, e, (d) => {
    d.status = "doing";
  });
  t.is(u.data.status, "doing");
  t.regex(readFileSync(f, "utf8"), /status: doing\n[\s\S]*mine: x\n---\n$/);
});

test("appendRecord() adds files loadRecords() reads oldest first, and never overwrites", async (t) => {
  const s = store();
  createEntity(s, TASKS, TASK, task, "");
  const ref = { id: ID, archived: false };
  const c = (id: string, at: string) =>
    appendRecord(s, TASKS, ref, "comments", COMMENT, { id, author: "b", createdAt: at }, `${id.slice(0, 1)}\n`);
  c("bbbbbbbb-0000-4000-8000-000000000000", "2026-01-03T00:00:00Z");
  c("aaaaaaaa-0000-4000-8000-000000000000", "2026-01-03T00:00:00Z");
  c("cccccccc-0000-4000-8000-000000000000", "2026-01-02T00:00:00Z");
  t.throws(() => c("cccccccc-0000-4000-8000-000000000000", "2026-01-02T00:00:00Z"), { code: "EEXIST" });
  const got = await loadRecords(s, TASKS, ref, "comments", COMMENT);
  t.deepEqual(
    got.map((f) => f.body),
    ["c\n", "a\n", "b\n"]
  );
});

test("archiveEntity() moves the folder and refuses a second time", async (t) => {
  const s = store();
  createEntity(s, TASKS, TASK, task, "");
  const e = await loadEntity(s, TASKS, TASK, { id: ID, archived: false });
  const a = archiveEntity(s, TASKS, e);
  t.true(existsSync(entityFile(s, TASKS, ID, true)));
  t.false(existsSync(join(s.dir, "tasks", ID)));
  t.throws(() => archiveEntity(s, TASKS, a), { message: /already archived/ });
});
