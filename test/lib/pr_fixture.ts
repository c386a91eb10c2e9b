/**
 * A deterministic pull-request store for end-to-end tests: the issue
 * fixture (test/lib/fixture.ts) plus six PRs with fixed ids, timestamps,
 * patches, reviews and comments, written through core's own writers; and a
 * git history (`main`, `topic` two commits ahead) with fixed dates, for the
 * verbs that run git.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addPrComment,
  addReview,
  archiveEntity,
  createPr,
  loadEntity,
  PR,
  PRS,
  storeAt,
  updateEntity,
  type ReviewJson,
} from "@forge/core";
import { FIXTURE, FIXTURE_IDS, writeFixture } from "./fixture.js";
import { tempRepo } from "./run.js";
import { scratch } from "./scratch.js";

/** One PR of the fixture. */
export interface FixturePr {
  id: string;
  createdAt: string;
  title: string;
  author: string;
  base: string;
  head: string;
  body?: string;
  draft?: boolean;
  labels?: string[];
  assignees?: string[];
  milestone?: string;
  closes?: string[];
  ci?: "pass" | "fail" | "running" | "cancelled";
  closedAt?: string;
  mergedAt?: string;
  previousPatchSha256?: string[];
  archived?: boolean;
  patch: string;
  reviews?: Array<{ id: string; author: string; state: ReviewJson["state"]; createdAt: string; body: string }>;
  comments?: Array<{ id: string; author: string; createdAt: string; body: string }>;
}

const mail = (sha: string, n: string, subject: string, diff: string): string =>
  `From ${sha} Mon Sep 17 00:00:00 2001\nFrom: A U Thor <author@example.com>\nDate: Sat, 1 Feb 2020 09:00:00 ` +
  `+0000\nSubject: [PATCH ${n}] ${subject}\n\n---\n\n${diff}\n`;

/** Two commits: src/config.ts changed twice, a test added. */
const PATCH_1 =
  mail(
    "1111111111111111111111111111111111111111",
    "1/2",
    "Wait for the config",
    [
      "diff --git a/src/config.ts b/src/config.ts",
      "index 1111111..2222222 100644",
      "--- a/src/config.ts",
      "+++ b/src/config.ts",
      "@@ -1,3 +1,4 @@",
      " export function load() {",
      "-  return read();",
      "+  await ready();",
      "+  return read();",
      " }",
    ].join("\n")
  ) +
  mail(
    "2222222222222222222222222222222222222222",
    "2/2",
    "Test the wait",
    [
      "diff --git a/src/config.ts b/src/config.ts",
      "index 2222222..3333333 100644",
      "--- a/src/config.ts",
      "+++ b/src/config.ts",
      "@@ -1,2 +1,2 @@",
      "-export function load() {",
      "+export async function load() {",
      "   await ready();",
      "diff --git a/test/config_test.ts b/test/config_test.ts",
      "new file mode 100644",
      "index 0000000..4444444",
      "--- /dev/null",
      "+++ b/test/config_test.ts",
      "@@ -0,0 +1,3 @@",
      '+import test from "ava";',
      "+",
      '+test("load waits", async () => {});',
    ].join("\n")
  );

const onePatch = (sha: string, path: string, minus: string, plus: string): string =>
  mail(
    sha,
    "",
    `Change ${path}`,
    [
      `diff --git a/${path} b/${path}`,
      "index 5555555..6666666 100644",
      `--- a/${path}`,
      `+++ b/${path}`,
      "@@ -1 +1 @@",
      `-${minus}`,
      `+${plus}`,
    ].join("\n")
  ).replace("[PATCH ]", "[PATCH]");

const ISSUE_1 = FIXTURE[0]!.id;
const ISSUE_4 = FIXTURE[3]!.id;

/**
 * Numbers by `(createdAt, id)`: 1 crash fix (reviews, a comment, ci pass),
 * 2 dark mode (draft), 3 typo (closed), 4 speed-up (merged, a previous
 * patch), 5 experiment (archived), 6 backport (base release/1.x).
 */
export const PR_FIXTURE: readonly FixturePr[] = [
  {
    id: "a1f0c3d2-1b4e-4c5d-8e6f-7a8b9c0d1e2f",
    createdAt: "2020-02-01T09:00:00Z",
    title: "Fix crash on start",
    author: "bob",
    base: "main",
    head: "fix/crash",
    body: "Waits for the config before reading it.\n\nFixes #1.",
    labels: ["bug"],
    assignees: ["bob"],
    milestone: "v1",
    closes: [ISSUE_1],
    ci: "pass",
    patch: PATCH_1,
    reviews: [
      {
        id: "b1000000-0000-4000-8000-000000000001",
        author: "alice",
        state: "CHANGES_REQUESTED",
        createdAt: "2020-02-01T10:00:00Z",
        body: "Add a test?",
      },
      {
        id: "b1000000-0000-4000-8000-000000000002",
        author: "carol",
        state: "APPROVED",
        createdAt: "2020-02-02T10:00:00Z",
        body: "",
      },
    ],
    comments: [
      {
        id: "c2000000-0000-4000-8000-000000000001",
        author: "bob",
        createdAt: "2020-02-01T11:00:00Z",
        body: "Test added.",
      },
    ],
  },
  {
    id: "a2b3c4d5-e6f7-4a8b-9c0d-1e2f3a4b5c6d",
    createdAt: "2020-02-02T09:00:00Z",
    title: "Add dark mode",
    author: "carol",
    base: "main",
    head: "feat/dark-mode",
    body: "A dark theme.",
    draft: true,
    labels: ["enhancement", "ui"],
    assignees: ["carol"],
    ci: "running",
    patch: onePatch(
      "3333333333333333333333333333333333333333",
      "src/theme.ts",
      "const dark = false;",
      "const dark = true;"
    ),
  },
  {
    id: "a3c4d5e6-f7a8-4b9c-8d1e-2f3a4b5c6d7e",
    createdAt: "2020-02-03T09:00:00Z",
    title: "Typo in README",
    author: "dave",
    base: "main",
    head: "docs/typo",
    labels: ["docs"],
    ci: "fail",
    closedAt: "2020-02-04T00:00:00Z",
    patch: onePatch("4444444444444444444444444444444444444444", "README.md", "teh forge", "the forge"),
  },
  {
    id: "a4d5e6f7-a8b9-4c0d-9e2f-3a4b5c6d7e8f",
    createdAt: "2020-02-04T09:00:00Z",
    title: "Speed up list",
    author: "alice",
    base: "main",
    head: "perf/list",
    body: "Closes #4",
    labels: ["perf"],
    closes: [ISSUE_4],
    ci: "pass",
    mergedAt: "2020-02-05T12:00:00Z",
    previousPatchSha256: ["0f".repeat(32)],
    patch: onePatch(
      "5555555555555555555555555555555555555555",
      "src/list.ts",
      "for (const f of files) read(f);",
      "await Promise.all(files.map(read));"
    ),
  },
  {
    id: "a5e6f7a8-b9c0-4d1e-8f3a-4b5c6d7e8f9a",
    createdAt: "2020-02-05T09:00:00Z",
    title: "Old experiment",
    author: "dave",
    base: "main",
    head: "exp/old",
    archived: true,
    patch: onePatch("6666666666666666666666666666666666666666", "src/exp.ts", "a", "b"),
  },
  {
    id: "a6f7a8b9-c0d1-4e2f-9a4b-5c6d7e8f9a0b",
    createdAt: "2020-02-06T09:00:00Z",
    title: "Backport the drain fix",
    author: "alice",
    base: "release/1.x",
    head: "backport/drain",
    body: "Wait for `drain` on the 1.x line.",
    assignees: ["alice"],
    ci: "cancelled",
    patch: onePatch(
      "7777777777777777777777777777777777777777",
      "src/out.ts",
      "write(s);",
      "if (!write(s)) await drained();"
    ),
  },
];

/** Every id in the issue and PR fixtures (kept as they are when scrubbing output). */
export const PR_FIXTURE_IDS: ReadonlySet<string> = new Set([
  ...FIXTURE_IDS,
  ...PR_FIXTURE.flatMap((p) => [p.id, ...(p.reviews ?? []).map((r) => r.id), ...(p.comments ?? []).map((c) => c.id)]),
]);

/** The fake commit ids the fixture PRs record: base `aaaa…` + n, head `bbbb…` + n. */
export function fixtureSha(kind: "base" | "head", n: number): string {
  return (kind === "base" ? "a" : "b").repeat(39) + String(n);
}

/** Write the PR fixture into `<repo>/.forge` through core's writers. */
export async function writePrs(repo: string, prs: readonly FixturePr[] = PR_FIXTURE): Promise<void> {
  const store = storeAt(join(repo, ".forge"));
  for (const [i, p] of prs.entries()) {
    createPr(store, {
      id: p.id,
      now: p.createdAt,
      title: p.title,
      body: p.body ?? "",
      author: p.author,
      baseRefName: p.base,
      headRefName: p.head,
      baseSha: fixtureSha("base", i + 1),
      headSha: fixtureSha("head", i + 1),
      patch: Buffer.from(p.patch),
      isDraft: p.draft === true,
      closes: p.closes ?? [],
      labels: p.labels ?? [],
      assignees: p.assignees ?? [],
      milestone: p.milestone,
    });
    let e = await loadEntity(store, PRS, PR, { id: p.id, archived: false });
    for (const r of p.reviews ?? [])
      addReview(store, e, { id: r.id, author: r.author, state: r.state, now: r.createdAt, body: r.body });
    for (const c of p.comments ?? [])
      addPrComment(store, e, { id: c.id, author: c.author, now: c.createdAt, body: c.body });
    e = updateEntity(PR, e, (d) => {
      if (p.ci) d.ci = p.ci;
      if (p.previousPatchSha256) d.previousPatchSha256 = p.previousPatchSha256;
      if (p.closedAt) Object.assign(d, { state: "closed", closedAt: p.closedAt });
      if (p.mergedAt) Object.assign(d, { state: "merged", mergedAt: p.mergedAt });
    });
    if (p.archived) archiveEntity(store, PRS, e);
  }
}

/** Fixed identity and clock for the fixture's commits, so their ids are the same on every run. */
export const GIT_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: "A U Thor",
  GIT_AUTHOR_EMAIL: "author@example.com",
  GIT_AUTHOR_DATE: "2020-03-01T00:00:00Z",
  GIT_COMMITTER_NAME: "C O Mitter",
  GIT_COMMITTER_EMAIL: "committer@example.com",
  GIT_COMMITTER_DATE: "2020-03-01T00:00:00Z",
};

/** Run git in `dir` with the fixed identity and clock. */
export function fixedGit(dir: string, args: string[]): string {
  return execFileSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", ...GIT_ENV },
  });
}

/**
 * A git history beside the store (which stays untracked): `main` with two
 * files, `topic` two commits ahead (one edit, one new file); `main` checked out.
 */
export function writeHistory(repo: string): void {
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "README.md"), "# demo\n");
  writeFileSync(join(repo, "src", "out.ts"), "export function out(s: string) {\n  write(s);\n}\n");
  fixedGit(repo, ["add", "README.md", "src"]);
  fixedGit(repo, ["commit", "-qm", "Initial commit"]);
  fixedGit(repo, ["checkout", "-qb", "topic"]);
  writeFileSync(
    join(repo, "src", "out.ts"),
    "export async function out(s: string) {\n  if (!write(s)) await drained();\n}\n"
  );
  fixedGit(repo, ["commit", "-qam", "Wait for drain"]);
  mkdirSync(join(repo, "test"));
  writeFileSync(join(repo, "test", "out_test.ts"), 'import test from "ava";\n\ntest("out waits", async () => {});\n');
  fixedGit(repo, ["add", "test"]);
  fixedGit(repo, ["commit", "-qm", "Test the wait"]);
  fixedGit(repo, ["checkout", "-q", "main"]);
}

let template: Promise<string> | undefined;

/** A fresh temp repo with the issue and PR fixtures and the git history (built once per process, then copied). */
export async function prFixtureRepo(): Promise<string> {
  template ??= (async () => {
    const dir = scratch(tempRepo("forge-prfix-"));
    await writeFixture(dir);
    await writePrs(dir);
    writeHistory(dir);
    return dir;
  })();
  const src = await template;
  const dst = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-pr-e2e-"))));
  cpSync(src, dst, { recursive: true });
  return dst;
}
