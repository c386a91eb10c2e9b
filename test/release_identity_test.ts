/**
 * Release identity, activation and rollback, end to end: `verify` fails
 * (exit 1, naming what) when the tag moved, the file was edited or an
 * artifact differs; `activate` installs a verified release as
 * `DIR/releases/<tag>/`, switches `DIR/current` atomically, runs the check
 * and switches back when it fails; `rollback` walks back; a kill at any
 * moment leaves `current` on the old or the new release; a tampered
 * release is never activated.
 */
import test, { type ExecutionContext } from "ava";
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { mkdtempSync } from "node:fs";
import { assertOneLineError, lines } from "./lib/hostile.js";
import { baseEnv, BIN, git, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const BUILD = `#!/bin/sh
set -e
mkdir -p "$OUT/bin"
cp src/app.sh "$OUT/bin/app"
chmod +x "$OUT/bin/app"
printf '%s\\n' "$FORGE_RELEASE_TAG" > "$OUT/VERSION"
`;

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

function commit(dir: string, msg: string): string {
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "--no-verify", "-m", msg]);
  return git(dir, ["rev-parse", "HEAD"]).trim();
}

/** A repo with releases v1 and v2 (different app code), both created; returns its path. */
async function twoReleases(t: ExecutionContext): Promise<string> {
  const dir = scratch(tempRepo("forge-relid-"));
  write(dir, { "src/app.sh": "#!/bin/sh\necho app v1\n", ".forge/releases/build/10-build": BUILD });
  chmodSync(join(dir, ".forge/releases/build/10-build"), 0o755);
  commit(dir, "v1");
  t.is((await rel(dir, ["create", "v1"])).code, 0);
  write(dir, { "src/app.sh": "#!/bin/sh\necho app v2\n" });
  commit(dir, "v2");
  t.is((await rel(dir, ["create", "v2"])).code, 0);
  return dir;
}

function rel(dir: string, args: string[]) {
  return run("forge-release", args, { cwd: dir });
}

function target(): string {
  return join(scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-target-")))), "app");
}

/** The tag DIR/current points at (and it must resolve to an installed folder), or undefined. */
function currentOf(dir: string): string | undefined {
  const cur = join(dir, "current");
  if (!existsSync(cur) && !isLink(cur)) return undefined;
  const link = readlinkSync(cur);
  if (!lstatSync(join(dir, link)).isDirectory()) throw new Error(`current → ${link} does not resolve`);
  return link.replace(/^releases\//, "");
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function activations(dir: string): Array<Record<string, string>> {
  const d = join(dir, ".forge", "releases", "activations");
  if (!existsSync(d)) return [];
  // A kill between a record's temp file and its rename leaves a stray `.<name>.<pid>.<hex>.tmp` (atomicWrite):
  // not a record, and forge-release reads none.
  return readdirSync(d)
    .filter((n) => !n.startsWith("."))
    .sort()
    .map((n) =>
      Object.fromEntries(
        readFileSync(join(d, n), "utf8")
          .split("\n")
          .filter((l) => /^[a-zA-Z]+: /.test(l))
          .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2).replace(/^"|"$/g, "")])
      )
    );
}

// --- verify: identity ---

test("verify fails, naming it, when the tag moved to another commit", async (t) => {
  const dir = await twoReleases(t);
  t.is((await rel(dir, ["verify", "v1"])).code, 0);
  git(dir, ["tag", "-f", "v1", "HEAD"]);
  assertOneLineError(t, await rel(dir, ["verify", "v1"]), "forge-release verify", [
    /v1: tag v1 moved: it points at [0-9a-f]{12}, the release records [0-9a-f]{12}/,
  ]);
  git(dir, ["tag", "-d", "v1"]);
  assertOneLineError(t, await rel(dir, ["verify", "v1"]), "forge-release verify", ["v1: tag v1 is missing"]);
});

test(
  "verify fails when the release file was edited: the " + "commit, the notes, an asset's digest, or the digest removed",
  async (t) => {
    const dir = await twoReleases(t);
    const file = join(dir, ".forge", "releases", "v1.md");
    const orig = readFileSync(file, "utf8");
    const v2commit = git(dir, ["rev-parse", "v2^{commit}"]).trim();
    const v1commit = git(dir, ["rev-parse", "v1^{commit}"]).trim();
    // The commit edited to v2's and the tag moved with it: only the digest can tell.
    writeFileSync(file, orig.replace(v1commit, v2commit));
    git(dir, ["tag", "-f", "v1", v2commit]);
    assertOneLineError(t, await rel(dir, ["verify", "v1"]), "forge-release verify", [
      "v1: .forge/releases/v1.md was edited: its digest is",
    ]);
    git(dir, ["tag", "-f", "v1", v1commit]);
    writeFileSync(file, orig.replace(/\n---\n/, "\n---\nnew notes\n"));
    assertOneLineError(t, await rel(dir, ["verify", "v1"]), "forge-release verify", ["was edited"]);
    writeFileSync(file, orig.replace(/sha256: "?[0-9a-f]{64}"?/, `sha256: "${"0".repeat(64)}"`));
    assertOneLineError(t, await rel(dir, ["verify", "v1"]), "forge-release verify", ["was edited"]);
    writeFileSync(file, orig.replace(/^digest: .*\n/m, ""));
    assertOneLineError(t, await rel(dir, ["verify", "v1"]), "forge-release verify", ["has no digest"]);
    writeFileSync(file, orig);
    t.is((await rel(dir, ["verify", "v1"])).code, 0, "restored");
  }
);

// --- activate and rollback ---

test(
  "activate installs releases/<tag>/ and switches current; a failing check switches back, exit 1; rollback walks " +
    "back; each is recorded",
  async (t) => {
    const dir = await twoReleases(t);
    const to = target();
    const a1 = await rel(dir, ["activate", "v1", "--to", to, "--check", "bin/app", "--json"]);
    t.is(a1.code, 0, a1.stderr);
    t.like(jsonl(a1.stdout)[0], {
      action: "activate",
      tag: "v1",
      previous: null,
      outcome: "active",
      checkExit: 0,
      check: "bin/app",
      dir: realpathSync(dirname(to)) + "/app",
    });
    t.is(currentOf(to), "v1");
    t.is(readFileSync(join(to, "current", "VERSION"), "utf8"), "v1\n");
    t.regex(a1.stderr, /app v1/, "the check's output is on stderr");

    // A check that fails: current goes back to v1, the command says why, exit 1.
    const bad = join(dirname(to), "bad-check");
    writeFileSync(bad, '#!/bin/sh\ntest "$(cat VERSION)" = v1 || { echo "v2 is broken" >&2; exit 3; }\n');
    chmodSync(bad, 0o755);
    const a2 = await rel(dir, ["activate", "v2", "--to", to, "--check", bad]);
    t.is(a2.code, 1);
    t.is(lines(a2.stderr).at(-1), `forge-release activate: v2: check '${bad}' failed (exit 3); current is back on v1`);
    t.is(currentOf(to), "v1", "a failing check leaves current on the previous release");
    t.true(existsSync(join(to, "releases", "v2", "bin", "app")), "v2 stays installed");

    t.is((await rel(dir, ["activate", "v2", "--to", to, "--check", "bin/app"])).code, 0);
    t.is(currentOf(to), "v2");
    const rb = await rel(dir, ["rollback", "--to", to, "--json", "action,tag,previous,outcome"]);
    t.is(rb.code, 0, rb.stderr);
    t.deepEqual(jsonl(rb.stdout), [{ action: "rollback", outcome: "active", previous: "v2", tag: "v1" }]);
    t.is(currentOf(to), "v1");
    assertOneLineError(t, await rel(dir, ["rollback", "--to", to]), "forge-release rollback", [
      "v1 was the first release activated",
      "nothing to roll back to",
    ]);
    t.is(currentOf(to), "v1");

    t.deepEqual(
      activations(dir).map((r) => [r.action, r.tag, r.previous ?? "-", r.outcome]),
      [
        ["activate", "v1", "-", "active"],
        ["activate", "v2", "v1", "check-failed"],
        ["activate", "v2", "v1", "active"],
        ["rollback", "v1", "v2", "active"],
      ]
    );
  }
);

test("a release that fails verify is never activated: a changed artifact, a moved tag; current stays", async (t) => {
  const dir = await twoReleases(t);
  const to = target();
  t.is((await rel(dir, ["activate", "v1", "--to", to])).code, 0);
  writeFileSync(join(dir, ".forge", "releases", "out", "v2", "VERSION"), "evil\n");
  assertOneLineError(t, await rel(dir, ["activate", "v2", "--to", to]), "forge-release activate", [
    "v2: asset 'VERSION' does not match",
  ]);
  t.is(currentOf(to), "v1");
  t.false(existsSync(join(to, "releases", "v2")), "nothing installed");
  writeFileSync(join(dir, ".forge", "releases", "out", "v2", "VERSION"), "v2\n");
  git(dir, ["tag", "-f", "v2", "v1"]);
  assertOneLineError(t, await rel(dir, ["activate", "v2", "--to", to]), "forge-release activate", ["tag v2 moved"]);
  t.is(currentOf(to), "v1");
  t.is(activations(dir).length, 1, "refusals activate nothing and record nothing");
  // An installed copy that was changed afterwards is refused too (never overwritten, never activated).
  git(dir, ["tag", "-f", "v2", git(dir, ["rev-parse", "HEAD"]).trim()]);
  t.is((await rel(dir, ["activate", "v2", "--to", to])).code, 0);
  t.is((await rel(dir, ["rollback", "--to", to])).code, 0);
  writeFileSync(join(to, "releases", "v2", "VERSION"), "tampered\n");
  assertOneLineError(t, await rel(dir, ["activate", "v2", "--to", to]), "forge-release activate", [
    "v2: asset 'VERSION' does not match",
  ]);
  t.is(currentOf(to), "v1");
});

test(
  "a kill during activation leaves current on the old or the new release, never missing; the next activation " +
    "takes over the stale lock",
  async (t) => {
    const dir = await twoReleases(t);
    const to = target();
    t.is((await rel(dir, ["activate", "v1", "--to", to])).code, 0);
    const marks = dirname(to);
    // Killed while its check runs (the check says so by its ready file): current is already on v2.
    const slow = join(marks, "slow-check");
    writeFileSync(slow, `#!/bin/sh\ntouch "${marks}/checking"\nexec sleep 30\n`);
    chmodSync(slow, 0o755);
    const child = spawn(join(BIN, "forge-release"), ["activate", "v2", "--to", to, "--check", slow], {
      cwd: dir,
      env: baseEnv() as NodeJS.ProcessEnv,
      stdio: "ignore",
    });
    const closed = new Promise((res) => child.on("close", res));
    const end = Date.now() + 30_000;
    while (!existsSync(join(marks, "checking")) && Date.now() < end) await new Promise((res) => setTimeout(res, 10));
    t.true(existsSync(join(marks, "checking")), "the check started");
    child.kill("SIGKILL");
    await closed;
    t.is(currentOf(to), "v2");
    t.deepEqual(
      activations(dir).map((r) => r.outcome),
      ["active", "pending"],
      "the interrupted activation stays pending"
    );

    // Killed at arbitrary moments: every time, current is v1 or v2 and resolves.
    for (const [i, delay] of [0, 40, 80, 120, 160, 240].entries()) {
      const tag = i % 2 === 0 ? "v1" : "v2";
      const c = spawn(join(BIN, "forge-release"), ["activate", tag, "--to", to], {
        cwd: dir,
        env: baseEnv() as NodeJS.ProcessEnv,
        stdio: "ignore",
      });
      const done = new Promise((res) => c.on("close", res));
      await new Promise((res) => setTimeout(res, delay));
      c.kill("SIGKILL");
      await done;
      t.true(["v1", "v2"].includes(currentOf(to) ?? "none"), `after a kill at ${delay} ms: ${currentOf(to)}`);
    }
    // The lock a killed run left behind belongs to a dead pid: the next run takes it over.
    // Each run closes what a killed one left pending (the kills land at any moment, so how many are left varies).
    const pending = activations(dir).filter((r) => r.outcome === "pending").length;
    const again = await rel(dir, ["activate", "v1", "--to", to]);
    t.is(again.code, 0, again.stderr);
    t.is(
      (again.stderr.match(/an interrupted activate of v[12] \(.*\) is now (aborted|committed)/g) ?? []).length,
      pending,
      again.stderr
    );
    t.is(currentOf(to), "v1");
    t.false(
      activations(dir).some((r) => r.outcome === "pending"),
      "every interrupted transaction is closed by the next run"
    );
  }
);

/** Start `activate TAG --check <a check that says it started, then sleeps>` and kill -9 it while the check runs. */
async function killDuringCheck(t: ExecutionContext, dir: string, to: string, tag: string): Promise<void> {
  const marks = dirname(to);
  const slow = join(marks, "slow-check");
  writeFileSync(
    slow,
    `#!/bin/sh\necho $$ > "${marks}/checking.tmp"\nmv "${marks}/checking.tmp" "${marks}/checking"\nexec sleep 30\n`
  );
  chmodSync(slow, 0o755);
  const child = spawn(join(BIN, "forge-release"), ["activate", tag, "--to", to, "--check", slow], {
    cwd: dir,
    env: baseEnv() as NodeJS.ProcessEnv,
    stdio: "ignore",
  });
  const closed = new Promise((res) => child.on("close", res));
  const mark = join(marks, "checking");
  const end = Date.now() + 30_000;
  while (!existsSync(mark) && Date.now() < end) await new Promise((res) => setTimeout(res, 10));
  t.true(existsSync(mark), "the check started");
  t.true(child.kill("SIGKILL"));
  await closed;
  // The check is in its own process group and outlives the kill: end it, as an operator would.
  try {
    process.kill(Number(readFileSync(mark, "utf8").trim()), "SIGKILL");
  } catch {
    // gone already
  }
  rmSync(mark);
}

test(
  "activation is a transaction: kill -9 during the check, and the next run rolls it back to one aborted " +
    "transaction before its own (a failing check then lands on the checked release, not the unchecked one)",
  async (t) => {
    const dir = await twoReleases(t);
    const to = target();
    t.is((await rel(dir, ["activate", "v1", "--to", to])).code, 0);
    await killDuringCheck(t, dir, to, "v2");
    t.is(currentOf(to), "v2", "the kill left current on the unchecked release");
    t.deepEqual(
      activations(dir).map((r) => r.outcome),
      ["active", "pending"]
    );

    // The rerun: the interrupted transaction is aborted (current back on v1) before the new one starts, so the
    // new one's previous is v1 and its failing check puts current back on v1.
    const bad = join(dirname(to), "bad-check");
    writeFileSync(bad, "#!/bin/sh\nexit 3\n");
    chmodSync(bad, 0o755);
    const rerun = await rel(dir, ["activate", "v2", "--to", to, "--check", bad, "--json", "outcome,previous"]);
    t.is(rerun.code, 1, rerun.stderr);
    t.deepEqual(jsonl(rerun.stdout), [{ outcome: "check-failed", previous: "v1" }]);
    t.regex(
      rerun.stderr,
      new RegExp(
        "an interrupted activate of v2 \\(\\.forge/releases/activations/[0-9TZ]+-[0-9a-f]{8}\\.md\\) " +
          "is now aborted: current back on v1"
      )
    );
    t.is(currentOf(to), "v1");
    const recs = activations(dir);
    t.deepEqual(
      recs.map((r) => [r.tag, r.outcome]),
      [
        ["v1", "active"],
        ["v2", "aborted"],
        ["v2", "check-failed"],
      ]
    );
    t.regex(recs[1]!.reconciledAt ?? "", /^\d{4}-\d\d-\d\dT/, "the closing is stamped");

    // Killed again, then a rerun that passes: one aborted transaction, then one committed; nothing pending.
    await killDuringCheck(t, dir, to, "v2");
    t.is(currentOf(to), "v2");
    const ok = await rel(dir, ["activate", "v2", "--to", to, "--check", "bin/app", "--json", "outcome,previous"]);
    t.is(ok.code, 0, ok.stderr);
    t.deepEqual(jsonl(ok.stdout), [{ outcome: "active", previous: "v1" }]);
    t.is(currentOf(to), "v2");
    t.deepEqual(
      activations(dir).map((r) => r.outcome),
      ["active", "aborted", "check-failed", "aborted", "active"]
    );

    // A rollback killed during its check is closed the same way by the next rollback.
    const slowRollback = spawnKillRollback(t, dir, to);
    await slowRollback;
    t.is(currentOf(to), "v1", "the killed rollback left current on v1 unchecked");
    const rb = await rel(dir, ["rollback", "--to", to]);
    t.is(rb.code, 0, rb.stderr);
    t.regex(rb.stderr, /an interrupted rollback of v1 \(.*\) is now aborted: current back on v2/);
    t.is(currentOf(to), "v1", "then the rollback itself ran");
    t.false(activations(dir).some((r) => r.outcome === "pending"));
  }
);

/** `rollback --check <slow>` killed -9 while its check runs. */
async function spawnKillRollback(t: ExecutionContext, dir: string, to: string): Promise<void> {
  const marks = dirname(to);
  const slow = join(marks, "slow-check");
  const child = spawn(join(BIN, "forge-release"), ["rollback", "--to", to, "--check", slow], {
    cwd: dir,
    env: baseEnv() as NodeJS.ProcessEnv,
    stdio: "ignore",
  });
  const closed = new Promise((res) => child.on("close", res));
  const mark = join(marks, "checking");
  const end = Date.now() + 30_000;
  while (!existsSync(mark) && Date.now() < end) await new Promise((res) => setTimeout(res, 10));
  t.true(existsSync(mark), "the rollback's check started");
  child.kill("SIGKILL");
  await closed;
  try {
    process.kill(Number(readFileSync(mark, "utf8").trim()), "SIGKILL");
  } catch {
    // gone already
  }
  rmSync(mark);
}

test("activate and rollback: usage errors, a target current that is not forge's symlink", async (t) => {
  const dir = await twoReleases(t);
  const to = target();
  assertOneLineError(t, await rel(dir, ["activate", "v1"]), "forge-release activate", ["missing --to"], 2);
  assertOneLineError(
    t,
    await rel(dir, ["activate", "v1", "--to", to, "--timeout", "0"]),
    "forge-release activate",
    ["invalid --timeout"],
    2
  );
  assertOneLineError(t, await rel(dir, ["rollback", "--to", join(to, "nope")]), "forge-release rollback", [
    "no such folder",
  ]);
  mkdirSync(join(to, "current"), { recursive: true });
  assertOneLineError(t, await rel(dir, ["activate", "v1", "--to", to]), "forge-release activate", [
    "current is not a symlink",
  ]);
});
