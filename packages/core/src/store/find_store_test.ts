import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findStore } from "./find_store.js";

function temp(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "forge-find-")));
}

test(
  "findStore() takes FORGE_DIR when it is a store: named .forge, empty, with store entries, or with forge's " +
    ".gitignore",
  (t) => {
    const root = temp();
    mkdirSync(join(root, ".forge"));
    t.is(findStore({ env: { FORGE_DIR: join(root, ".forge") } }), join(root, ".forge"));
    const empty = join(root, "new-store");
    mkdirSync(empty);
    t.is(findStore({ env: { FORGE_DIR: empty } }), empty);
    const other = join(root, "other");
    mkdirSync(join(other, "issues"), { recursive: true });
    t.is(findStore({ env: { FORGE_DIR: other } }), other);
    const ignored = join(root, "ignored");
    mkdirSync(ignored);
    writeFileSync(join(ignored, ".gitignore"), "ci/runs/\nreleases/out/\n");
    t.is(findStore({ env: { FORGE_DIR: ignored } }), ignored);
  }
);

test("findStore() refuses a FORGE_DIR that is no store, in one line, with a hint when it holds a .forge", (t) => {
  const root = temp();
  writeFileSync(join(root, "README.md"), "a repository\n");
  const e = t.throws(() => findStore({ env: { FORGE_DIR: root } }));
  t.regex(e!.message, /^FORGE_DIR .* is not a forge store \(/);
  t.false(e!.message.includes("\n"));
  mkdirSync(join(root, ".forge"));
  t.regex(t.throws(() => findStore({ env: { FORGE_DIR: root } }))!.message, /did you mean .*\/\.forge\?/);
  t.regex(t.throws(() => findStore({ env: { FORGE_DIR: join(root, "README.md") } }))!.message, /is not a folder/);
});
