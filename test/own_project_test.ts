/**
 * The README's "Your own project", run as written: its blocks copied out of
 * README.md (never retyped) and run with bash in a temp folder, offline;
 * then what the section says of the cache checked on the project it made.
 */
import test from "ava";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonl, run, sh } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The fenced block after `<!-- test: NAME -->` in the README. */
function block(name: string): string {
  const at = README.indexOf(`<!-- test: ${name} -->\n`);
  if (at < 0) throw new Error(`README.md has no '<!-- test: ${name} -->' block`);
  const open = README.indexOf("\n", README.indexOf("```", at)) + 1;
  return README.slice(open, README.indexOf("\n```", open) + 1);
}

const ENV = {
  GIT_AUTHOR_NAME: "reader",
  GIT_AUTHOR_EMAIL: "reader@example.com",
  GIT_COMMITTER_NAME: "reader",
  GIT_COMMITTER_EMAIL: "reader@example.com",
  npm_config_update_notifier: "false",
};

test("README 'Your own project': its blocks run as written; the second run restores node_modules", async (t) => {
  t.timeout(600_000, "npm ci and three CI runs on a shared machine");
  const home = scratch(mkdtempSync(join(tmpdir(), "forge-own-project-")));
  const made = await sh(`set -e\n${block("own-project")}`, { cwd: home, env: ENV });
  t.is(made.code, 0, made.stderr);
  const dir = join(home, "notes");
  t.true(existsSync(join(dir, "package-lock.json")));

  const ci = await sh(`set -e\ncd notes\n${block("own-project-ci")}`, { cwd: home, env: ENV });
  t.is(ci.code, 0, ci.stderr);
  t.is(ci.stdout.trim().split("\n").pop(), "hit", "the second run restored node_modules and did not run npm ci");
  t.regex(ci.stderr, /✓ 05-install restored from the cache/);
  t.is(readdirSync(join(dir, ".forge", "ci", "cache")).filter((n) => /^[0-9a-f]{64}$/.test(n)).length, 1);

  // Deleting the cache changes no verdict: the next run installs again and passes.
  rmSync(join(dir, ".forge", "ci", "cache"), { recursive: true });
  const again = await run("forge-ci", ["run", "--json", "verdict,steps"], { cwd: dir, env: ENV });
  t.is(again.code, 0, again.stderr);
  const r = jsonl(again.stdout)[0] as Record<string, any>;
  t.is(r.verdict, "pass");
  t.deepEqual(
    r.steps.map((s: Record<string, unknown>) => `${s.name} ${s.outcome} ${s.cache ?? ""}`.trim()),
    ["05-install pass saved", "10-lint pass", "20-test pass"]
  );
  // Test reports, as the section's last block writes them: each test case recorded.
  const reports = await sh(`set -e\ncd notes\n${block("own-project-reports")}`, { cwd: home, env: ENV });
  t.is(reports.code, 0, reports.stderr);
  t.regex(reports.stdout, /^pass titles become ids\b.*\n$/);
});
