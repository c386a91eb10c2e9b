import test from "ava";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPr, storeAt, writeStoreVersion } from "@forge/core";
import type { CiOutcome, RunCi } from "./_ci.js";
import { mergePr } from "./merge_pr.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", FORGE_AUTHOR: "alice" };
const NOW = "2026-01-02T03:04:05Z";

/** A repo with a store, a.txt on main, and one open PR (b.txt added on `topic`); main checked out. */
function setup(): { dir: string; git: (...a: string[]) => string; prId: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "forge-mergeunit-")));
  made.push(dir);
  const git = (...args: string[]): string =>
    execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd: dir, encoding: "utf8", env: ENV });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "alice");
  git("config", "user.email", "alice@example.com");
  mkdirSync(join(dir, ".forge"));
  writeStoreVersion(join(dir, ".forge"));
  writeFileSync(join(dir, "a.txt"), "1\n2\n3\n");
  git("add", "a.txt");
  git("commit", "-qm", "init");
  const base = git("rev-parse", "HEAD").trim();
  git("checkout", "-qb", "topic");
  writeFileSync(join(dir, "b.txt"), "b\n");
  git("add", "b.txt");
  git("commit", "-qm", "add b");
  const head = git("rev-parse", "HEAD").trim();
  const patch = execFileSync("git", ["format-patch", "--stdout", "--no-signature", `${base}..${head}`], {
    cwd: dir,
    env: ENV,
  });
  git("checkout", "-q", "main");
  const prId = createPr(storeAt(join(dir, ".forge")), {
    title: "Add b",
    body: "",
    author: "bob",
    baseRefName: "main",
    headRefName: "topic",
    baseSha: base,
    headSha: head,
    patch,
    isDraft: false,
    closes: [],
    labels: [],
    assignees: [],
    now: NOW,
  });
  return { dir, git, prId };
}

const green: RunCi = async () => ({ verdict: "pass", failedStep: null, run: null });
const ids = (): (() => string) => {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
};

function records(dir: string): string[] {
  const d = join(dir, ".forge", "merges");
  return existsSync(d) ? readdirSync(d).filter((n) => n.endsWith(".md")) : [];
}

test(
  "mergePr() merges with an injected green CI: author is " + "the PR's, the record id and time are the injected ones",
  async (t) => {
    const { dir, git, prId } = setup();
    const old = git("rev-parse", "main").trim();
    let seen: { dir: string; baseSha: string; pr: string } | undefined;
    const ci: RunCi = async (d, req) => {
      seen = { dir: d, baseSha: req.baseSha, pr: req.pr.id };
      t.true(existsSync(join(d, "b.txt")), "CI runs on the tree with the patch applied");
      return { verdict: "pass", failedStep: null, run: null };
    };
    const r = await mergePr({ cwd: dir, env: ENV, runCi: ci, now: () => NOW, newId: ids() }, { ref: "1" });
    t.is(r.verdict, "merged");
    t.is(r.record, "00000000-0000-4000-8000-000000000001");
    t.is(r.checkout, "updated");
    t.deepEqual(seen && { baseSha: seen.baseSha, pr: seen.pr }, { baseSha: old, pr: prId });
    t.false(existsSync(seen!.dir), "the worktree is gone");
    // The name is the PR's author; the email is the patch's first From: header's.
    t.is(git("log", "-1", "--format=%an <%ae>").trim(), "bob <alice@example.com>");
  }
);

test("mergePr() with red CI writes a ci-failed record naming the step and leaves main alone", async (t) => {
  const { dir, git } = setup();
  const old = git("rev-parse", "main").trim();
  const red: RunCi = async (): Promise<CiOutcome> => ({ verdict: "fail", failedStep: "20-test", run: "x" });
  const r = await mergePr({ cwd: dir, env: ENV, runCi: red, now: () => NOW, newId: ids() }, { ref: "1" });
  t.is(r.verdict, "ci-failed");
  t.is(r.failedStep, "20-test");
  t.is(git("rev-parse", "main").trim(), old);
  t.deepEqual(records(dir), ["00000000-0000-4000-8000-000000000001.md"]);
});

test("mergePr() when CI cannot run (throws): no record, main unchanged, no worktree left", async (t) => {
  const { dir, git } = setup();
  const old = git("rev-parse", "main").trim();
  const broken: RunCi = async () => {
    throw new Error("no docker engine");
  };
  await t.throwsAsync(mergePr({ cwd: dir, env: ENV, runCi: broken }, { ref: "1" }), { message: "no docker engine" });
  t.is(git("rev-parse", "main").trim(), old);
  t.deepEqual(records(dir), []);
  t.is(
    git("worktree", "list", "--porcelain")
      .split("\n")
      .filter((l) => l.startsWith("worktree ")).length,
    1
  );
});

test("mergePr() fails cleanly when main moves while CI runs (on main: the checkout is not touched)", async (t) => {
  const { dir, git } = setup();
  const racer: RunCi = async () => {
    writeFileSync(join(dir, "c.txt"), "c\n");
    git("add", "c.txt");
    git("commit", "-qm", "someone else");
    return { verdict: "pass", failedStep: null, run: null };
  };
  const moved = mergePr({ cwd: dir, env: ENV, runCi: racer }, { ref: "1" });
  await t.throwsAsync(moved, { message: /main moved while merging/ });
  t.is(git("log", "-1", "--format=%s", "main").trim(), "someone else");
  t.false(existsSync(join(dir, "b.txt")));
  t.deepEqual(records(dir), []);
});

test(
  "mergePr() fails cleanly when main moves while CI runs " + "(another branch checked out: compare-and-swap)",
  async (t) => {
    const { dir, git } = setup();
    git("checkout", "-q", "-b", "side");
    const racer: RunCi = async () => {
      git("update-ref", "refs/heads/main", git("commit-tree", "-p", "main", "-m", "elsewhere", "main^{tree}").trim());
      return { verdict: "pass", failedStep: null, run: null };
    };
    await t.throwsAsync(mergePr({ cwd: dir, env: ENV, runCi: racer }, { ref: "1" }), {
      message: /main moved while merging/,
    });
    t.is(git("log", "-1", "--format=%s", "main").trim(), "elsewhere");
    t.deepEqual(records(dir), []);
  }
);

test(
  "mergePr() refuses when main is checked out in another worktree " +
    "(moving it would show that worktree the merge reverted)",
  async (t) => {
    const { dir, git } = setup();
    git("checkout", "-q", "-b", "side");
    const other = realpathSync(mkdtempSync(join(tmpdir(), "forge-otherwt-")));
    made.push(other);
    git("worktree", "add", "-q", join(other, "wt"), "main");
    const old = git("rev-parse", "main").trim();
    await t.throwsAsync(mergePr({ cwd: dir, env: ENV, runCi: green }, { ref: "1" }), {
      message: /main is checked out in another worktree/,
    });
    t.is(git("rev-parse", "main").trim(), old);
  }
);

test(
  "mergePr() refuses when an untracked file in the checkout would " +
    "be overwritten: base unchanged, no record, the file kept",
  async (t) => {
    const { dir, git } = setup();
    writeFileSync(join(dir, "b.txt"), "mine, untracked\n");
    const old = git("rev-parse", "main").trim();
    let ran = false;
    const ci: RunCi = async () => {
      ran = true;
      return { verdict: "pass", failedStep: null, run: null };
    };
    await t.throwsAsync(mergePr({ cwd: dir, env: ENV, runCi: ci }, { ref: "1" }), {
      message:
        "the checkout has an untracked 'b.txt' where the merge adds a file; " +
        "move it away and run forge-merge again (nothing was merged)",
    });
    t.false(ran, "refused before CI");
    t.is(git("rev-parse", "main").trim(), old);
    t.deepEqual(records(dir), []);
    t.is(readFileSync(join(dir, "b.txt"), "utf8"), "mine, untracked\n");
  }
);

test("mergePr() says which base is missing", async (t) => {
  const { dir, git } = setup();
  git("branch", "-m", "main", "trunk");
  await t.throwsAsync(mergePr({ cwd: dir, env: ENV, runCi: green }, { ref: "1" }), {
    message: "no base branch 'main' in this repository",
  });
});

test("mergePr() fails closed on an unreadable merge record (a replay cannot be ruled out)", async (t) => {
  const { dir, git } = setup();
  mkdirSync(join(dir, ".forge", "merges"), { recursive: true });
  const bad = join(dir, ".forge", "merges", "11111111-1111-4111-8111-111111111111.md");
  writeFileSync(bad, "---\nverdict: merged\n---\n");
  const old = git("rev-parse", "main").trim();
  await t.throwsAsync(mergePr({ cwd: dir, env: ENV, runCi: green }, { ref: "1" }), {
    message: /merges\/11111111-1111-4111-8111-111111111111\.md: field 'id': missing/,
  });
  t.is(git("rev-parse", "main").trim(), old);
});
