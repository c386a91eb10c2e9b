import test from "ava";
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { BIN, run, sh, tempRepo } from "./lib/run.js";

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

test("FORGE_JSON=array: `--json` lists print one array, so gh's `jq '.[]'` works; `-` takes it back", async (t) => {
  const cwd = tempRepo();
  await run("forge-issue", ["create", "-t", "first", "-l", "bug"], { cwd });
  await run("forge-issue", ["create", "-t", "second"], { cwd });
  const env = { FORGE_JSON: "array" };
  const l = await run("forge-issue", ["list", "--json", "number,title"], { cwd, env });
  t.is(l.code, 0);
  const arr = JSON.parse(l.stdout) as Array<{ number: number; title: string }>;
  t.deepEqual(arr.map((i) => i.title).sort(), ["first", "second"]);
  t.is(l.stdout.split("\n").length, 2); // one line: the array, as gh prints off a TTY
  const piped = await sh("forge-issue list --json number,title | jq -r '.[] | .title' | sort", { cwd, env });
  t.is(piped.stdout, "first\nsecond\n");
  // Empty lists are `[]`, a view stays one object, --jq is unchanged.
  const none = await run("forge-issue", ["list", "--label", "nope", "--json", "number"], { cwd, env });
  t.is(none.stdout, "[]\n");
  const v = await run("forge-issue", ["view", "1", "--json", "title"], { cwd, env });
  t.is(v.stdout, '{"title":"first"}\n');
  const q = await run("forge-issue", ["list", "--json", "title", "--jq", "length"], { cwd, env });
  t.is(q.stdout, "2\n");
  // `-` on stdin takes the array as it takes JSON lines.
  const closed = await sh("forge-issue list --label bug --json number | forge-issue close -", { cwd, env });
  t.is(closed.code, 0, closed.stderr);
  const st = await run("forge-issue", ["view", "1", "--json", "state"], { cwd });
  t.is(st.stdout, '{"state":"CLOSED"}\n');
  // Unset (the default) stays JSON lines; a bad mode is a usage error.
  const lines = await run("forge-issue", ["list", "--state", "all", "--json", "number"], { cwd });
  t.is(lines.stdout.trim().split("\n").length, 2);
  const bad = await run("forge-issue", ["list", "--json", "number"], { cwd, env: { FORGE_JSON: "yes" } });
  t.is(bad.code, 2);
  t.is(bad.stdout, "");
  t.regex(bad.stderr, /^forge-issue list: FORGE_JSON: unknown mode 'yes'; expected lines or array \(see /);
});
