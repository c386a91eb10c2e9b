import test from "ava";
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HeadRead, readBranchTip, readHead } from "./git_head.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The environment both git and the reader see: none of the caller's GIT_* variables. */
const ENV: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };

function g(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd,
    env: ENV,
    encoding: "utf8",
  });
}

/** What git itself answers: `symbolic-ref --quiet HEAD` and `rev-parse --verify HEAD^{commit}`. */
function gitHead(cwd: string): HeadRead {
  const run = (args: string[]): string | null => {
    const r = spawnSync("git", args, { cwd, env: ENV, encoding: "utf8" });
    return r.status === 0 ? r.stdout.trim() : null;
  };
  return {
    ref: run(["symbolic-ref", "--quiet", "HEAD"]),
    tip: run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]),
  };
}

function gitTip(cwd: string, name: string): string | null {
  const r = spawnSync("git", ["rev-parse", "--verify", "--quiet", `refs/heads/${name}^{commit}`], {
    cwd,
    env: ENV,
    encoding: "utf8",
  });
  return r.status === 0 ? r.stdout.trim() : null;
}

function repo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-head-")));
  made.push(dir);
  g(dir, "init", "-q", "-b", "main");
  return dir;
}

function commit(dir: string, name: string): void {
  writeFileSync(join(dir, name), name);
  g(dir, "add", name);
  g(dir, "commit", "-q", "-m", name);
}

test("readHead and readBranchTip answer as git: unborn, loose, packed, detached, sub-folder", (t) => {
  const dir = repo();
  const same = (where: string, step: string): void => {
    t.deepEqual(readHead(where, ENV), gitHead(where), step);
    for (const b of ["main", "topic", "nope"]) t.is(readBranchTip(where, b, ENV), gitTip(where, b), `${step}: ${b}`);
  };
  same(dir, "unborn");
  t.deepEqual(readHead(dir, ENV), { ref: "refs/heads/main", tip: null });
  commit(dir, "a");
  same(dir, "one loose commit");
  g(dir, "branch", "topic");
  commit(dir, "b");
  same(dir, "two branches");
  // Objects in a pack, refs in packed-refs (read through the pack's index).
  g(dir, "gc", "-q", "--aggressive");
  same(dir, "packed");
  t.not(readHead(dir, ENV)?.tip ?? null, null);
  commit(dir, "c");
  same(dir, "a loose commit over a packed ref");
  g(dir, "checkout", "-q", "--detach", "topic");
  same(dir, "detached");
  t.is(readHead(dir, ENV)?.ref, null);
  g(dir, "checkout", "-q", "main");
  mkdirSync(join(dir, "sub", "deeper"), { recursive: true });
  same(join(dir, "sub", "deeper"), "from a sub-folder");
});

test("readHead leaves git the cases only git can tell", (t) => {
  const dir = repo();
  commit(dir, "a");
  t.truthy(readHead(dir, ENV));
  // Discovery moved by the environment.
  t.is(readHead(dir, { ...ENV, GIT_DIR: join(dir, ".git") }), undefined);
  t.is(readHead(dir, { ...ENV, GIT_CEILING_DIRECTORIES: dir }), undefined);
  t.is(readHead(dir, { ...ENV, GIT_CONFIG_PARAMETERS: "'core.bare'='true'" }), undefined);
  // Author or TLS variables do not move it.
  t.truthy(readHead(dir, { ...ENV, GIT_AUTHOR_NAME: "x", GIT_SSL_CAINFO: "/dev/null" }));
  // A branch that is a symbolic ref, and one at an annotated tag (rev-parse peels it): git answers.
  g(dir, "symbolic-ref", "refs/heads/alias", "refs/heads/main");
  t.is(readBranchTip(dir, "alias", ENV), undefined);
  g(dir, "tag", "-a", "-m", "v", "v1");
  // git refuses to write it; a repository can still hold it.
  writeFileSync(join(dir, ".git", "refs", "heads", "tagged"), g(dir, "rev-parse", "v1"));
  t.is(readBranchTip(dir, "tagged", ENV), undefined);
  t.not(gitTip(dir, "tagged"), null);
  g(dir, "pack-refs", "--all");
  g(dir, "repack", "-q", "-a", "-d");
  t.is(readBranchTip(dir, "tagged", ENV), undefined);
  t.is(readBranchTip(dir, "main", ENV), gitTip(dir, "main"));
  // A linked worktree (its .git is a file), reftable, alternates.
  const wt = join(dir, "..", `${dir.split("/").pop()}-wt`);
  made.push(wt);
  g(dir, "worktree", "add", "-q", "--detach", wt);
  t.is(readHead(wt, ENV), undefined);
  for (const other of ["reftable", join("objects", "info", "alternates")]) {
    const p = join(dir, ".git", other);
    writeFileSync(p, "");
    t.is(readHead(dir, ENV), undefined, other);
    rmSync(p);
  }
  t.truthy(readHead(dir, ENV));
  // Replaced objects (rev-parse reads the replacement), loose or packed.
  const main = g(dir, "rev-parse", "main").trim();
  g(dir, "replace", main, g(dir, "commit-tree", "-m", "other", `${main}^{tree}`).trim());
  t.is(readHead(dir, ENV), undefined);
  g(dir, "pack-refs", "--all");
  rmSync(join(dir, ".git", "refs", "replace"), { recursive: true, force: true });
  t.is(readHead(dir, ENV), undefined);
  g(dir, "replace", "-d", main);
  t.truthy(readHead(dir, ENV));
  // A work tree with a file called HEAD at its top: git takes its .git first, and so does readHead.
  writeFileSync(join(dir, "HEAD"), "");
  t.deepEqual(readHead(dir, ENV), gitHead(dir));
  // A HEAD on the way up from a sub-folder (a bare repository there, for git): git's.
  mkdirSync(join(dir, "bare", "sub"), { recursive: true });
  writeFileSync(join(dir, "bare", "HEAD"), "");
  t.is(readHead(join(dir, "bare", "sub"), ENV), undefined);
  // A HEAD naming a branch no file system can hold (a component over 255 bytes): git's to answer, not an error.
  rmSync(join(dir, "HEAD"));
  writeFileSync(join(dir, ".git", "HEAD"), `ref: refs/heads/${"a".repeat(300)}\n`);
  t.is(readHead(dir, ENV), undefined);
  t.is(readBranchTip(dir, "b".repeat(300), ENV), undefined);
});

// Making a folder another user owns needs root (as in a session here; the clean-clone CI is not root): elsewhere the
// case is skipped, not passed.
(process.getuid?.() === 0 ? test : test.skip)("readHead leaves a repository another user owns to git", (t) => {
  const dir = repo();
  commit(dir, "a");
  t.truthy(readHead(dir, ENV));
  chownSync(join(dir, ".git"), 4242, 4242);
  t.is(readHead(dir, ENV), undefined);
  chownSync(join(dir, ".git"), 0, 0);
  chownSync(dir, 4242, 4242);
  t.is(readHead(dir, ENV), undefined);
});
