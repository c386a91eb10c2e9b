/**
 * Deterministic stores for end-to-end tests: fixed ids and timestamps, so
 * `list` and `view` output is byte-stable and can be compared with goldens.
 */
import { cpSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addComment,
  archiveIssue,
  createIssue,
  formatFrontmatter,
  ISSUE,
  ISSUES,
  LABELS,
  loadEntity,
  MILESTONES,
  storeAt,
  toFrontmatter,
  updateIssue,
  type Store,
} from "@forge/core";
import { tempRepo } from "./run.js";
import { scratch } from "./scratch.js";

/** One issue of a fixture store. */
export interface FixtureIssue {
  id: string;
  createdAt: string;
  title: string;
  author: string;
  body?: string;
  labels?: string[];
  assignees?: string[];
  milestone?: string;
  closedAt?: string;
  archived?: boolean;
  comments?: Array<{ id: string; author: string; createdAt: string; body: string }>;
}

/**
 * The golden store. Numbers by `(createdAt, id)`: 1 crash, 2 dark mode,
 * 3 typo (closed), 4 button, 5 --web and 6 slow list (same second, so the id
 * decides), 7 duplicate (archived), 8 question. Issues 2 and 4 share the id
 * prefix `abcd`.
 */
export const FIXTURE: readonly FixtureIssue[] = [
  {
    id: "3f2a9c1e-7b4d-4e8a-9c01-5d6e7f809a1b",
    createdAt: "2020-01-01T09:00:00Z",
    title: "Crash on start",
    author: "alice",
    body: "Steps:\n1. run forge\n2. it crashes",
    labels: ["bug"],
    assignees: ["alice"],
    milestone: "v1",
    comments: [
      {
        id: "c1000000-0000-4000-8000-000000000001",
        author: "bob",
        createdAt: "2020-01-01T10:00:00Z",
        body: "Same here.",
      },
      {
        id: "c1000000-0000-4000-8000-000000000002",
        author: "alice",
        createdAt: "2020-01-02T08:00:00Z",
        body: "Fixed by restarting?\n\nNot really.",
      },
    ],
  },
  {
    id: "abcd1234-5678-4abc-8def-0123456789ab",
    createdAt: "2020-01-02T09:00:00Z",
    title: "Add dark mode",
    author: "bob",
    body: "A dark theme would be nice.",
    labels: ["enhancement", "ui"],
    assignees: ["bob"],
  },
  {
    id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    createdAt: "2020-01-03T09:00:00Z",
    title: "Typo in README",
    author: "carol",
    labels: ["docs"],
    closedAt: "2020-01-04T12:00:00Z",
  },
  {
    id: "abcd5678-1234-4def-8abc-ba9876543210",
    createdAt: "2020-01-04T09:00:00Z",
    title: "Button misaligned",
    author: "bob",
    body: "On the settings page.",
    labels: ["bug", "ui"],
    assignees: ["alice", "bob"],
    milestone: "v1",
  },
  {
    id: "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b",
    createdAt: "2020-01-05T09:00:00Z",
    title: "Slow list with many issues",
    author: "alice",
    labels: ["bug", "perf"],
    milestone: "v2",
    closedAt: "2020-01-06T09:30:00Z",
  },
  {
    id: "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d",
    createdAt: "2020-01-05T09:00:00Z",
    title: "Support --web flag",
    author: "carol",
    labels: ["enhancement"],
    assignees: ["carol"],
  },
  {
    id: "9b8a7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
    createdAt: "2020-01-06T09:00:00Z",
    title: "Old duplicate",
    author: "dave",
    labels: ["bug"],
    archived: true,
  },
  {
    id: "0d1e2f3a-4b5c-4d6e-8f7a-8b9c0d1e2f3a",
    createdAt: "2020-01-07T09:00:00Z",
    title: "Question about setup",
    author: "dave",
    body: "Is there a DARK theme for the CLI?",
  },
];

/** Every id and timestamp in FIXTURE (kept as they are when scrubbing output). */
export const FIXTURE_IDS: ReadonlySet<string> = new Set(
  FIXTURE.flatMap((i) => [i.id, ...(i.comments ?? []).map((c) => c.id)])
);

/** Write `labels.md` and `milestones.md` with a few definitions. */
export function writeDefs(store: Store): void {
  const labels = [
    { name: "bug", color: "d73a4a", description: "Something isn't working" },
    { name: "enhancement", color: "a2eeef", description: "New feature or request" },
  ];
  const milestones = [
    { title: "v1", dueOn: "2020-02-01T00:00:00Z", state: "open", description: "First release" },
    { title: "v2", state: "open" },
  ];
  writeFileSync(join(store.dir, "labels.md"), formatFrontmatter(toFrontmatter(LABELS, { labels }), ""));
  writeFileSync(join(store.dir, "milestones.md"), formatFrontmatter(toFrontmatter(MILESTONES, { milestones }), ""));
}

/**
 * Write issues into `<repo>/.forge` through core's own create, comment,
 * close and archive, with fixed ids and clocks.
 * @param repo a folder that holds an initialised `.forge/`
 */
export async function writeIssues(repo: string, issues: readonly FixtureIssue[]): Promise<void> {
  const store = storeAt(join(repo, ".forge"));
  for (const i of issues) {
    createIssue(store, {
      id: i.id,
      now: i.createdAt,
      title: i.title,
      author: i.author,
      body: i.body ?? "",
      labels: i.labels ?? [],
      assignees: i.assignees ?? [],
      milestone: i.milestone,
    });
    let e = await loadEntity(store, ISSUES, ISSUE, { id: i.id, archived: false });
    for (const c of i.comments ?? [])
      addComment(store, e, { id: c.id, author: c.author, now: c.createdAt, body: c.body });
    if (i.closedAt !== undefined) {
      const at = i.closedAt;
      e = updateIssue(e, (d) => {
        d.state = "closed";
        d.closedAt = at;
      });
    }
    if (i.archived) archiveIssue(store, e);
  }
}

/** The golden store (FIXTURE plus definitions) in `repo`. */
export async function writeFixture(repo: string): Promise<void> {
  writeDefs(storeAt(join(repo, ".forge")));
  await writeIssues(repo, FIXTURE);
}

let template: Promise<string> | undefined;

/**
 * A fresh temp repo holding the golden store: a copy of one repo built once
 * per test process (much cheaper than `git init` + `forge init` + writes).
 */
export async function fixtureRepo(): Promise<string> {
  template ??= (async () => {
    const dir = scratch(tempRepo("forge-fixture-"));
    await writeFixture(dir);
    return dir;
  })();
  const src = await template;
  const dst = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-e2e-"))));
  cpSync(src, dst, { recursive: true });
  return dst;
}

/** The id of the n-th generated issue (n from 0): a valid uuid v4 that sorts with n. */
export function genId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

/** A timestamp `n` seconds after 2021-01-01T00:00:00Z. */
export function genTime(n: number): string {
  return new Date(Date.UTC(2021, 0, 1) + n * 1000).toISOString().slice(0, 19) + "Z";
}

/**
 * Write `n` canonical issue files quickly (plain writes, no fsync): issue k
 * has id genId(k), createdAt genTime(k), and the label `bug` when k is even.
 * For volume tests; the golden store goes through core's writers instead.
 */
export function writeManyIssues(repo: string, n: number): void {
  const dir = join(repo, ".forge", ISSUES.plural);
  for (let k = 0; k < n; k++) {
    const id = genId(k);
    const data = {
      title: `Issue ${k}`,
      id,
      state: "open",
      author: "alice",
      createdAt: genTime(k),
      labels: k % 2 ? [] : ["bug"],
      assignees: [],
    };
    mkdirSync(join(dir, id), { recursive: true });
    writeFileSync(join(dir, id, ISSUES.file), formatFrontmatter(toFrontmatter(ISSUE, data), `Body of issue ${k}\n`));
  }
}
