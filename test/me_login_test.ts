/**
 * `@me` is a login, as gh's is the authenticated account's (issue 31 item
 * 12): `FORGE_AUTHOR`, else `git config forge.login`, else git's `user.name`
 * (spec/schema.md "author, @me").
 */
import test from "ava";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { git, jsonl, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

// No FORGE_AUTHOR: git's config decides.
const NO_AUTHOR = { FORGE_AUTHOR: "" };

function repo(): string {
  const dir = scratch(tempRepo("forge-me-"));
  git(dir, ["config", "user.name", "Ann Dev"]);
  return dir;
}

test("with git config forge.login, @me and the author are that login, not user.name", async (t) => {
  const dir = repo();
  git(dir, ["config", "forge.login", "ann-dev"]);
  const c = await run("forge-issue", ["create", "-t", "Mine", "-a", "@me", "--json", "author,assignees"], {
    cwd: dir,
    env: NO_AUTHOR,
  });
  t.is(c.code, 0, c.stderr);
  t.deepEqual(jsonl(c.stdout), [{ assignees: [{ login: "ann-dev" }], author: { login: "ann-dev" } }]);
  await run("forge-issue", ["create", "-t", "Theirs", "-a", "bob"], { cwd: dir, env: NO_AUTHOR });
  for (const args of [
    ["list", "--assignee", "@me", "--json", "number"],
    ["list", "--author", "@me", "-S", "assignee:@me", "--json", "number"],
  ]) {
    const l = await run("forge-issue", args, { cwd: dir, env: NO_AUTHOR });
    t.is(l.code, 0, l.stderr);
    t.deepEqual(jsonl(l.stdout), [{ number: 1 }], args.join(" "));
  }
  // FORGE_AUTHOR still wins (a CI job, a test).
  const e = await run("forge-issue", ["view", "1", "--json", "author"], { cwd: dir, env: { FORGE_AUTHOR: "carol" } });
  t.deepEqual(jsonl(e.stdout), [{ author: { login: "ann-dev" } }]);
  const s = await run("forge-issue", ["list", "--author", "@me", "--json", "number"], {
    cwd: dir,
    env: { FORGE_AUTHOR: "carol" },
  });
  t.deepEqual(jsonl(s.stdout), []);
});

test("without forge.login, @me is git's user.name (the last resort, as before)", async (t) => {
  const dir = repo();
  const c = await run("forge-issue", ["create", "-t", "Mine", "-a", "@me", "--json", "assignees"], {
    cwd: dir,
    env: NO_AUTHOR,
  });
  t.is(c.code, 0, c.stderr);
  t.deepEqual(jsonl(c.stdout), [{ assignees: [{ login: "Ann Dev" }] }]);
});

test("a forge.login that is not a login is refused in one line, and nothing is written", async (t) => {
  const dir = repo();
  git(dir, ["config", "forge.login", "Ann Dev"]);
  const c = await run("forge-issue", ["create", "-t", "Mine"], { cwd: dir, env: NO_AUTHOR });
  t.is(c.code, 1);
  t.is(
    c.stderr,
    "forge-issue create: git config forge.login: not a login (letters, digits, '-', '_', '.', '@' and no spaces)\n"
  );
  t.false(existsSync(join(dir, ".forge", "issues")) && readdirSync(join(dir, ".forge", "issues")).length > 0);
});
