import test from "ava";
import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { releaseOutRoot, storeAt } from "@forge/core";
import { pruneReleaseOut } from "./_retention.js";

function store(keep?: number) {
  const dir = join(mkdtempSync(join(tmpdir(), "forge-relkeep-")), ".forge");
  mkdirSync(join(dir, "ci"), { recursive: true });
  if (keep !== undefined) writeFileSync(join(dir, "ci", "ci.env"), `keep_runs=${keep}\n`);
  return storeAt(dir);
}

test("pruneReleaseOut() keeps the newest keep_runs output folders and removes the older ones", (t) => {
  const s = store(2);
  const root = releaseOutRoot(s);
  ["v1", "v2", "v3", "v4"].forEach((tag, i) => {
    mkdirSync(join(root, tag), { recursive: true });
    writeFileSync(join(root, tag, "a.tgz"), tag);
    const at = new Date(Date.now() - (10 - i) * 60_000);
    utimesSync(join(root, tag), at, at);
  });
  t.deepEqual(pruneReleaseOut(s).sort(), ["v1", "v2"]);
  t.deepEqual(readdirSync(root).sort(), ["v3", "v4"]);
  t.deepEqual(pruneReleaseOut(s), [], "nothing more to prune");
});

test("pruneReleaseOut() defaults to 200 without ci.env and does nothing without releases/out/", (t) => {
  const s = store();
  t.deepEqual(pruneReleaseOut(s), []);
  mkdirSync(join(releaseOutRoot(s), "v1"), { recursive: true });
  t.deepEqual(pruneReleaseOut(s), []);
  t.deepEqual(pruneReleaseOut(s, 0), ["v1"]);
});
