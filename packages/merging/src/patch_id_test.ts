import test from "ava";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatFrontmatter, storeAt, toFrontmatter, MERGE_RECORD, atomicWrite, mergeFile } from "@forge/core";
import { patchId } from "./_patch_id.js";
import { findLanded } from "./_landed.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1" };

/** A repo with main and a two-commit topic; returns a git runner. */
function repo(): { dir: string; git: (...a: string[]) => string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-pid-")));
  made.push(dir);
  const git = (...args: string[]): string => execFileSync("git", args, { cwd: dir, encoding: "utf8", env: ENV });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "a");
  git("config", "user.email", "a@x");
  writeFileSync(join(dir, "a.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n");
  git("add", "a.txt");
  git("commit", "-qm", "init");
  return { dir, git };
}

test(
  "patchId() is the same for a re-described and a rebased " + "copy of a commit, and differs for another change",
  async (t) => {
    const { dir, git } = repo();
    git("checkout", "-qb", "t");
    writeFileSync(join(dir, "a.txt"), "1\n2\n3\n4\n5\n6\n7\nEIGHT\n");
    git("commit", "-qam", "first description");
    const p1 = Buffer.from(git("format-patch", "--stdout", "main..t"));
    git("commit", "-q", "--amend", "-m", "a completely different message");
    const p2 = Buffer.from(git("format-patch", "--stdout", "main..t"));
    // Rebased: main gains a line at the top, so the hunk's line numbers move.
    git("checkout", "-q", "main");
    writeFileSync(join(dir, "a.txt"), "0\n1\n2\n3\n4\n5\n6\n7\n8\n");
    git("commit", "-qam", "main moves");
    git("checkout", "-q", "t");
    git("rebase", "-q", "main");
    const p3 = Buffer.from(git("format-patch", "--stdout", "main..t"));
    t.notDeepEqual(p1, p2);
    t.notDeepEqual(p1, p3);
    const id = await patchId(p1, dir, ENV);
    t.regex(id!, /^[0-9a-f]{40}$/);
    t.is(await patchId(p2, dir, ENV), id);
    t.is(await patchId(p3, dir, ENV), id);
    const other = Buffer.from(p1.toString().replace("+EIGHT", "+ocho"));
    t.not(await patchId(other, dir, ENV), id);
  }
);

test("patchId() gives a series one id, the same when re-described", async (t) => {
  const { dir, git } = repo();
  git("checkout", "-qb", "t");
  writeFileSync(join(dir, "a.txt"), "ONE\n2\n3\n4\n5\n6\n7\n8\n");
  git("commit", "-qam", "c1");
  writeFileSync(join(dir, "b.txt"), "new\n");
  git("add", "b.txt");
  git("commit", "-qm", "c2");
  const p1 = Buffer.from(git("format-patch", "--stdout", "main..t"));
  git("-c", "core.editor=true", "commit", "-q", "--amend", "-m", "c2, re-described");
  const p2 = Buffer.from(git("format-patch", "--stdout", "main..t"));
  const id = await patchId(p1, dir, ENV);
  t.regex(id!, /^[0-9a-f]{40}$/);
  t.is(await patchId(p2, dir, ENV), id);
});

test("patchId() is null for text with no diff", async (t) => {
  const { dir } = repo();
  t.is(await patchId(Buffer.from("hello\n"), dir, ENV), null);
});

test("findLanded() counts merged records only, by patchSha256 or patchId", async (t) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-landed-")));
  made.push(root);
  execFileSync("mkdir", ["-p", join(root, ".forge", "merges")]);
  const store = storeAt(join(root, ".forge"));
  const rec = (id: string, verdict: string, sha: string, pid: string): void =>
    atomicWrite(
      mergeFile(store, id),
      formatFrontmatter(
        toFrontmatter(MERGE_RECORD, {
          id,
          pr: "9b8a7c6d-5e4f-4a3b-b2c1-d0e9f8a7b6c5",
          patchSha256: sha,
          patchId: pid,
          baseRefName: "main",
          verdict,
          createdAt: "2026-01-01T00:00:00Z",
          conflicts: [],
          resolved: [],
        }),
        "x\n"
      )
    );
  const A = "a".repeat(64);
  const B = "b".repeat(64);
  rec("11111111-1111-4111-8111-111111111111", "conflict", A, "p1");
  t.is(await findLanded(store, A, "p1"), null, "a conflict record is not a landing");
  rec("22222222-2222-4222-8222-222222222222", "merged", B, "p2");
  t.is((await findLanded(store, B, null))?.by, "patchSha256");
  const byId = await findLanded(store, A, "p2");
  t.is(byId?.by, "patchId");
  t.is(byId?.record, "22222222-2222-4222-8222-222222222222");
  t.is(await findLanded(store, A, "p3"), null);
});
