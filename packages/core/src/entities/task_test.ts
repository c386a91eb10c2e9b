import test from "ava";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entityFile, storeAt } from "../store/store.js";
import { TASKS } from "./folder_entity.js";
import { loadEntity } from "./load.js";
import { TASK } from "./schema.js";
import { createTask, isTaskStatus, moveTask, taskToJson, updateTask } from "./task.js";

const ID = "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11";
const ISSUE_ID = "3f2a9c1e-7b4d-4e8a-9c01-5d6e7f809a1b";
const T0 = "2026-01-02T03:04:05Z";
const T1 = "2026-01-03T00:00:00Z";

function store() {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-task-")), ".forge");
  mkdirSync(dir);
  return storeAt(dir);
}

async function made(input: Partial<Parameters<typeof createTask>[1]> = {}) {
  const s = store();
  createTask(s, {
    id: ID,
    now: T0,
    title: "Write docs",
    body: "b",
    author: "alice",
    assignees: ["bob", "bob"],
    ...input,
  });
  return { s, e: await loadEntity(s, TASKS, TASK, { id: ID, archived: false }) };
}

test("createTask() writes a todo task in schema order, body with one final newline, assignees once", async (t) => {
  const { s } = await made({ issue: ISSUE_ID });
  t.is(
    readFileSync(entityFile(s, TASKS, ID), "utf8"),
    `---\ntitle: Write docs\nid: ${ID}\nstatus: todo\nauthor: alice\nissue: ${ISSUE_ID}\ncreatedAt: ` +
      `"${T0}"\nassignees:\n  - bob\n---\nb\n`
  );
});

test("createTask() refuses an empty or two-line title and writes nothing", (t) => {
  const s = store();
  for (const title of [" ", "a\nb"]) {
    t.throws(() => createTask(s, { id: ID, now: T0, title, body: "", author: "a", assignees: [] }), {
      code: "E_USAGE",
    });
  }
  t.throws(() => readFileSync(entityFile(s, TASKS, ID)));
});

test("taskToJson() gives every field, the issue's number when known, updatedAt = createdAt until done", async (t) => {
  const { e } = await made({ issue: ISSUE_ID });
  t.deepEqual(taskToJson(e, 4, new Map([[ISSUE_ID, 7]])), {
    assignees: [{ login: "bob" }],
    author: { login: "alice" },
    body: "b",
    closedAt: null,
    createdAt: T0,
    id: ID,
    isArchived: false,
    issue: { id: ISSUE_ID, number: 7 },
    number: 4,
    status: "todo",
    title: "Write docs",
    updatedAt: T0,
  });
  t.deepEqual(taskToJson(e, 4, new Map()).issue, { id: ISSUE_ID, number: null });
});

test("taskToJson() gives issue null for a task with no issue", async (t) => {
  const { e } = await made();
  t.is(taskToJson(e, 1, new Map()).issue, null);
});

test(
  "moveTask() to done sets closedAt (and updatedAt); " + "out of done removes it; the same column writes nothing",
  async (t) => {
    const { s, e } = await made();
    const path = entityFile(s, TASKS, ID);
    const done = moveTask(e, "done", T1);
    t.is(done.data.closedAt, T1);
    t.is(taskToJson(done, 1, new Map()).updatedAt, T1);
    t.regex(readFileSync(path, "utf8"), /\nstatus: done\nclosedAt: "2026-01-03T00:00:00Z"\nauthor/);
    const before = readFileSync(path, "utf8");
    t.is(moveTask(done, "done", "2030-01-01T00:00:00Z"), done);
    t.is(readFileSync(path, "utf8"), before);
    const back = moveTask(done, "blocked", T1);
    t.is(back.data.closedAt, undefined);
    t.is(readFileSync(path, "utf8"), before.replace(`status: done\nclosedAt: "${T1}"\n`, "status: blocked\n"));
  }
);

test("moveTask() between open columns rewrites only the status line", async (t) => {
  const { s, e } = await made();
  const path = entityFile(s, TASKS, ID);
  const before = readFileSync(path, "utf8");
  moveTask(e, "doing", T1);
  t.is(readFileSync(path, "utf8"), before.replace("status: todo", "status: doing"));
});

test("updateTask() stores a new body with one final newline and refuses a bad title without writing", async (t) => {
  const { s, e } = await made();
  const path = entityFile(s, TASKS, ID);
  const u = updateTask(e, () => ({ body: "new" }));
  t.is(u.body, "new\n");
  const before = readFileSync(path, "utf8");
  t.throws(() => updateTask(u, (d) => void (d.title = "a\nb")), { message: "title must be one line" });
  t.is(readFileSync(path, "utf8"), before);
});

test("isTaskStatus() accepts the four columns only", (t) => {
  t.deepEqual(["todo", "doing", "blocked", "done", "TODO", "closed", ""].map(isTaskStatus), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});
