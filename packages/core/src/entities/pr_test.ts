import test from "ava";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entityFile, patchFile, storeAt, type Store } from "../store/store.js";
import { PRS } from "./folder_entity.js";
import { loadEntity } from "./load.js";
import { patchStat } from "./patch_stat.js";
import {
  addPrComment,
  addReview,
  createPr,
  loadPrComments,
  loadReviews,
  patchSha256,
  PR_FIELDS,
  prToJson,
  readPatch,
  replacePatch,
  statusCheckRollup,
  type NewPr,
} from "./pr.js";
import { PR } from "./schema.js";

const ID = "9b8a7c6d-5e4f-4a3b-b2c1-d0e9f8a7b6c5";
const ISSUE_ID = "3f2a8c1e-5b7d-4e9a-8c6f-1d2e3b4a5c6d";
const PATCH = Buffer.from(
  "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\ndiff --git a/x " +
    "b/x\n--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n-a\n+b\n+\xe9\n"
);

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function store(): Store {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-pr-")));
  made.push(root);
  mkdirSync(join(root, ".forge"));
  return storeAt(join(root, ".forge"));
}

const input = (over: Partial<NewPr> = {}): NewPr => ({
  id: ID,
  now: "2026-01-07T11:20:45Z",
  title: "Fix #12: drain",
  body: "Closes #12.",
  author: "bob",
  baseRefName: "main",
  headRefName: "fix/drain",
  baseSha: "a".repeat(40),
  headSha: "b".repeat(40),
  patch: PATCH,
  isDraft: false,
  closes: [ISSUE_ID, ISSUE_ID],
  labels: ["bug"],
  assignees: [],
  ...over,
});
const ctx = { labels: new Map(), milestones: new Map(), issueNumbers: new Map([[ISSUE_ID, 12]]) };
const ref = { id: ID, archived: false };

test("createPr() writes pr.md in schema order and patch.diff byte for byte, with its sha256", async (t) => {
  const s = store();
  createPr(s, input());
  t.deepEqual(readFileSync(patchFile(s, PRS, ID)), PATCH);
  t.is(
    readFileSync(entityFile(s, PRS, ID), "utf8"),
    [
      "---",
      'title: "Fix #12: drain"',
      `id: ${ID}`,
      "state: open",
      "isDraft: false",
      "author: bob",
      "baseRefName: main",
      "headRefName: fix/drain",
      `baseSha: ${"a".repeat(40)}`,
      `headSha: ${"b".repeat(40)}`,
      `patchSha256: ${patchSha256(PATCH)}`,
      "previousPatchSha256:",
      'createdAt: "2026-01-07T11:20:45Z"',
      "closes:",
      `  - ${ISSUE_ID}`,
      "labels:",
      "  - bug",
      "assignees:",
      "---",
      "Closes #12.",
      "",
    ].join("\n")
  );
  const e = await loadEntity(s, PRS, PR, ref);
  t.deepEqual(readPatch(s, e), PATCH);
});

test("createPr() refuses an empty patch and a two-line title, writing nothing", (t) => {
  const s = store();
  t.throws(() => createPr(s, input({ patch: Buffer.alloc(0) })), { message: "the patch is empty" });
  t.throws(() => createPr(s, input({ title: "a\nb" })), { message: "title must be one line" });
  t.throws(() => readFileSync(entityFile(s, PRS, ID)));
});

test("prToJson() gives gh's shape with sorted keys; parts are added when given", async (t) => {
  const s = store();
  createPr(s, input());
  const e = await loadEntity(s, PRS, PR, ref);
  const j = prToJson(e, 3, ctx);
  const parted = [
    "additions",
    "changedFiles",
    "comments",
    "commits",
    "deletions",
    "files",
    "latestReviews",
    "mergeable",
    "mergeCommit",
    "mergeStateStatus",
    "reviewDecision",
    "reviewRequests",
    "reviews",
  ];
  t.deepEqual(
    Object.keys(j),
    PR_FIELDS.filter((f) => !parted.includes(f))
  );
  t.like(j, {
    number: 3,
    state: "OPEN",
    closed: false,
    closedAt: null,
    mergedAt: null,
    isDraft: false,
    ci: null,
    statusCheckRollup: [],
    baseRefOid: "a".repeat(40),
    headRefOid: "b".repeat(40),
    closingIssuesReferences: [{ id: ISSUE_ID, number: 12 }],
    labels: [{ name: "bug", color: "", description: "" }],
    body: "Closes #12.",
    updatedAt: "2026-01-07T11:20:45Z",
  });
  const full = prToJson(e, 3, ctx, {
    reviews: [],
    comments: [],
    stat: patchStat(PATCH.toString("utf8")),
    commits: [],
    mergeCommit: null,
    merge: { mergeable: "MERGEABLE", behind: false },
  });
  t.deepEqual(Object.keys(full), [...PR_FIELDS]);
  t.like(full, {
    mergeable: "MERGEABLE",
    mergeStateStatus: "CLEAN",
    reviewDecision: "",
    reviewRequests: [],
    latestReviews: [],
    mergeCommit: null,
  });
  t.like(full, { additions: 2, deletions: 1, changedFiles: 1, files: [{ path: "x", additions: 2, deletions: 1 }] });
});

test("prToJson() of a merged PR: MERGED, closed, closedAt = mergedAt, updatedAt the latest stamp", async (t) => {
  const s = store();
  createPr(s, input());
  writeFileSync(
    entityFile(s, PRS, ID),
    readFileSync(entityFile(s, PRS, ID), "utf8").replace(
      "state: open\n",
      'state: merged\nmergedAt: "2026-01-09T00:00:00Z"\n'
    )
  );
  const e = await loadEntity(s, PRS, PR, ref);
  t.like(prToJson(e, 1, ctx), {
    state: "MERGED",
    closed: true,
    closedAt: "2026-01-09T00:00:00Z",
    mergedAt: "2026-01-09T00:00:00Z",
    updatedAt: "2026-01-09T00:00:00Z",
  });
});

test("statusCheckRollup() maps each ci verdict as spec/schema.md says", (t) => {
  t.deepEqual(statusCheckRollup(null), []);
  t.deepEqual(statusCheckRollup("pass"), [
    { __typename: "CheckRun", conclusion: "SUCCESS", name: "ci", status: "COMPLETED" },
  ]);
  t.like(statusCheckRollup("fail")[0], { status: "COMPLETED", conclusion: "FAILURE" });
  t.like(statusCheckRollup("cancelled")[0], { status: "COMPLETED", conclusion: "CANCELLED" });
  t.like(statusCheckRollup("running")[0], { status: "IN_PROGRESS", conclusion: "" });
});

test("replacePatch() rewrites patch.diff, records the old digest, clears ci", async (t) => {
  const s = store();
  createPr(s, input());
  const path = entityFile(s, PRS, ID);
  writeFileSync(path, readFileSync(path, "utf8").replace('createdAt: "', 'ci: fail\ncreatedAt: "'));
  const e = await loadEntity(s, PRS, PR, ref);
  t.is(e.data.ci, "fail");
  const next = Buffer.from(PATCH.toString("latin1") + "+more\n", "latin1");
  const u = replacePatch(s, e, { bytes: next, baseSha: "c".repeat(40), headSha: "d".repeat(40) });
  t.deepEqual(readFileSync(patchFile(s, PRS, ID)), next);
  const again = await loadEntity(s, PRS, PR, ref);
  t.deepEqual(again.data, u.data);
  t.like(again.data, {
    baseSha: "c".repeat(40),
    headSha: "d".repeat(40),
    patchSha256: patchSha256(next),
    previousPatchSha256: [patchSha256(PATCH)],
  });
  t.false("ci" in again.data);
});

test("readPatch() refuses a patch.diff that is not the recorded patch", async (t) => {
  const s = store();
  createPr(s, input());
  writeFileSync(patchFile(s, PRS, ID), "tampered\n");
  const e = await loadEntity(s, PRS, PR, ref);
  t.throws(() => readPatch(s, e), { message: `.forge/prs/${ID}/patch.diff: does not match the PR's patchSha256` });
});

test(
  "addReview() and addPrComment() append files that load " + "oldest first; a non-approving review needs a body",
  async (t) => {
    const s = store();
    createPr(s, input());
    const e = await loadEntity(s, PRS, PR, ref);
    const r2 = addReview(s, e, {
      state: "APPROVED",
      body: "",
      author: "carol",
      now: "2026-01-08T00:00:00Z",
      id: "2e4f6a8c-1b3d-4f5a-a7c9-e1b3d5f7a9c2",
    });
    const r1 = addReview(s, e, {
      state: "CHANGES_REQUESTED",
      body: "tests?",
      author: "alice",
      now: "2026-01-07T12:00:00Z",
      id: "1e4f6a8c-1b3d-4f5a-a7c9-e1b3d5f7a9c2",
    });
    t.throws(() => addReview(s, e, { state: "COMMENTED", body: " ", author: "a", now: "2026-01-08T00:00:00Z" }), {
      message: "this review needs a body",
    });
    t.deepEqual(await loadReviews(s, e), [r1, r2]);
    t.deepEqual(r1, {
      author: { login: "alice" },
      body: "tests?",
      id: "1e4f6a8c-1b3d-4f5a-a7c9-e1b3d5f7a9c2",
      state: "CHANGES_REQUESTED",
      submittedAt: "2026-01-07T12:00:00Z",
    });
    const c = addPrComment(s, e, { body: "hi\n", author: "bob", now: "2026-01-08T00:00:00Z" });
    t.deepEqual(await loadPrComments(s, e), [c]);
    t.is(c.body, "hi");
  }
);

test("reviews and comments made in the same second read back in the order they were made (issue 14)", async (t) => {
  const s = store();
  createPr(s, input());
  const e = await loadEntity(s, PRS, PR, ref);
  const now = "2026-01-08T00:00:00Z";
  const reviews = [
    "COMMENTED",
    "CHANGES_REQUESTED",
    "COMMENTED",
    "APPROVED",
    "COMMENTED",
    "CHANGES_REQUESTED",
    "COMMENTED",
    "APPROVED",
  ] as const;
  const made = reviews.map((state, i) => addReview(s, e, { state, body: `r${i + 1}`, author: "carol", now }).id);
  t.deepEqual(
    (await loadReviews(s, e)).map((r) => r.body),
    reviews.map((_, i) => `r${i + 1}`)
  );
  t.deepEqual(
    (await loadReviews(s, e)).map((r) => r.id),
    made
  );
  const comments = Array.from(
    { length: 8 },
    (_, i) => addPrComment(s, e, { body: `c${i + 1}`, author: "bob", now }).body
  );
  t.deepEqual(
    (await loadPrComments(s, e)).map((c) => c.body),
    comments
  );
  // A record of another second does not push the next id up.
  const later = addPrComment(s, e, { body: "next second", author: "bob", now: "2026-01-08T00:00:01Z" });
  t.is((await loadPrComments(s, e)).at(-1)!.id, later.id);
});
