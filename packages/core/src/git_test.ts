import test from "ava";
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { git, gitBytes } from "./git.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

test("gitBytes() keeps stdout byte for byte where git() would decode it", async (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-git-")));
  made.push(dir);
  execFileSync("git", ["init", "-q", dir]);
  const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0x0a]);
  writeFileSync(join(dir, "latin1.txt"), bytes);
  const id = (await git(["hash-object", "-w", "latin1.txt"], { cwd: dir })).stdout.trim();
  const r = await gitBytes(["cat-file", "blob", id], { cwd: dir });
  t.is(r.code, 0);
  t.deepEqual(r.stdout, bytes);
  t.notDeepEqual(Buffer.from((await git(["cat-file", "blob", id], { cwd: dir })).stdout), bytes);
});

test("gitBytes() reports a non-zero exit with stderr, without throwing", async (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-git-")));
  made.push(dir);
  execFileSync("git", ["init", "-q", dir]);
  const r = await gitBytes(["cat-file", "blob", "0000000000000000000000000000000000000000"], { cwd: dir });
  t.not(r.code, 0);
  t.true(r.stderr.length > 0);
});
