/**
 * The golden store for tasks, labels and milestones: the issue fixture
 * (test/lib/fixture.ts) plus tasks with fixed ids and clocks, written through
 * core's own create and move, and richer label and milestone definitions.
 */
import { cpSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  archiveEntity,
  createTask,
  formatFrontmatter,
  LABELS,
  loadEntity,
  MILESTONES,
  moveTask,
  storeAt,
  TASK,
  TASKS,
  toFrontmatter,
  type TaskStatus,
} from "@forge/core";
import { FIXTURE, FIXTURE_IDS, fixtureRepo } from "./fixture.js";
import { scratch } from "./scratch.js";

/** One task of the fixture. */
export interface FixtureTask {
  id: string;
  createdAt: string;
  title: string;
  author: string;
  status: TaskStatus;
  body?: string;
  assignees?: string[];
  issue?: string;
  /** When it moved to done. */
  closedAt?: string;
  archived?: boolean;
}

/** An issue id no issue of the fixture has (a task linked to an issue from elsewhere). */
export const FOREIGN_ISSUE = "f0f0f0f0-0000-4000-8000-00000000f0f0";

/**
 * Numbers by `(createdAt, id)`: 1 README (todo, issue #1), 2 crash (doing,
 * issue #4), 3 review (blocked), 4 CI (done), 5 old idea (todo, archived),
 * 6 plan v2 and 7 triage (same second: the id decides; 7 names an issue this
 * store does not have). Tasks 2 and 3 share the id prefix `bbcd`.
 */
export const TASK_FIXTURE: readonly FixtureTask[] = [
  {
    id: "aa000001-0000-4000-8000-000000000001",
    createdAt: "2020-02-01T09:00:00Z",
    title: "Write the README",
    author: "alice",
    status: "todo",
    body: "Sections: install, usage.",
    assignees: ["alice"],
    issue: FIXTURE[0]!.id,
  },
  {
    id: "bbcd0002-0000-4000-8000-000000000002",
    createdAt: "2020-02-02T09:00:00Z",
    title: "Fix the crash",
    author: "bob",
    status: "doing",
    assignees: ["bob"],
    issue: FIXTURE[3]!.id,
  },
  {
    id: "bbcd0003-0000-4000-8000-000000000003",
    createdAt: "2020-02-03T09:00:00Z",
    title: "Wait for review",
    author: "carol",
    status: "blocked",
    assignees: ["alice", "carol"],
  },
  {
    id: "dd000004-0000-4000-8000-000000000004",
    createdAt: "2020-02-04T09:00:00Z",
    title: "Set up CI",
    author: "alice",
    status: "done",
    closedAt: "2020-02-05T10:00:00Z",
    body: "Done with forge-ci.",
  },
  {
    id: "ee000005-0000-4000-8000-000000000005",
    createdAt: "2020-02-05T09:00:00Z",
    title: "Old idea",
    author: "dave",
    status: "todo",
    archived: true,
  },
  {
    id: "ff000006-0000-4000-8000-000000000006",
    createdAt: "2020-02-06T09:00:00Z",
    title: "Triage bugs",
    author: "bob",
    status: "todo",
    assignees: ["bob"],
    issue: FOREIGN_ISSUE,
  },
  {
    id: "cc000007-0000-4000-8000-000000000007",
    createdAt: "2020-02-06T09:00:00Z",
    title: "Plan v2",
    author: "alice",
    status: "todo",
  },
];

/** Ids and timestamps of the fixture (kept as they are when scrubbing output). */
export const KANBAN_IDS: ReadonlySet<string> = new Set([
  ...FIXTURE_IDS,
  ...TASK_FIXTURE.map((t) => t.id),
  FOREIGN_ISSUE,
]);

/** The label definitions of the fixture, in file order (= creation order). */
export const LABEL_FIXTURE = [
  { name: "bug", color: "d73a4a", description: "Something isn't working" },
  { name: "enhancement", color: "a2eeef", description: "New feature or request" },
  { name: "docs", color: "0075ca", description: "Improvements or additions to documentation" },
  { name: "help wanted", color: "008672", description: "Extra attention is needed" },
  { name: "Good first issue", color: "7057ff", description: "Good for newcomers" },
  { name: "ui" },
];

/** The milestone definitions of the fixture: numbers 1 v0.9 (closed), 2 v1, 3 v2. */
export const MILESTONE_FIXTURE = [
  { title: "v0.9", state: "closed", description: "Bootstrap: the store" },
  { title: "v1", dueOn: "2020-02-01T00:00:00Z", state: "open", description: "First release" },
  { title: "v2", state: "open" },
];

/** Write the tasks into `<repo>/.forge` through core, with fixed ids and clocks. */
export async function writeTasks(repo: string, tasks: readonly FixtureTask[]): Promise<void> {
  const store = storeAt(join(repo, ".forge"));
  for (const t of tasks) {
    createTask(store, {
      id: t.id,
      now: t.createdAt,
      title: t.title,
      author: t.author,
      body: t.body ?? "",
      assignees: t.assignees ?? [],
      issue: t.issue,
    });
    let e = await loadEntity(store, TASKS, TASK, { id: t.id, archived: false });
    if (t.status !== "todo") e = moveTask(e, t.status, t.closedAt ?? t.createdAt);
    if (t.archived) archiveEntity(store, TASKS, e);
  }
}

let template: Promise<string> | undefined;

/**
 * A fresh temp repo holding the issue fixture, the tasks and the definitions (built once per test process, then
 * copied).
 */
export async function kanbanRepo(): Promise<string> {
  template ??= (async () => {
    const dir = await fixtureRepo();
    const store = storeAt(join(dir, ".forge"));
    writeFileSync(
      join(store.dir, "labels.md"),
      formatFrontmatter(toFrontmatter(LABELS, { labels: LABEL_FIXTURE }), "")
    );
    writeFileSync(
      join(store.dir, "milestones.md"),
      formatFrontmatter(toFrontmatter(MILESTONES, { milestones: MILESTONE_FIXTURE }), "")
    );
    await writeTasks(dir, TASK_FIXTURE);
    return dir;
  })();
  const src = await template;
  const dst = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-kanban-"))));
  cpSync(src, dst, { recursive: true });
  return dst;
}
