/**
 * `forge-pilot run --hosts FILE` (spec/hosts.md, spec/loop.md §8): a bad hosts file (or
 * FORGE_ACT_HOSTS) is refused before anything runs, one line naming the file, exit 2, nothing
 * written; a good one reaches every act, whose trials are then runs over the hosts (runner
 * `hosts`). The hosts here are `1/:`, GNU parallel's sshlogin for this machine (no ssh), so the
 * act really goes through parallel without root; without GNU parallel that test is skipped.
 */
import test from "ava";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { jsonl, run, sh } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** A repository whose one check fails, seen failing once in CI and exported: the pilot's first act reruns it. */
async function failingRepo(): Promise<string> {
  const w = scratch(realpathSync(mkdtempSync(join(tmpdir(), "forge-pilot-hosts-"))));
  const setup = await sh(
    [
      "git init -q -b main . && git config user.name R && git config user.email r@example.invalid",
      "forge init >/dev/null && mkdir -p .forge/ci/steps",
      "printf '#!/bin/sh\\necho boom; exit 1\\n' > .forge/ci/steps/10-unit",
      "chmod +x .forge/ci/steps/* && git add -A && git commit -qm steps",
      "forge-ci run >/dev/null 2>&1 || true",
      "forge-ci list --json | forge-export >/dev/null",
    ].join("\n"),
    { cwd: w }
  );
  if (setup.code !== 0) throw new Error(setup.stderr);
  return w;
}

/** Every file under `dir` but .git/ and the test's hosts.txt, with size and mtime: what "nothing written" is. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if ((e.name === ".git" || e.name === "hosts.txt") && d === dir) continue;
      if (e.isDirectory()) walk(p);
      const s = statSync(p);
      out.push(`${relative(dir, p)} ${e.isDirectory() ? "" : s.size} ${s.mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

test("run --hosts with a bad hosts file: one line naming the file, exit 2, nothing written", async (t) => {
  const dir = await failingRepo();
  const bad = join(dir, "hosts.txt");
  writeFileSync(bad, "# hosts\n1/build1\nnot a host; rm -rf /\n");
  const before = tree(dir);
  const r = await run("forge-pilot", ["run", "--hosts", "hosts.txt"], { cwd: dir });
  t.is(r.code, 2, r.stderr);
  t.is(r.stdout, "");
  t.is(
    r.stderr,
    `forge-pilot: --hosts: hosts file ${bad}: line 3: 'not a host; rm -rf /': expected [N/][user@]host[:port], ` +
      "e.g. 4/build1.example.org (see 'forge-pilot -h')\n"
  );
  const missing = await run("forge-pilot", ["run", "--json", "--hosts=nowhere"], { cwd: dir });
  t.is(missing.code, 2);
  t.is(
    missing.stderr,
    `forge-pilot: --hosts: hosts file ${join(dir, "nowhere")}: cannot read it (ENOENT) (see 'forge-pilot -h')\n`
  );
  // The acts' inherited default is checked the same way, relative to the workspace.
  const env = await run("forge-pilot", ["run"], { cwd: dir, env: { FORGE_ACT_HOSTS: "hosts.txt" } });
  t.is(env.code, 2);
  t.regex(env.stderr, /^forge-pilot: FORGE_ACT_HOSTS: hosts file \S+\/hosts\.txt: line 3: [^\n]*\n$/);
  writeFileSync(bad, "# no host at all\n\n");
  const empty = await run("forge-pilot", ["run", "--hosts", bad], { cwd: dir });
  t.is(empty.code, 2);
  t.is(empty.stderr, `forge-pilot: --hosts: hosts file ${bad}: no host in it (see 'forge-pilot -h')\n`);
  const plan = await run("forge-pilot", ["plan", "--hosts", bad], { cwd: dir });
  t.is(plan.code, 2);
  t.is(plan.stderr, "forge-pilot: --hosts is run's flag (the acts run over the hosts) (see 'forge-pilot -h')\n");
  const none = await run("forge-pilot", ["run", "--hosts"], { cwd: dir });
  t.is(none.code, 2);
  t.is(none.stderr, "forge-pilot: --hosts needs a value (see 'forge-pilot -h')\n");
  writeFileSync(bad, "# hosts\n1/build1\nnot a host; rm -rf /\n");
  t.deepEqual(tree(dir), before, "nothing written: no lock, no history, no run, no export");
});

test("run --hosts reaches the acts: their trials are runs over the hosts, in the report's config", async (t) => {
  if (spawnSync("parallel", ["--version"], { stdio: "ignore" }).error) {
    t.log("skipped: GNU parallel is not installed (apt-get install parallel)");
    t.pass();
    return;
  }
  const dir = await failingRepo();
  writeFileSync(join(dir, "hosts"), "# this machine, through GNU parallel\n1/:\n");
  const r = await run("forge-pilot", ["run", "--json", "--max-iterations", "1", "--hosts", "hosts"], { cwd: dir });
  t.is(r.code, 0, r.stderr);
  const rep = JSON.parse(r.stdout.trim().split("\n").pop()!) as Record<string, any>;
  t.is(rep.actions_executed, 1, r.stderr);
  t.is(rep.config.hosts, join(dir, "hosts"));
  const runs = jsonl(
    (await run("forge-ci", ["list", "--limit", "200", "--json", "id,runner,verdict"], { cwd: dir })).stdout
  );
  const remote = runs.filter((x) => x.runner === "hosts");
  t.true(remote.length >= 2, JSON.stringify(runs));
  t.true(
    remote.every((x) => x.verdict === "fail"),
    "a failing check fails on the hosts too"
  );
  t.is(runs.length, remote.length + 1, "every act's trial went over the hosts (the one local run is the setup's)");
  const host = JSON.parse(
    readFileSync(join(dir, ".forge", "ci", "runs", String(remote[0]!.id), "host.json"), "utf8")
  ) as Record<string, unknown>;
  t.is(host.host, ":");
});
