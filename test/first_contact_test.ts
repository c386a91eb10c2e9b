/**
 * What a newcomer meets first (issue 14): `forge help`, `forge version`,
 * git's "did you mean" for a mistyped noun or verb, `forge init` outside a
 * git work tree, a FORGE_DIR that is no store, `forge-export --json`, and
 * `forge-ci run --docker` without a ci.env.
 */
import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertOneLineError } from "./lib/hostile.js";
import { git, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

function plainDir(): string {
  return scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-first-"))));
}

test("forge help <noun> [<verb>] is forge <noun> [<verb>] --help; forge help alone is the root help", async (t) => {
  const cwd = plainDir();
  for (const [words, same] of [
    [
      ["help", "issue"],
      ["issue", "--help"],
    ],
    [
      ["help", "issue", "list"],
      ["issue", "list", "--help"],
    ],
    [["help"], ["--help"]],
    [
      ["help", "init"],
      ["init", "--help"],
    ],
  ] as const) {
    const a = await run("forge", [...words], { cwd });
    const b = await run("forge", [...same], { cwd });
    t.is(a.code, 0, a.stderr);
    t.is(a.stdout, b.stdout, words.join(" "));
    t.not(a.stdout, "");
  }
  assertOneLineError(
    t,
    await run("forge", ["help", "isue"], { cwd }),
    "forge",
    ["unknown noun 'isue' (did you mean 'issue'?)"],
    2
  );
});

test("forge version prints what forge --version prints", async (t) => {
  const cwd = plainDir();
  const v = await run("forge", ["version"], { cwd });
  t.is(v.code, 0);
  t.is(v.stdout, (await run("forge", ["--version"], { cwd })).stdout);
  t.regex(v.stdout, /^forge \d+\.\d+\.\d+\n$/);
});

test("an unknown noun or verb suggests the nearest one, in one line, exit 2", async (t) => {
  const cwd = plainDir();
  assertOneLineError(
    t,
    await run("forge", ["relase", "list"], { cwd }),
    "forge",
    ["unknown noun 'relase' (did you mean 'release'?)"],
    2
  );
  assertOneLineError(
    t,
    await run("forge", ["issue", "lsit"], { cwd }),
    "forge-issue",
    ["unknown command 'lsit' (did you mean 'list'?)"],
    2
  );
  assertOneLineError(
    t,
    await run("forge-pr", ["veiw", "1"], { cwd }),
    "forge-pr",
    ["unknown command 'veiw' (did you mean 'view'?)"],
    2
  );
  const far = await run("forge", ["frobnicate"], { cwd });
  assertOneLineError(t, far, "forge", ["unknown noun 'frobnicate'"], 2);
  t.false(far.stderr.includes("did you mean"));
});

test("forge init outside a git work tree is one line with a hint, and makes nothing", async (t) => {
  const cwd = plainDir();
  assertOneLineError(t, await run("forge", ["init"], { cwd }), "forge", ["is not in a git work tree", "git init"]);
  t.false(existsSync(join(cwd, ".forge")));
  assertOneLineError(t, await run("forge", ["init", join(cwd, "sub")], { cwd }), "forge", [
    "sub is not in a git work tree",
  ]);
  t.false(existsSync(join(cwd, "sub")));
  const repo = scratch(tempRepo("forge-first-"));
  const inner = await run("forge", ["init", "sub"], { cwd: repo });
  t.is(inner.code, 0, inner.stderr);
  t.true(existsSync(join(repo, "sub", ".forge")), "a folder inside a repository is fine");
});

test("a FORGE_DIR that is no store is one line, exit 1, not an empty list", async (t) => {
  const repo = scratch(tempRepo("forge-first-"));
  writeFileSync(join(repo, "README.md"), "hello\n");
  assertOneLineError(
    t,
    await run("forge-issue", ["list"], { cwd: repo, env: { FORGE_DIR: repo } }),
    "forge-issue list",
    ["is not a forge store", "did you mean"]
  );
  const other = plainDir();
  writeFileSync(join(other, "notes.txt"), "x\n");
  assertOneLineError(
    t,
    await run("forge-issue", ["list"], { cwd: repo, env: { FORGE_DIR: other } }),
    "forge-issue list",
    ["is not a forge store"]
  );
  const ok = await run("forge-issue", ["list"], { cwd: other, env: { FORGE_DIR: join(repo, ".forge") } });
  t.is(ok.code, 0, ok.stderr);
});

test("forge-export --json is accepted (it always writes JSON lines)", async (t) => {
  const cwd = scratch(tempRepo("forge-first-"));
  const a = await run("forge-export", ["--json"], { cwd, input: "" });
  t.is(a.code, 0, a.stderr);
  t.is(a.stdout, "");
});

test("forge-ci run --docker with no ci.env says the file does not exist, not that its field is missing", async (t) => {
  const cwd = scratch(tempRepo("forge-first-"));
  mkdirSync(join(cwd, ".forge", "ci", "steps"), { recursive: true });
  writeFileSync(join(cwd, "a.txt"), "a\n");
  git(cwd, ["add", "-A"]);
  git(cwd, ["commit", "-qm", "init"]);
  assertOneLineError(t, await run("forge-ci", ["run", "--docker"], { cwd }), "forge-ci run", [
    ".forge/ci/ci.env does not exist; --docker needs one with 'image=<image>'",
  ]);
});
