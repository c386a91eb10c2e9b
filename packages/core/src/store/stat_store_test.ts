import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { entityFile, ISSUES, statStore, storeAt } from "./store.js";

test("statStore() names a store under the working folder relative to it, else as it is", (t) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "forge-stat-store-")));
  mkdirSync(join(root, ".forge"));
  const store = storeAt(join(root, ".forge"));
  const rel = statStore(store, root);
  t.is(rel.dir, ".forge");
  t.is(rel.root, store.root);
  t.is(rel.real, store.real);
  t.is(entityFile(rel, ISSUES, "a1"), [".forge", "issues", "a1", "issue.md"].join(sep));
  t.is(statStore(store, join(root, "sub")).dir, store.dir, "a folder beside it");
  t.is(statStore(store, root + "x").dir, store.dir, "a name that only starts the same");
  t.is(statStore(store, store.dir).dir, store.dir, "the store itself");
  t.is(statStore(store, join(store.dir, "issues")).dir, store.dir, "a folder inside it");
  // Resolved from the working folder, the same path as the store's own.
  t.is(resolve(root, entityFile(rel, ISSUES, "a1")), entityFile(store, ISSUES, "a1"));
});
