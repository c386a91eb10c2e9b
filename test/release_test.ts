/**
 * forge-release end to end: goldens for every verb (test/golden/release/)
 * on a fixed store, `create` on real temp repos (the build runs at the
 * tagged commit in a disposable worktree), and the hostile cases: a
 * failing step, a step that writes outside `OUT`, a symlinked artifact, an
 * existing release or tag, a flipped byte or a missing artifact for verify.
 */
import test, { type ExecutionContext } from "ava";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { formatFrontmatter, formatTimestamp, RELEASE, toFrontmatter } from "@forge/core";
import { golden, scrub } from "./lib/golden.js";
import { assertOneLineError, lines } from "./lib/hostile.js";
import { baseEnv, BIN, git, jsonl, run, tempRepo, type Ran } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const since = formatTimestamp();

// --- a fixed store for the read verbs ---

const SHA_A = "264b04c83c8197c1a52c014b8d35decac6d426fa";
const SHA_B = "8f14e45fceea167a5a36dedd4bea2543e1d2a8c1";
const sha256 = (s: string): string => execFileSync("sha256sum", { input: s, encoding: "utf8" }).slice(0, 64);

interface FixtureRelease {
  tag: string;
  name?: string;
  commit: string;
  createdAt: string;
  notes: string;
  /** Artifact name → contents (written to releases/out/<tag>/ too). */
  assets: Record<string, string>;
}

const RELEASES: FixtureRelease[] = [
  { tag: "v0.9.0-beta", commit: SHA_A, createdAt: "2025-12-01T10:00:00Z", notes: "", assets: {} },
  {
    tag: "v1.0.0",
    name: "v1.0.0: first cut",
    commit: SHA_A,
    createdAt: "2026-01-01T12:00:00Z",
    notes: "## What's new\n\n- everything\n",
    assets: { "forge-linux-x64.tar.gz": "linux bytes\n", "docs/README.txt": "read me\n" },
  },
  {
    tag: "v1.1.0",
    name: "Second",
    commit: SHA_B,
    createdAt: "2026-02-01T12:00:00Z",
    notes: "Fixes.\n",
    assets: { "forge.tar.gz": "v1.1\n" },
  },
];

function writeReleases(repo: string): void {
  for (const r of RELEASES) {
    const assets = Object.entries(r.assets)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, text]) => ({ name, size: Buffer.byteLength(text), sha256: sha256(text) }));
    const data: Record<string, unknown> = {
      tagName: r.tag,
      commit: r.commit,
      author: "alice",
      createdAt: r.createdAt,
      assets,
    };
    if (r.name) data.name = r.name;
    mkdirSync(join(repo, ".forge", "releases"), { recursive: true });
    writeFileSync(
      join(repo, ".forge", "releases", `${r.tag}.md`),
      formatFrontmatter(toFrontmatter(RELEASE, data), r.notes)
    );
    for (const [name, text] of Object.entries(r.assets)) {
      const abs = join(repo, ".forge", "releases", "out", r.tag, name);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
    }
  }
}

let shared: Promise<string> | undefined;
function fixedRepo(): Promise<string> {
  return (shared ??= (async () => {
    const dir = scratch(tempRepo("forge-release-"));
    writeReleases(dir);
    return dir;
  })());
}

interface Case {
  name: string;
  args: string[];
  code?: number;
}

const READS: Case[] = [
  { name: "list_human", args: ["list"] },
  { name: "list_json", args: ["list", "--json"] },
  { name: "list_limit_1", args: ["list", "-L", "1", "--json", "tagName,isLatest"] },
  { name: "list_jq_tags", args: ["list", "--jq", ".[].tagName"] },
  { name: "list_bad_limit", args: ["list", "--limit", "0"], code: 2 },
  { name: "list_bad_field", args: ["list", "--json", "assets"], code: 2 },
  { name: "view_human", args: ["view", "v1.0.0"] },
  { name: "view_json", args: ["view", "v1.0.0", "--json"] },
  { name: "view_latest", args: ["view", "--json", "tagName,name"] },
  { name: "view_assets", args: ["view", "v1.1.0", "--json", "assets,targetCommitish"] },
  { name: "view_jq_digests", args: ["view", "v1.0.0", "--jq", ".assets[].digest"] },
  { name: "view_missing", args: ["view", "v9"], code: 1 },
  { name: "view_bad_tag", args: ["view", "../issues"], code: 2 },
  // Files written without `tree` and `digest` (the fixture's, or an older forge's) are not bound to an identity.
  { name: "verify_unbound", args: ["verify", "v1.0.0"], code: 1 },
  { name: "verify_missing_release", args: ["verify", "v9"], code: 1 },
];

for (const c of READS) {
  test(`forge-release ${c.args.join(" ")} matches golden ${c.name}`, async (t) => {
    const cwd = await fixedRepo();
    const r = await run("forge-release", c.args, { cwd });
    t.is(r.code, c.code ?? 0, r.stderr);
    const ext = c.args.includes("--json") && !c.args.includes("--jq") ? "jsonl" : "txt";
    golden(t, `release/${c.name}.${ext}`, r.stdout, true);
    golden(t, `release/${c.name}.stderr`, r.stderr, true);
    if (r.code !== 0) t.is(lines(r.stderr).length, 1, "an error is one stderr line");
  });
}

test("forge-release list and view print nothing / say so when there are no releases", async (t) => {
  const cwd = scratch(tempRepo("forge-release-"));
  const l = await run("forge-release", ["list", "--json"], { cwd });
  t.is(l.code, 0);
  t.is(l.stdout + l.stderr, "");
  assertOneLineError(t, await run("forge-release", ["view"], { cwd }), "forge-release view", ["no releases"]);
});

// --- create, on real repos ---

const BUILD = `#!/bin/sh
set -e
mkdir -p "$OUT/dist"
cp src/app.txt "$OUT/dist/app.txt"
printf '%s\\n' "$FORGE_RELEASE_TAG" > "$OUT/VERSION"
echo "built $FORGE_RELEASE_TAG"
`;

/** A temp repo with `src/app.txt` and build steps, committed; returns its path. */
function buildRepo(
  steps: Record<string, string> = { "10-build": BUILD },
  files: Record<string, string> = { "src/app.txt": "app v1\n" }
): string {
  const dir = scratch(tempRepo("forge-release-"));
  writeTree(dir, files);
  writeSteps(dir, steps);
  commit(dir, "init");
  return dir;
}

function writeTree(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

function writeSteps(dir: string, steps: Record<string, string>): void {
  const b = join(dir, ".forge", "releases", "build");
  mkdirSync(b, { recursive: true });
  for (const [name, text] of Object.entries(steps)) {
    writeFileSync(join(b, name), text);
    chmodSync(join(b, name), 0o755);
  }
}

function commit(dir: string, msg: string): string {
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "--no-verify", "-m", msg]);
  return git(dir, ["rev-parse", "HEAD"]).trim();
}

/** Output with the commit sha, the clock and the repo path replaced by placeholders. */
function clean(s: string, sha: string, repo: string): string {
  // The file quotes a sha that starts with a digit (canonical YAML): the quotes go with it.
  const t = s
    .split(`commit: "${sha}"`)
    .join(`commit: ${sha}`)
    .split(sha)
    .join("<commit>")
    .split(sha.slice(0, 7))
    .join("<commit7>")
    .replace(/^tree: "?[0-9a-f]{40,64}"?$/m, "tree: <tree>")
    .replace(/^digest: "?[0-9a-f]{64}"?$/m, "digest: <digest>");
  return scrub(t, { keep: new Set(), since, repo });
}

function worktrees(dir: string): number {
  return git(dir, ["worktree", "list", "--porcelain"])
    .split("\n")
    .filter((l) => l.startsWith("worktree ")).length;
}

function tags(dir: string): string[] {
  return git(dir, ["tag", "--list"]).split("\n").filter(Boolean);
}

function releaseFileOf(dir: string, tag: string): string {
  return join(dir, ".forge", "releases", `${tag}.md`);
}

/** The last stderr line: the error (build output and progress lines come before it). */
function lastLine(r: Ran): string {
  return lines(r.stderr).at(-1) ?? "";
}

/** A refused create: exit 1, the error last on stderr (one such line), no release file, no tag, no worktree left. */
function assertNoRelease(t: ExecutionContext, r: Ran, dir: string, tag: string, needles: string[]): void {
  t.is(r.code, 1, r.stderr);
  t.is(r.stdout, "");
  const last = lastLine(r);
  t.true(last.startsWith("forge-release create: "), last);
  for (const n of needles) t.true(last.includes(n), `${n} not in ${last}`);
  t.is(
    lines(r.stderr).filter((l) => l.startsWith("forge-release create: ") && l.includes("no release written")).length,
    1,
    "one error line"
  );
  t.false(/^\s+at /m.test(r.stderr), "stack trace");
  t.false(existsSync(releaseFileOf(dir, tag)), "no release file");
  t.deepEqual(tags(dir), [], "no tag");
  t.is(worktrees(dir), 1, "the disposable worktree is gone");
}

test(
  "forge-release create builds HEAD, records every " + "artifact, tags the commit, and matches its goldens",
  async (t) => {
    const dir = buildRepo();
    const sha = git(dir, ["rev-parse", "HEAD"]).trim();
    const r = await run("forge-release", ["create", "v1.0.0", "-t", "First release", "-n", "The notes.\n\n- one"], {
      cwd: dir,
    });
    t.is(r.code, 0, r.stderr);
    golden(t, "release/create_human.txt", clean(r.stdout, sha, dir));
    golden(t, "release/create_human.stderr", clean(r.stderr, sha, dir));
    golden(t, "release/create_human.file.md", clean(readFileSync(releaseFileOf(dir, "v1.0.0"), "utf8"), sha, dir));
    const v = await run("forge-release", ["view", "v1.0.0", "--json"], { cwd: dir });
    golden(t, "release/create_human.then.jsonl", clean(v.stdout, sha, dir));
    t.deepEqual(tags(dir), ["v1.0.0"]);
    t.is(git(dir, ["rev-parse", "v1.0.0^{commit}"]).trim(), sha);
    t.is(worktrees(dir), 1, "the disposable worktree is gone");
    t.is(
      git(dir, ["status", "--porcelain"]),
      "?? .forge/releases/v1.0.0.md\n",
      "only the release file is new (out/ is ignored)"
    );
    const ok = await run("forge-release", ["verify", "v1.0.0"], { cwd: dir });
    t.is(ok.code, 0, ok.stderr);
    t.is(ok.stderr, "v1.0.0: digest, tag and tree match; 2 assets match .forge/releases/out/v1.0.0/\n");
  }
);

test("forge-release create --json and --notes-file - (stdin)", async (t) => {
  const dir = buildRepo();
  const sha = git(dir, ["rev-parse", "HEAD"]).trim();
  const r = await run(
    "forge-release",
    ["create", "v2", "--notes-file", "-", "--json", "tagName,name,body,assets,targetCommitish"],
    { cwd: dir, input: "From stdin.\n" }
  );
  t.is(r.code, 0, r.stderr);
  golden(t, "release/create_json.jsonl", clean(r.stdout, sha, dir));
});

test(
  "forge-release create: a failing step leaves no release " + "file and no tag; artifacts already built stay in out/",
  async (t) => {
    const dir = buildRepo({
      "10-build": BUILD,
      "20-fail": "#!/bin/sh\necho 'tests failed' >&2\nexit 3\n",
      "30-never": '#!/bin/sh\ntouch "$OUT/never"\n',
    });
    const r = await run("forge-release", ["create", "v1"], { cwd: dir });
    assertNoRelease(t, r, dir, "v1", ["build step '20-fail' failed (exit 3)", "no release written"]);
    t.true(r.stderr.includes("tests failed\n"), "the step's output is on stderr");
    const out = join(dir, ".forge", "releases", "out", "v1");
    t.deepEqual(readdirSync(out).sort(), ["VERSION", "dist"], "30-never did not run; 10-build's artifacts stay");
    // A retry with the leftovers still there is refused rather than mixing builds.
    const again = await run("forge-release", ["create", "v1"], { cwd: dir });
    assertOneLineError(t, again, "forge-release create", [".forge/releases/out/v1/ already holds files"]);
  }
);

test("forge-release create: creating an existing release is an error and changes nothing", async (t) => {
  const dir = buildRepo();
  t.is((await run("forge-release", ["create", "v1", "-n", "first"], { cwd: dir })).code, 0);
  const before = readFileSync(releaseFileOf(dir, "v1"));
  commit(dir, "more");
  const r = await run("forge-release", ["create", "v1", "-n", "second"], { cwd: dir });
  assertOneLineError(t, r, "forge-release create", ["release v1 already exists", "immutable"]);
  t.deepEqual(readFileSync(releaseFileOf(dir, "v1")), before);
  t.deepEqual(tags(dir), ["v1"]);
});

test(
  "forge-release create uses an existing tag's commit, " + "and refuses --target when the tag points elsewhere",
  async (t) => {
    const dir = buildRepo();
    const first = git(dir, ["rev-parse", "HEAD"]).trim();
    git(dir, ["tag", "v1"]);
    writeTree(dir, { "src/app.txt": "app v2\n" });
    const second = commit(dir, "v2");
    const clash = await run("forge-release", ["create", "v1", "--target", "HEAD"], { cwd: dir });
    assertOneLineError(t, clash, "forge-release create", [
      `tag v1 already points at ${first.slice(0, 7)}, not ${second.slice(0, 7)}`,
    ]);
    t.false(existsSync(releaseFileOf(dir, "v1")));
    const r = await run("forge-release", ["create", "v1", "--json", "targetCommitish"], { cwd: dir });
    t.is(r.code, 0, r.stderr);
    t.deepEqual(jsonl(r.stdout), [{ targetCommitish: first }]);
    t.is(
      readFileSync(join(dir, ".forge", "releases", "out", "v1", "dist", "app.txt"), "utf8"),
      "app v1\n",
      "built from the tagged commit, not HEAD"
    );
  }
);

test(
  "forge-release create --target builds that commit with that commit's own build steps; uncommitted steps are not " +
    "used",
  async (t) => {
    const dir = buildRepo();
    const old = git(dir, ["rev-parse", "HEAD"]).trim();
    writeTree(dir, { "src/app.txt": "app v2\n" });
    writeSteps(dir, { "10-build": BUILD.replace("cp src/app.txt", 'echo step-v2 > "$OUT/step"; cp src/app.txt') });
    commit(dir, "v2");
    // An uncommitted edit in the live tree: never run.
    writeSteps(dir, { "10-build": '#!/bin/sh\ntouch "$OUT/UNCOMMITTED"\n' });
    const r = await run("forge-release", ["create", "v1", "--target", old, "--json", "assets,targetCommitish"], {
      cwd: dir,
    });
    t.is(r.code, 0, r.stderr);
    const rec = jsonl(r.stdout)[0] as { assets: Array<{ name: string }>; targetCommitish: string };
    t.is(rec.targetCommitish, old);
    t.deepEqual(
      rec.assets.map((a) => a.name),
      ["VERSION", "dist/app.txt"]
    );
    t.is(readFileSync(join(dir, ".forge", "releases", "out", "v1", "dist", "app.txt"), "utf8"), "app v1\n");
    const head = await run("forge-release", ["create", "v2", "--json", "assets"], { cwd: dir });
    t.deepEqual(
      (jsonl(head.stdout)[0] as { assets: Array<{ name: string }> }).assets.map((a) => a.name),
      ["VERSION", "dist/app.txt", "step"]
    );
  }
);

test("forge-release create with no build steps records a release without assets and says so", async (t) => {
  const dir = scratch(tempRepo("forge-release-"));
  writeTree(dir, { README: "x\n" });
  commit(dir, "init");
  const r = await run("forge-release", ["create", "v1", "--json", "assets"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout, '{"assets":[]}\n');
  t.true(r.stderr.includes("no build steps in .forge/releases/build/"), r.stderr);
});

test(
  "forge-release create: Ctrl-C during a step stops the " + "build, removes the worktree and writes nothing (exit 130)",
  async (t) => {
    const dir = buildRepo({ "10-build": BUILD, "20-slow": "#!/bin/sh\necho slow-step-started\nexec sleep 600\n" });
    const child = spawn(join(BIN, "forge-release"), ["create", "v1"], {
      cwd: dir,
      env: baseEnv() as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let sent = false;
    child.stdout.resume();
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (!sent && stderr.includes("slow-step-started")) sent = child.kill("SIGINT");
    });
    const code = await new Promise<number | null>((res) => child.on("close", (c) => res(c)));
    const r: Ran = { stdout: "", stderr, code, signal: null };
    t.is(code, 130, stderr);
    t.is(lastLine(r), "forge-release create: interrupted by SIGINT; no release written");
    t.false(existsSync(releaseFileOf(dir, "v1")));
    t.deepEqual(tags(dir), []);
    t.is(worktrees(dir), 1, "the disposable worktree is gone");
  }
);

// --- hostile: writes outside OUT ---

test("forge-release create detects a step that changes a tracked file of the tagged worktree", async (t) => {
  const dir = buildRepo({ "10-build": BUILD, "20-patch": "#!/bin/sh\necho patched >> src/app.txt\n" });
  const r = await run("forge-release", ["create", "v1"], { cwd: dir });
  assertNoRelease(t, r, dir, "v1", [
    "build step '20-patch' changed the tagged tree (src/app.txt)",
    "no release written",
  ]);
});

test("forge-release create detects a step that leaves an untracked file in the tagged worktree", async (t) => {
  const dir = buildRepo({ "10-build": BUILD + "touch stray.o\n" });
  const r = await run("forge-release", ["create", "v1"], { cwd: dir });
  assertNoRelease(t, r, dir, "v1", ["build step '10-build' changed the tagged tree (stray.o)", "no release written"]);
});

test(
  "forge-release create detects a step that writes a " + "tracked file of the live repository through OUT/..",
  async (t) => {
    const dir = buildRepo({ "10-build": BUILD + 'echo evil >> "$OUT/../../../../src/app.txt"\n' });
    const r = await run("forge-release", ["create", "v1"], { cwd: dir });
    assertNoRelease(t, r, dir, "v1", [
      "build step '10-build' changed the repository outside OUT",
      "no release written",
    ]);
    // Detected, not prevented: the change is there for the user to see (steps are trusted code, SEC-07).
    t.is(readFileSync(join(dir, "src", "app.txt"), "utf8"), "app v1\nevil\n");
  }
);

test("forge-release create detects a step that drops a file into the live store", async (t) => {
  const dir = buildRepo({
    "10-build": BUILD + 'mkdir -p "$OUT/../../../issues/x" && echo x > "$OUT/../../../issues/x/issue.md"\n',
  });
  const r = await run("forge-release", ["create", "v1"], { cwd: dir });
  assertNoRelease(t, r, dir, "v1", ["changed the repository outside OUT"]);
});

test("forge-release create detects a step that commits in the live repository (HEAD moved)", async (t) => {
  const dir = buildRepo({ "10-build": BUILD + `git -C "$OUT/../../../.." commit -q --allow-empty -m sneaky\n` });
  const r = await run("forge-release", ["create", "v1"], { cwd: dir });
  assertNoRelease(t, r, dir, "v1", ["changed the repository outside OUT"]);
});

test(
  "forge-release create does not detect a step that writes to an ignored path of the live repo (documented limit: " +
    "no sandbox)",
  async (t) => {
    const dir = buildRepo({
      "10-build": BUILD + 'mkdir -p "$OUT/../../../.cache" && echo cached > "$OUT/../../../.cache/build-cache"\n',
    });
    const r = await run("forge-release", ["create", "v1"], { cwd: dir });
    t.is(r.code, 0, r.stderr);
    t.true(
      existsSync(join(dir, ".forge", ".cache", "build-cache")),
      "git cannot see ignored paths, so neither can the check"
    );
  }
);

test("forge-release create refuses a symlink in OUT (one pointing outside, or anywhere)", async (t) => {
  const dir = buildRepo({ "10-build": BUILD + 'ln -s /etc/passwd "$OUT/passwd"\n' });
  const r = await run("forge-release", ["create", "v1"], { cwd: dir });
  assertNoRelease(t, r, dir, "v1", ["artifact 'passwd' is a symlink (refused)", "no release written"]);
});

test(
  "forge-release create: a hostile tag is a usage error " + "before anything runs; a hostile title is stored literally",
  async (t) => {
    const dir = buildRepo({ "10-build": BUILD + 'touch "$OUT/ran"\n' });
    for (const tag of ["v1;touch pwned", "../../x", "-v1", "v1/../../x", "$(touch pwned)"]) {
      const r = await run("forge-release", ["create", "--", tag], { cwd: dir });
      assertOneLineError(t, r, "forge-release create", ["invalid tag"], 2);
    }
    t.false(existsSync(join(dir, ".forge", "releases", "out")), "no build ran");
    const title = "$(touch pwned) `touch pwned2`; rm -rf / # 'quoted' \"dq\"";
    const r = await run("forge-release", ["create", "v1", "-t", title, "--json", "name"], { cwd: dir });
    t.is(r.code, 0, r.stderr);
    t.deepEqual(jsonl(r.stdout), [{ name: title }]);
    t.false(existsSync(join(dir, "pwned")) || existsSync(join(dir, "pwned2")));
  }
);

// --- verify ---

test("forge-release verify detects a flipped byte and a missing artifact, naming it", async (t) => {
  const dir = buildRepo();
  t.is((await run("forge-release", ["create", "v1"], { cwd: dir })).code, 0);
  const out = join(dir, ".forge", "releases", "out", "v1");
  const app = join(out, "dist", "app.txt");
  const bytes = readFileSync(app);
  bytes[0] = bytes[0]! ^ 0x01;
  writeFileSync(app, bytes);
  const flipped = await run("forge-release", ["verify", "v1"], { cwd: dir });
  assertOneLineError(t, flipped, "forge-release verify", ["v1: asset 'dist/app.txt' does not match: sha256"]);
  bytes[0] = bytes[0]! ^ 0x01;
  writeFileSync(app, bytes);
  t.is((await run("forge-release", ["verify", "v1"], { cwd: dir })).code, 0, "restored");
  execFileSync("rm", [join(out, "VERSION")]);
  const missing = await run("forge-release", ["verify", "v1"], { cwd: dir });
  assertOneLineError(t, missing, "forge-release verify", [
    "v1: asset 'VERSION' is missing from .forge/releases/out/v1/",
  ]);
});

test("forge-release verify reports a changed size, and refuses an artifact replaced by a symlink", async (t) => {
  const dir = buildRepo();
  t.is((await run("forge-release", ["create", "v1"], { cwd: dir })).code, 0);
  const out = join(dir, ".forge", "releases", "out", "v1");
  writeFileSync(join(out, "VERSION"), "v1 plus more\n");
  assertOneLineError(t, await run("forge-release", ["verify", "v1"], { cwd: dir }), "forge-release verify", [
    "'VERSION' does not match: 13 bytes, recorded 3",
  ]);
  execFileSync("rm", [join(out, "VERSION")]);
  execFileSync("ln", ["-s", "/etc/hostname", join(out, "VERSION")]);
  assertOneLineError(t, await run("forge-release", ["verify", "v1"], { cwd: dir }), "forge-release verify", [
    "'VERSION' is a symlink (refused)",
  ]);
});

test("forge-release verify refuses an out/ folder symlinked out of the store", async (t) => {
  const dir = buildRepo();
  t.is((await run("forge-release", ["create", "v1.0.0"], { cwd: dir })).code, 0);
  const out = join(dir, ".forge", "releases", "out");
  execFileSync("mv", [out, join(dir, "moved-out")]);
  execFileSync("ln", ["-s", join(dir, "moved-out"), out]);
  assertOneLineError(t, await run("forge-release", ["verify", "v1.0.0"], { cwd: dir }), "forge-release verify", [
    ".forge/releases/out/v1.0.0/ leads outside .forge/",
  ]);
});

test(
  "forge-release create leaves releases/out/ out of the live-repo check even where it is not gitignored (an older " +
    "store)",
  async (t) => {
    const dir = scratch(tempRepo("forge-release-"));
    const gi = join(dir, ".forge", ".gitignore");
    writeFileSync(gi, readFileSync(gi, "utf8").replace("releases/out/\n", ""));
    writeTree(dir, { "src/app.txt": "app v1\n" });
    writeSteps(dir, { "10-build": BUILD });
    commit(dir, "init");
    const r = await run("forge-release", ["create", "v1", "--json", "tagName"], { cwd: dir });
    t.is(r.code, 0, r.stderr);
    t.deepEqual(jsonl(r.stdout), [{ tagName: "v1" }]);
  }
);

// --- gh's create marks (issue 13): --draft --prerelease --latest --generate-notes --notes-file ---

test(
  "create --draft/--prerelease/--latest set gh's isDraft/isPrerelease/isLatest; --generate-notes lists the " +
    "commits since the last release",
  async (t) => {
    const dir = buildRepo();
    const ok = async (args: string[], input?: string): Promise<Ran> => {
      const r = await run("forge-release", args, { cwd: dir, input });
      t.is(r.code, 0, r.stderr);
      return r;
    };
    await ok(["create", "v1.0.0", "--notes", "first"]);
    writeTree(dir, { "src/app.txt": "app v2\n" });
    const sha = commit(dir, "Make the app faster");
    const beta = await ok(
      [
        "create",
        "v2.0.0-rc1",
        "--prerelease",
        "--generate-notes",
        "--notes-file",
        "-",
        "--json",
        "body,isDraft,isPrerelease",
      ],
      "Notes from stdin.\n"
    );
    golden(t, "release/create_generate_notes.jsonl", clean(beta.stdout, sha, dir));
    await ok(["create", "v2.0.0-draft", "--draft"]);
    const list1 = await ok(["list", "--json", "tagName,isDraft,isPrerelease,isLatest"]);
    t.deepEqual(
      jsonl(list1.stdout)
        .filter((r) => r.isLatest)
        .map((r) => r.tagName),
      ["v1.0.0"],
      "drafts and prereleases are never the latest by default"
    );
    await ok(["create", "v0.9.9", "--latest"]);
    const list2 = await ok(["list", "--json", "tagName,isDraft,isPrerelease,isLatest"]);
    // Sorted by tag: releases made within one second tie on createdAt.
    golden(
      t,
      "release/list_marks.jsonl",
      list2.stdout
        .split("\n")
        .filter(Boolean)
        .sort()
        .map((l) => l + "\n")
        .join("")
    );
    t.deepEqual(
      jsonl(list2.stdout)
        .filter((r) => r.isLatest)
        .map((r) => r.tagName),
      ["v0.9.9"],
      "--latest wins"
    );
  }
);
