import test from "ava";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mkdirInside } from "./mkdir_inside.js";
import { storeAt } from "./store.js";

const temps: string[] = [];
/** A new temp folder, removed when the file's tests are done. */
function temp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  temps.push(d);
  return d;
}
test.after.always(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

function tempStore() {
  const root = realpathSync(temp("forge-mkdir-"));
  mkdirSync(join(root, ".forge"));
  return { root, store: storeAt(join(root, ".forge")) };
}

test("mkdirInside() makes missing folders and returns the realpath", (t) => {
  const { store } = tempStore();
  const dir = join(store.dir, "wiki", "a", "b");
  t.is(mkdirInside(store, dir), join(store.real, "wiki", "a", "b"));
  t.true(existsSync(dir));
});

test("mkdirInside() refuses a symlink that leaves .forge/ and creates nothing beyond it", (t) => {
  const { root, store } = tempStore();
  const outside = join(root, "outside");
  mkdirSync(outside);
  symlinkSync(outside, join(store.dir, "wiki"));
  t.throws(() => mkdirInside(store, join(store.dir, "wiki", "x")), {
    message: ".forge/wiki: symlink points outside .forge/ (refused)",
  });
  t.false(existsSync(join(outside, "x")));
});

test("mkdirInside() follows a symlink that stays inside, but not out of `within`", (t) => {
  const { store } = tempStore();
  mkdirSync(join(store.dir, "wiki", "real"), { recursive: true });
  mkdirSync(join(store.dir, "issues"));
  symlinkSync(join(store.dir, "wiki", "real"), join(store.dir, "wiki", "alias"));
  symlinkSync(join(store.dir, "issues"), join(store.dir, "wiki", "sneaky"));
  const wiki = realpathSync(join(store.dir, "wiki"));
  t.is(mkdirInside(store, join(store.dir, "wiki", "alias", "n"), wiki), join(wiki, "real", "n"));
  t.throws(() => mkdirInside(store, join(store.dir, "wiki", "sneaky", "n"), wiki), {
    message: /resolves outside its folder/,
  });
});

test("mkdirInside() refuses a file in the way and a path outside the store", (t) => {
  const { root, store } = tempStore();
  writeFileSync(join(store.dir, "wiki"), "");
  t.throws(() => mkdirInside(store, join(store.dir, "wiki", "x")), { message: ".forge/wiki: not a folder" });
  t.throws(() => mkdirInside(store, join(root, "elsewhere")), { message: /not under \.forge/ });
});
