import test from "ava";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeAt } from "@forge/core";
import { cacheRoot, cacheUse, checkCache, pruneCaches, restoreCache, saveCache } from "./cache.js";
import { posture } from "./posture.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A store with an install step and ci.env, and a tree (`dir`) with a lockfile. */
function setup(env = "cache=node_modules\ncache_step=05-install\n") {
  const root = mkdtempSync(join(tmpdir(), "forge-cache-"));
  made.push(root);
  const steps = join(root, ".forge", "ci", "steps");
  mkdirSync(steps, { recursive: true });
  for (const s of ["05-install", "10-test"]) {
    writeFileSync(join(steps, s), "#!/bin/sh\n");
    chmodSync(join(steps, s), 0o755);
  }
  writeFileSync(join(root, ".forge", "ci", "ci.env"), env);
  const store = storeAt(join(root, ".forge"));
  const p = posture(store, steps, ".forge/ci/steps", false);
  const tree = (lock: string): string => {
    const dir = mkdtempSync(join(root, "tree-"));
    writeFileSync(join(dir, "package-lock.json"), lock);
    return dir;
  };
  return { root, store, p, tree };
}

test("the key follows the tree's lockfile; without cache= there is none", (t) => {
  const { store, p, tree } = setup();
  const a = cacheUse(store, p, tree("v1"))!;
  t.regex(a.key, /^[0-9a-f]{64}$/);
  t.is(cacheUse(store, p, tree("v1"))!.key, a.key);
  t.not(cacheUse(store, p, tree("v2"))!.key, a.key, "a changed lockfile is its own key");
  t.is(a.entry, join(cacheRoot(store), a.key));
  const none = setup("CI=1\n");
  t.is(cacheUse(none.store, none.p, none.tree("v1")), undefined);
});

test("checkCache names ci.env and the field", (t) => {
  const a = setup("cache=node_modules\n");
  t.throws(() => checkCache(a.store, a.p), { message: /ci\.env: field 'cache_step': missing/ });
  const b = setup("cache=node_modules\ncache_step=07-gone\n");
  t.throws(() => checkCache(b.store, b.p), {
    message: /field 'cache_step': no step '07-gone' \(have: 05-install 10-test\)/,
  });
  const c = setup("cache_step=05-install\n");
  t.throws(() => checkCache(c.store, c.p), { message: /field 'cache': missing/ });
  t.notThrows(() => checkCache(setup().store, setup().p));
});

test("save, then restore elsewhere: a copy, not a link, modes kept; a miss when the folder is there", async (t) => {
  const { store, p, tree } = setup();
  const one = tree("v1");
  mkdirSync(join(one, "node_modules", "a", ".bin"), { recursive: true });
  writeFileSync(join(one, "node_modules", "a", "index.js"), "x");
  writeFileSync(join(one, "node_modules", "a", ".bin", "run"), "#!/bin/sh\n");
  chmodSync(join(one, "node_modules", "a", ".bin", "run"), 0o755);
  const use = cacheUse(store, p, one)!;
  t.true(await saveCache(store, use, one, 4));
  t.false(await saveCache(store, use, one, 4), "an entry already there is kept");
  t.is(readFileSync(join(cacheRoot(store), ".gitignore"), "utf8"), "*\n");
  const two = tree("v1");
  t.true(await restoreCache(cacheUse(store, p, two)!, two));
  t.true(lstatSync(join(two, "node_modules")).isDirectory());
  t.is(readFileSync(join(two, "node_modules", "a", "index.js"), "utf8"), "x");
  t.is(lstatSync(join(two, "node_modules", "a", ".bin", "run")).mode & 0o777, 0o755);
  t.is(lstatSync(join(two, "node_modules", "a", "index.js")).nlink, 1, "not a hard link into the cache");
  writeFileSync(join(two, "node_modules", "a", "index.js"), "changed by a step");
  t.is(readFileSync(join(use.entry, "tree", "node_modules", "a", "index.js"), "utf8"), "x", "the cache unchanged");
  t.false(await restoreCache(cacheUse(store, p, two)!, two), "the folder is there: a miss, nothing overwritten");
  const other = tree("v2");
  t.false(await restoreCache(cacheUse(store, p, other)!, other), "another lockfile: a miss");
});

test("a tree whose path to the cached folder is a symlink is a miss, and never saved from", async (t) => {
  const { root, store, p, tree } = setup("cache=deps/node_modules\ncache_step=05-install\n");
  const outside = mkdtempSync(join(root, "outside-"));
  const one = tree("v1");
  mkdirSync(join(one, "deps", "node_modules"), { recursive: true });
  writeFileSync(join(one, "deps", "node_modules", "x"), "x");
  t.true(await saveCache(store, cacheUse(store, p, one)!, one, 4));
  const hostile = tree("v1");
  symlinkSync(outside, join(hostile, "deps"));
  t.false(await restoreCache(cacheUse(store, p, hostile)!, hostile));
  t.deepEqual(readdirSync(outside), [], "nothing written outside the tree");
});

test("pruneCaches keeps the newest entries by last use", (t) => {
  const { store } = setup();
  const root = cacheRoot(store);
  const keys = ["a", "b", "c"].map((c) => c.repeat(64));
  keys.forEach((k, i) => {
    mkdirSync(join(root, k, "tree"), { recursive: true });
    utimesSync(join(root, k), 1000 + i, 1000 + i);
  });
  t.deepEqual(pruneCaches(store, 2), [keys[0]]);
  t.false(existsSync(join(root, keys[0]!)));
  t.true(existsSync(join(root, keys[2]!)));
});
