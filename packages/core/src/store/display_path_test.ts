import test from "ava";
import { join, relative } from "node:path";
import { displayPath, entityDir, entityFile, ISSUES, type Store } from "./store.js";

const store = (root: string): Store => ({ root, dir: join(root, ".forge"), real: join(root, ".forge") });

const same = test.macro((t, root: string, abs: string) => {
  t.is(displayPath(store(root), abs), relative(root, abs));
});

for (const [root, abs] of [
  ["/r", "/r/.forge/issues/0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11/issue.md"],
  ["/r", "/r"],
  ["/r", "/r/"],
  ["/r", "/r/./x"],
  ["/r", "/r//x"],
  ["/r", "/r/x/."],
  ["/r", "/r/x/.."],
  ["/r", "/r/.forge/../x"],
  ["/r", "/rx/y"],
  ["/r", "/elsewhere"],
  ["/", "/x/y"],
  ["/r", "/r/.x/..y/z..."],
] as const) {
  test(`displayPath() gives what path.relative() gives for ${JSON.stringify(abs)} under ${root}`, same, root, abs);
}

test("entityFile() and entityDir() give what path.join() gives", (t) => {
  const s = store("/r");
  const id = "0b8c2a8e-6f43-4b8a-9a55-3a4f0f7b2d11";
  t.is(entityFile(s, ISSUES, id), join("/r/.forge/issues", id, "issue.md"));
  t.is(entityFile(s, ISSUES, id, true), join("/r/.forge/archive/issues", id, "issue.md"));
  t.is(entityDir(s, ISSUES, "../x"), join("/r/.forge/issues", "../x"));
});
