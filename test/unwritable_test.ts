/**
 * Nothing is written that the reader would refuse (issue 11): every verb
 * that writes, given a body past the 256 KiB read limit, exits 1 with one
 * line naming the file and the field, and leaves the store as it was —
 * after which every list and view still works.
 */
import test from "ava";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, run, tempRepo } from "./lib/run.js";
import { removeScratch, scratch } from "./lib/scratch.js";

test.after.always(removeScratch);

/** Every file under .forge/ (the cache aside) with its size and mtime: what "nothing written" compares. */
function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name === ".cache") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${p.slice(dir.length)} ${statSync(p).size} ${readFileSync(p, "latin1").length}`);
    }
  };
  walk(join(dir, ".forge"));
  return out.join("\n");
}

const BIG = "x".repeat(300 * 1024);

test(
  "every writing verb refuses an oversized body with " + "one line naming file and field, and writes nothing",
  async (t) => {
    const dir = scratch(tempRepo("forge-big-"));
    writeFileSync(join(dir, "a.txt"), "1\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "init"]);
    git(dir, ["checkout", "-qb", "topic"]);
    writeFileSync(join(dir, "a.txt"), "2\n");
    git(dir, ["commit", "-qam", "change"]);
    git(dir, ["checkout", "-q", "main"]);
    for (const [cmd, args] of [
      ["forge-issue", ["create", "-t", "one"]],
      ["forge-task", ["create", "-t", "t"]],
      ["forge-pr", ["create", "-t", "p", "-H", "topic", "-B", "main"]],
    ] as const) {
      const r = await run(cmd, [...args], { cwd: dir });
      t.is(r.code, 0, r.stderr);
    }
    writeFileSync(join(dir, "big.txt"), BIG);
    const before = snapshot(dir);
    const cases: Array<[string, string[]]> = [
      ["forge-issue", ["create", "-t", "big", "-F", "big.txt"]],
      ["forge-issue", ["comment", "1", "-F", "big.txt"]],
      ["forge-issue", ["edit", "1", "-F", "big.txt"]],
      ["forge-task", ["create", "-t", "big", "-F", "big.txt"]],
      ["forge-task", ["edit", "1", "-F", "big.txt"]],
      ["forge-pr", ["comment", "1", "-F", "big.txt"]],
      ["forge-pr", ["review", "1", "--comment", "-F", "big.txt"]],
      ["forge-pr", ["edit", "1", "-F", "big.txt"]],
    ];
    for (const [cmd, args] of cases) {
      const r = await run(cmd, args, { cwd: dir });
      const what = `${cmd} ${args[0]}`;
      t.is(r.code, 1, `${what}: ${r.stderr}`);
      t.regex(
        r.stderr,
        /^forge-\w+ \w+: \.forge\/\S+\.md: field 'body': would be larger than 256 KiB; nothing written\n$/,
        what
      );
      t.is(snapshot(dir), before, `${what} wrote nothing`);
    }
    for (const [cmd, args] of [
      ["forge-issue", ["list", "-s", "all"]],
      ["forge-issue", ["view", "1"]],
      ["forge-task", ["list"]],
      ["forge-pr", ["view", "1"]],
    ] as const) {
      const r = await run(cmd, [...args], { cwd: dir });
      t.is(r.code, 0, `${cmd} ${args[0]} still reads the store: ${r.stderr}`);
    }
    t.is((await run("forge", ["fsck"], { cwd: dir })).stdout, "");
  }
);
