#!/usr/bin/env node
// The demo: a sample repository in a temp folder, an issue workflow run
// through pipes with the built executables, each step printed as it runs.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { $, cd, path } from "zx";

const bin = path.resolve(import.meta.dirname, "..", "bin");
process.env.PATH = `${bin}:${process.env.PATH}`;
process.env.FORGE_AUTHOR ||= "demo";
process.env.NO_COLOR = "1";
$.verbose = false;

const dir = mkdtempSync(path.join(tmpdir(), "forge-demo-"));
cd(dir);
const step = async (title, script) => {
  console.log(`\n$ ${title}`);
  const out = await $({ nothrow: true, quiet: true })`bash --norc --noprofile -o pipefail -c ${script}`;
  process.stdout.write(out.stdout);
  if (out.stderr) process.stdout.write(out.stderr.replace(/^(?=.)/gm, "  (stderr) "));
  if (out.exitCode !== 0) console.log(`  (exit ${out.exitCode})`);
  return out;
};

console.log(`sample repository: ${dir}`);
await step("git init && forge init", "git init -q -b main && git config user.name demo && git config user.email demo@example.com && forge init");
await step("forge-issue create (three issues, one with shell metacharacters in its title)", [
  "forge-issue create -t 'Crash on empty config' -l bug -b 'Steps: run with an empty file.'",
  "forge-issue create -t 'Docs: explain \"$(refs)\" & pipes' -l docs",
  "forge-issue create -t 'Flaky test in CI' -l bug,ci -a @me",
].join(" && "));
await step("forge-issue list", "forge-issue list");
await step("forge-issue list --label bug --json number,title", "forge-issue list --label bug --json number,title");
await step("forge-issue list --label bug --json | forge-issue close - --comment 'fixed in main'",
  "forge-issue list --label bug --json | forge-issue close - --comment 'fixed in main'");
await step("forge-issue list --state all --jq '.[] | \"#\\(.number) \\(.state) \\(.title)\"'",
  "forge-issue list --state all --jq '.[] | \"#\\(.number) \\(.state) \\(.title)\"'");
await step("forge issue view 1   (forge <noun> dispatches to forge-<noun>)", "forge issue view 1");
await step("git add .forge && git commit   (the store is plain files; git is the sync layer)",
  "git add .forge && git commit -qm 'track issues' && git log -1 --stat --format=%s");
await step("forge-issue view 99   (errors: one line on stderr, exit 1)", "forge-issue view 99");
await step("forge --skill", "forge --skill");
console.log(`\ndone; the sample repository stays in ${dir}`);
