/**
 * Pipelines and the nouns together, through real shells: `list --json`
 * feeding `move -` and `done -`, the batch failure rule, the `forge`
 * dispatcher, and label and milestone definitions showing up in issue JSON.
 */
import test from "ava";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { kanbanRepo } from "./lib/kanban_fixture.js";
import { jsonl, run, sh, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** `number → status` of every live task. */
async function board(cwd: string): Promise<Record<number, string>> {
  const r = await run("forge-task", ["list", "--json", "number,status"], { cwd });
  if (r.code !== 0) throw new Error(r.stderr);
  return Object.fromEntries(jsonl(r.stdout).map((x) => [x.number, x.status]));
}

test("forge-task list --status todo --json | forge-task move - doing moves exactly the todo tasks", async (t) => {
  const cwd = await kanbanRepo();
  const r = await sh("forge-task list --status todo --json | forge-task move - doing", { cwd });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, "");
  t.is(
    r.stderr,
    "Moved task #1 (Write the README) to doing\nMoved task #6 (Plan v2) to doing\nMoved task #7 (Triage bugs) to " +
      "doing\n"
  );
  t.deepEqual(await board(cwd), { 1: "doing", 2: "doing", 3: "blocked", 4: "done", 6: "doing", 7: "doing" });
  // the archived todo task (#5) was not listed, so it did not move
  const five = await run("forge-task", ["view", "5", "--json", "status"], { cwd });
  t.deepEqual(jsonl(five.stdout), [{ status: "todo" }]);
});

test("forge-task move - with --json emits one line per task, and the columns of a second list are right", async (t) => {
  const cwd = await kanbanRepo();
  const r = await sh("forge-task list -s doing,blocked --json id | forge-task move - todo --json number,status", {
    cwd,
  });
  t.is(r.code, 0, r.stderr);
  t.deepEqual(jsonl(r.stdout), [
    { number: 2, status: "todo" },
    { number: 3, status: "todo" },
  ]);
  const todo = await run("forge-task", ["list", "-s", "todo", "--json", "number"], { cwd });
  t.deepEqual(
    jsonl(todo.stdout).map((x) => x.number),
    [1, 2, 3, 6, 7]
  );
});

test("forge-task list --json | forge-task done - closes every task, noting the one already done", async (t) => {
  const cwd = await kanbanRepo();
  const r = await sh("forge-task list --json | forge-task done - --json number,status,closedAt", { cwd });
  t.is(r.code, 0, r.stderr);
  const out = jsonl(r.stdout);
  t.deepEqual(
    out.map((x) => [x.number, x.status]),
    [
      [1, "done"],
      [6, "done"],
      [7, "done"],
      [2, "done"],
      [3, "done"],
      [4, "done"],
    ]
  );
  t.true(out.every((x) => typeof x.closedAt === "string"));
  t.is(out.find((x) => x.number === 4)!.closedAt, "2020-02-05T10:00:00Z", "an already-done task keeps its closedAt");
  t.regex(r.stderr, /^! Task #4 \(Set up CI\) is already done$/m);
});

test("forge-task move - emits what succeeded, one stderr line per failed record, and exits 1", async (t) => {
  const cwd = await kanbanRepo();
  const input = [
    '{"number":1}',
    '{"number":99}',
    "not json",
    '{"title":"no ref"}',
    '{"id":"bbcd0002-0000-4000-8000-000000000002"}',
    "",
  ].join("\n");
  const r = await run("forge-task", ["move", "-", "blocked", "--json", "number,status"], { cwd, input });
  t.is(r.code, 1);
  t.deepEqual(jsonl(r.stdout), [
    { number: 1, status: "blocked" },
    { number: 2, status: "blocked" },
  ]);
  const err = r.stderr
    .trimEnd()
    .split("\n")
    .filter((l) => l.startsWith("forge-task move: "));
  t.is(err.length, 3, r.stderr);
  t.deepEqual((await board(cwd))[1], "blocked");
});

test("forge-task move - refuses a bad status before reading stdin, and moves nothing", async (t) => {
  const cwd = await kanbanRepo();
  const r = await sh("forge-task list --json | forge-task move - closed", { cwd });
  t.is(r.code, 2);
  t.is(
    r.stderr,
    "forge-task move: invalid status 'closed' (one of todo|doing|blocked|done) (see 'forge-task move -h')\n"
  );
  t.deepEqual(await board(cwd), { 1: "todo", 2: "doing", 3: "blocked", 4: "done", 6: "todo", 7: "todo" });
});

test("forge task, forge label and forge milestone dispatch to their executables", async (t) => {
  const cwd = await kanbanRepo();
  const a = await run("forge", ["task", "list", "-s", "doing", "--json", "title"], { cwd });
  t.deepEqual(jsonl(a.stdout), [{ title: "Fix the crash" }]);
  const b = await run("forge", ["label", "list", "-L", "1", "--json", "name"], { cwd });
  t.deepEqual(jsonl(b.stdout), [{ name: "bug" }]);
  const c = await run("forge", ["milestone", "list", "-s", "closed", "--json", "title"], { cwd });
  t.deepEqual(jsonl(c.stdout), [{ title: "v0.9" }]);
});

test(
  "a label created with forge-label gives issues its color and description; edits and renames follow; delete " +
    "takes it off the issue (gh)",
  async (t) => {
    const cwd = scratch(tempRepo("forge-kanban-"));
    const ok = async (cmd: string, args: string[]) => {
      const r = await run(cmd, args, { cwd });
      t.is(r.code, 0, r.stderr);
      return r;
    };
    await ok("forge-label", ["create", "defect", "-c", "d73a4a", "-d", "Something isn't working"]);
    // gh: a label the repository does not define is refused, naming it.
    const undefinedLabel = await run("forge-issue", ["create", "-t", "Crash", "-l", "defect,ui"], { cwd });
    t.is(undefinedLabel.code, 1);
    t.is(undefinedLabel.stderr, "forge-issue create: could not add label: 'ui' not found\n");
    await ok("forge-label", ["create", "ui", "-c", "#C5DEF5"]);
    await ok("forge-issue", ["create", "-t", "Crash", "-l", "defect,ui"]);
    const labels = async () => jsonl((await ok("forge-issue", ["list", "--json", "labels"])).stdout)[0]!.labels;
    t.deepEqual(await labels(), [
      { name: "defect", color: "d73a4a", description: "Something isn't working" },
      { name: "ui", color: "c5def5", description: "" },
    ]);
    await ok("forge-label", ["edit", "defect", "-c", "ee0701"]);
    t.deepEqual(await labels(), [
      { name: "defect", color: "ee0701", description: "Something isn't working" },
      { name: "ui", color: "c5def5", description: "" },
    ]);
    const issueFile = join(
      cwd,
      ".forge",
      "issues",
      jsonl((await ok("forge-issue", ["list", "--json", "id"])).stdout)[0]!.id as string,
      "issue.md"
    );
    const before = readFileSync(issueFile, "utf8");
    await ok("forge-label", ["delete", "defect", "--yes"]);
    t.deepEqual(await labels(), [{ name: "ui", color: "c5def5", description: "" }]);
    t.not(readFileSync(issueFile, "utf8"), before, "gh: a deleted label is taken off every issue (issue 31)");
    // gh: a rename renames the label on every issue that carries it.
    await ok("forge-label", ["edit", "ui", "--name", "frontend"]);
    t.deepEqual(await labels(), [{ name: "frontend", color: "c5def5", description: "" }]);
  }
);

test(
  "a milestone created with forge-milestone gives issues its due date and description; a rename moves its issues " +
    "(gh)",
  async (t) => {
    const cwd = scratch(tempRepo("forge-kanban-"));
    const ok = async (cmd: string, args: string[]) => {
      const r = await run(cmd, args, { cwd });
      t.is(r.code, 0, r.stderr);
      return r;
    };
    await ok("forge-milestone", ["create", "v1", "--due", "2026-03-01", "-d", "First: release"]);
    await ok("forge-issue", ["create", "-t", "Crash", "-m", "v1"]);
    await ok("forge-issue", ["create", "-t", "Docs", "-m", "v1"]);
    await ok("forge-issue", ["close", "1"]);
    const ms = async () =>
      jsonl((await ok("forge-issue", ["list", "-s", "all", "--json", "milestone"])).stdout).map((x) => x.milestone);
    const v1 = { number: 1, title: "v1", description: "First: release", dueOn: "2026-03-01T00:00:00Z" };
    t.deepEqual(await ms(), [v1, v1]);
    const counts = await ok("forge-milestone", ["list", "--json", "title,openIssues,closedIssues"]);
    t.deepEqual(jsonl(counts.stdout), [{ closedIssues: 1, openIssues: 1, title: "v1" }]);
    await ok("forge-milestone", ["edit", "v1", "--title", "v1.0"]);
    // gh: issues follow a renamed milestone (issue 31).
    const v10 = { ...v1, title: "v1.0" };
    t.deepEqual(await ms(), [v10, v10]);
  }
);

test(
  "a task made for an issue shows that issue's number, " + "and issue numbers stay right after more issues",
  async (t) => {
    const cwd = scratch(tempRepo("forge-kanban-"));
    const c = await run("forge-issue", ["create", "-t", "First", "--json", "id"], { cwd });
    const id = jsonl(c.stdout)[0]!.id as string;
    const task = await run(
      "forge-task",
      [
        "create",
        "-t",
        "Do it",
        "--issue",
        id.slice(0, 13), // with a dash: 8 digits alone would be a number
        "--json",
        "number,issue,status",
      ],
      { cwd }
    );
    t.is(task.code, 0, task.stderr);
    t.deepEqual(jsonl(task.stdout), [{ issue: { id, number: 1 }, number: 1, status: "todo" }]);
    t.is((await run("forge-issue", ["create", "-t", "Second"], { cwd })).code, 0);
    const v = await run("forge-task", ["view", "1", "--jq", ".issue.number"], { cwd });
    t.is(v.stdout, "1\n");
  }
);
