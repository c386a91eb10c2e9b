import test from "ava";
import { patchCommits } from "./patch_commits.js";

const PATCH = `From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: "A. U. Thor" <author@example.com>
Date: Sat, 1 Feb 2020 09:00:00 +0000
Subject: [PATCH 1/2] Fix the crash on a very long subject line that git
 folds

It crashed.

Really.
---
 a.txt | 2 +-

diff --git a/a.txt b/a.txt
From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001
From: bob <bob@example.com>
Date: Sat, 1 Feb 2020 10:00:00 +0100
Subject: [PATCH 2/2] Add b

---
`;

test("patchCommits() reads each commit of a format-patch series in gh's shape", (t) => {
  t.deepEqual(patchCommits(PATCH), [
    {
      authoredDate: "2020-02-01T09:00:00Z",
      authors: [{ email: "author@example.com", id: "", login: "", name: "A. U. Thor" }],
      committedDate: "2020-02-01T09:00:00Z",
      messageBody: "It crashed.\n\nReally.",
      messageHeadline: "Fix the crash on a very long subject line that git folds",
      oid: "1".repeat(40),
    },
    {
      authoredDate: "2020-02-01T09:00:00Z",
      authors: [{ email: "bob@example.com", id: "", login: "", name: "bob" }],
      committedDate: "2020-02-01T09:00:00Z",
      messageBody: "",
      messageHeadline: "Add b",
      oid: "2".repeat(40),
    },
  ]);
  t.deepEqual(patchCommits("diff --git a/x b/x\n"), []);
});
