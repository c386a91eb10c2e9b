import test from "ava";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readForeign } from "./_foreign.js";
import { makeZip } from "./_zip_fixture.js";

const made: string[] = [];
test.after.always(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function temp(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "forge-foreign-unit-")));
  made.push(d);
  return d;
}

function zipFile(entries: Parameters<typeof makeZip>[0]): string {
  const p = join(temp(), "s.zip");
  writeFileSync(p, makeZip(entries));
  return p;
}

test("readForeign() finds the shallowest .forge/ in a zipped repository, never a look-alike folder", (t) => {
  const f = readForeign(
    zipFile([
      { name: "repo/wiki/not-the-store.md", data: "x" },
      { name: "repo/.forge/labels.md", data: "l" },
      { name: "repo/vendor/lib/.forge/labels.md", data: "deeper" },
      { name: "repo/x.forge/labels.md", data: "look-alike" },
    ])
  );
  t.deepEqual(
    [...f.files.entries()].map(([k, v]) => [k, v.toString()]),
    [["labels.md", "l"]]
  );
  t.is(f.label, "s.zip");
});

test("readForeign() reads a zip of a store's own contents, skipping machine state and temp files", (t) => {
  const f = readForeign(
    zipFile([
      { name: "labels.md", data: "l" },
      { name: "ci/runs/x/summary.md", data: "s" },
      { name: "releases/out/v1/a", data: "a" },
      { name: ".cache/issues.order", data: "o" },
      { name: "pilot/h", data: "h" },
      { name: "issues/.x.md.1.tmp", data: "t" },
    ])
  );
  t.deepEqual([...f.files.keys()], ["labels.md"]);
});

test("readForeign() refuses a zip with no store in it", (t) => {
  t.throws(() => readForeign(zipFile([{ name: "src/x.ts", data: "x" }])), {
    message: "the zip holds no .forge/ store",
  });
});

test("readForeign() takes a folder holding .forge/, or the .forge/ itself, and refuses a symlinked .forge", (t) => {
  const d = temp();
  mkdirSync(join(d, "clone", ".forge", "issues"), { recursive: true });
  writeFileSync(join(d, "clone", ".forge", "labels.md"), "l");
  t.deepEqual([...readForeign(join(d, "clone")).files.keys()], ["labels.md"]);
  t.deepEqual([...readForeign(join(d, "clone", ".forge")).files.keys()], ["labels.md"]);
  mkdirSync(join(d, "link"));
  symlinkSync(join(d, "clone", ".forge"), join(d, "link", ".forge"));
  t.throws(() => readForeign(join(d, "link")), { message: /symlink \(refused\)/ });
});
