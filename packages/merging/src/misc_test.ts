import test from "ava";
import { fromEmail, listedConflicts } from "./merge_pr.js";
import { formatMerge } from "./format.js";

test("fromEmail() reads the first From: header's address", (t) => {
  const patch =
    "From 0123 Mon Sep 17 00:00:00 2001\nFrom: Bob B <bob@example.com>\nSubject: x\n\n" +
    "body\nFrom: Eve <eve@evil>\n";
  t.is(fromEmail(Buffer.from(patch)), "bob@example.com");
});

test("fromEmail() is null without a header, or with an address that has spaces or brackets", (t) => {
  t.is(fromEmail(Buffer.from("diff --git a/x b/x\n")), null);
  t.is(fromEmail(Buffer.from("From: Bob <bob @x>\n\n")), null);
  t.is(fromEmail(Buffer.from("Subject: x\n\nFrom: Bob <bob@x.org>\n")), null);
});

test("formatMerge() keeps a conflict on one line whatever the file names hold", (t) => {
  const r = {
    verdict: "conflict",
    pr: { number: 2, id: "x" },
    base: "main",
    commit: null,
    checkout: "untouched",
    conflicts: ["a\nb.txt", "c.txt"],
    failedStep: null,
    ciRun: null,
    record: "12345678-aaaa-4aaa-8aaa-aaaaaaaaaaaa",
    landed: null,
    closedIssues: [],
    patchSha256: "0".repeat(64),
    patchId: null,
    id: "12345678-aaaa-4aaa-8aaa-aaaaaaaaaaaa",
    createdAt: "2026-01-01T00:00:00Z",
    baseRefName: "main",
  } as const;
  t.is(
    formatMerge({ ...r, conflicts: [...r.conflicts], closedIssues: [], resolved: [] }),
    "pull request #2 conflicts with main: a?b.txt c.txt (record 12345678); main unchanged"
  );
});

test("listedConflicts() keeps a record within its budget and lists everything when it fits", (t) => {
  t.deepEqual(listedConflicts(["a", "b"]), ["a", "b"]);
  const many = Array.from({ length: 100 }, (_, i) => `dir/file-${i}.txt`);
  const kept = listedConflicts(many, 200);
  t.deepEqual(kept, many.slice(0, kept.length));
  t.true(kept.length < 100 && kept.length > 0);
});
