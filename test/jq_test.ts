import test from "ava";
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { BIN, run, tempRepo } from "./lib/run.js";

test("--jq without jq on PATH is a one-line error, exit 1, and never a home-made jq", (t) => {
  const cwd = tempRepo();
  execFileSync(join(BIN, "forge-issue"), ["create", "-t", "x"], { cwd, env: { ...process.env, FORGE_AUTHOR: "a" } });
  const r = spawnSync(process.execPath, [join(BIN, "forge-issue"), "list", "--jq", ".[].title"], {
    cwd,
    encoding: "utf8",
    env: { PATH: "/nonexistent", FORGE_AUTHOR: "a" },
  });
  t.is(r.status, 1);
  t.is(r.stdout, "");
  t.is(r.stderr, "forge-issue list: --jq needs jq on PATH\n");
});

test("--jq hands jq an array for list and an object for view, and prints strings raw", async (t) => {
  const cwd = tempRepo();
  await run("forge-issue", ["create", "-t", "first"], { cwd });
  await run("forge-issue", ["create", "-t", "second"], { cwd });
  // Both may share a createdAt second, so compare without relying on their order.
  const l = await run("forge-issue", ["list", "--json", "number,title", "--jq", 'map(.title) | sort | join(",")'], {
    cwd,
  });
  t.is(l.stdout, "first,second\n");
  const one = await run(
    "forge-issue",
    ["list", "--json", "number,title", "--jq", ".[] | select(.number == 1) | .title"],
    { cwd }
  );
  const v = await run("forge-issue", ["view", "1", "--jq", ".title"], { cwd });
  t.is(v.stdout, one.stdout);
  t.regex(v.stdout, /^(first|second)\n$/);
  const bad = await run("forge-issue", ["list", "--jq", ".[] |||"], { cwd });
  t.is(bad.code, 1);
  t.is(bad.stderr.split("\n").length, 2);
  t.regex(bad.stderr, /^forge-issue list: jq: /);
});
