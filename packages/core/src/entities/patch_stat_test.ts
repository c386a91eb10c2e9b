import test from "ava";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { patchStat, unquote } from "./patch_stat.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

test("patchStat() counts + and - lines of one hunk", (t) => {
  t.deepEqual(patchStat("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"), {
    files: [{ additions: 1, deletions: 1, path: "x" }],
    additions: 1,
    deletions: 1,
  });
});

test("patchStat() never counts commit-message lines, the --- separator, the diffstat or the signature", (t) => {
  const patch = [
    "From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001",
    "From: a <a@b>",
    "Subject: [PATCH] x",
    "",
    "--- not a header",
    "+ not an addition",
    "- not a deletion",
    "---",
    " x | 2 +-",
    "",
    "diff --git a/x b/x",
    "index 1..2 100644",
    "--- a/x",
    "+++ b/x",
    "@@ -1,2 +1,2 @@",
    " keep",
    "-old",
    "+new",
    "-- ",
    "2.39.5",
    "",
  ].join("\n");
  t.deepEqual(patchStat(patch), { files: [{ additions: 1, deletions: 1, path: "x" }], additions: 1, deletions: 1 });
});

test("patchStat() ends a hunk by its counts: a later '-- ' line or '+++' in the next mail is not a change", (t) => {
  const mail = (sha: string, body: string[]) =>
    [`From ${sha} Mon Sep 17 00:00:00 2001`, "Subject: [PATCH] m", "", ...body].join("\n");
  const patch =
    mail("1".repeat(40), ["diff --git a/x b/x", "--- a/x", "+++ b/x", "@@ -0,0 +1 @@", "+a", "-- ", "2.39.5", "", ""]) +
    mail("2".repeat(40), [
      "+++ still a message",
      "---",
      "",
      "diff --git a/x b/x",
      "--- a/x",
      "+++ b/x",
      "@@ -1 +1,2 @@",
      " a",
      "+b",
      "\\ No newline at end of file",
      "",
    ]);
  t.deepEqual(patchStat(patch), { files: [{ additions: 2, deletions: 0, path: "x" }], additions: 2, deletions: 0 });
});

test("patchStat() takes new, deleted, renamed and quoted paths from the right header", (t) => {
  const patch = [
    "diff --git a/new.txt b/new.txt",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/new.txt",
    "@@ -0,0 +1,2 @@",
    "+1",
    "+2",
    "diff --git a/gone.txt b/gone.txt",
    "deleted file mode 100644",
    "--- a/gone.txt",
    "+++ /dev/null",
    "@@ -1 +0,0 @@",
    "-1",
    "diff --git a/sp ace.txt b/sp ace2.txt",
    "similarity index 50%",
    "rename from sp ace.txt",
    "rename to sp ace2.txt",
    "--- a/sp ace.txt\t",
    "+++ b/sp ace2.txt\t",
    "@@ -1 +1,2 @@",
    " a",
    "+b",
    'diff --git "a/\\303\\251.txt" "b/\\303\\251.txt"',
    '--- "a/\\303\\251.txt"',
    '+++ "b/\\303\\251.txt"',
    "@@ -1 +1 @@",
    "-x",
    "+y",
    "diff --git a/mode only b/mode only",
    "old mode 100644",
    "new mode 100755",
    "diff --git a/img.png b/img.png",
    "new file mode 100644",
    "index 0000000..1111111",
    "GIT binary patch",
    "literal 3",
    "KcmZ>9&j0`a",
    "",
    "literal 0",
    "HcmV?d00001",
    "",
  ].join("\n");
  t.deepEqual(patchStat(patch).files, [
    { additions: 0, deletions: 1, path: "gone.txt" },
    { additions: 0, deletions: 0, path: "img.png" },
    { additions: 0, deletions: 0, path: "mode only" },
    { additions: 2, deletions: 0, path: "new.txt" },
    { additions: 1, deletions: 0, path: "sp ace2.txt" },
    { additions: 1, deletions: 1, path: "é.txt" },
  ]);
});

test("patchStat() of an empty text is no files", (t) => {
  t.deepEqual(patchStat(""), { files: [], additions: 0, deletions: 0 });
});

test("unquote() decodes git's C-style quoting and leaves plain paths alone", (t) => {
  t.is(unquote('"a/\\303\\251 \\"q\\" \\\\ \\t"'), 'a/é "q" \\ \t');
  t.is(unquote("plain path"), "plain path");
});

/** A git repo with a few commits of every kind; returns format-patch output and per-commit numstat sums. */
function realPatch(): { patch: string; numstat: Map<string, [number, number]> } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-stat-")));
  made.push(dir);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd: dir, encoding: "utf8" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "t");
  git("config", "user.email", "t@e");
  writeFileSync(join(dir, "a.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
  writeFileSync(join(dir, "old name.txt"), "same\nlines\nhere\n");
  writeFileSync(join(dir, "gone.txt"), "x\ny\n");
  git("add", ".");
  git("commit", "-qm", "base");
  git("checkout", "-qb", "topic");
  writeFileSync(join(dir, "a.txt"), "1\nTWO\n3\n4\n5\n6\n7\n8\nNINE\n10\n11");
  writeFileSync(join(dir, "é ü.txt"), "unicode\n");
  git("add", ".");
  git("commit", "-qm", "first\n\n--- a/a.txt\n+++ b/a.txt\n+ looks like a change\n- and so does this");
  git("mv", "old name.txt", "new name.txt");
  writeFileSync(join(dir, "new name.txt"), "same\nlines\nhere\nmore\n");
  unlinkSync(join(dir, "gone.txt"));
  chmodSync(join(dir, "a.txt"), 0o755);
  writeFileSync(join(dir, "bin.dat"), Buffer.from([0, 1, 2, 255, 0, 3]));
  git("add", "-A");
  git("commit", "-qm", "second");
  writeFileSync(join(dir, "a.txt"), "1\nTWO\n3\n\n5\n6\n7\n8\nNINE\n10\n11\n");
  git("commit", "-qam", "third");
  const patch = git("format-patch", "--stdout", "main..topic");
  const numstat = new Map<string, [number, number]>();
  const text = git("-c", "core.quotePath=false", "log", "--numstat", "-M", "--format=", "main..topic");
  for (const row of text.split("\n").filter(Boolean)) {
    const [a, d, ...rest] = row.split("\t");
    let path = rest.join("\t");
    const arrow = /^(.*?)\{?([^{}]*) => ([^{}]*)\}?(.*)$/.exec(path);
    if (path.includes(" => ") && arrow)
      path = path.includes("{") ? `${arrow[1]}${arrow[3]}${arrow[4]}` : path.split(" => ")[1]!;
    const prev = numstat.get(path) ?? [0, 0];
    numstat.set(path, [prev[0] + (a === "-" ? 0 : Number(a)), prev[1] + (d === "-" ? 0 : Number(d))]);
  }
  return { patch, numstat };
}

test("patchStat() of real format-patch output agrees with git log --numstat summed per path", (t) => {
  const { patch, numstat } = realPatch();
  const got = patchStat(patch);
  t.deepEqual(new Map(got.files.map((f) => [f.path, [f.additions, f.deletions] as [number, number]])), numstat);
  t.is(
    got.additions,
    [...numstat.values()].reduce((s, [a]) => s + a, 0)
  );
  t.is(
    got.deletions,
    [...numstat.values()].reduce((s, [, d]) => s + d, 0)
  );
  t.true(got.files.some((f) => f.path === "é ü.txt"));
  t.true(got.files.some((f) => f.path === "new name.txt"));
});
