import test from "ava";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readZip, ZIP_LIMITS } from "./_zip.js";
import { makeZip } from "./_zip_fixture.js";

test("readZip() reads stored and deflated entries, skipping folders", (t) => {
  const zip = makeZip([
    { name: ".forge/" },
    { name: ".forge/a.md", data: "hello\n", method: 0 },
    { name: ".forge/b/c.md", data: "x".repeat(5000) },
  ]);
  const got = readZip(zip).map((e) => [e.name, e.data.toString()]);
  t.deepEqual(got, [
    [".forge/a.md", "hello\n"],
    [".forge/b/c.md", "x".repeat(5000)],
  ]);
});

test("readZip() reads a zip made by the zip tool, when there is one", (t) => {
  let made: Buffer;
  const dir = mkdtempSync(join(tmpdir(), "forge-zip-"));
  try {
    mkdirSync(join(dir, ".forge", "issues"), { recursive: true });
    writeFileSync(join(dir, ".forge", "issues", "x.md"), "---\nx: 1\n---\n");
    execFileSync("zip", ["-qr", "s.zip", ".forge"], { cwd: dir, stdio: "ignore" });
    made = readFileSync(join(dir, "s.zip"));
  } catch {
    t.pass("no zip tool here");
    return;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  t.deepEqual(
    readZip(made).map((e) => e.name),
    [".forge/issues/x.md"]
  );
});

const HOSTILE: Array<[string, Parameters<typeof makeZip>[0], RegExp]> = [
  ["a '..' component (zip-slip)", [{ name: ".forge/../../evil", data: "x" }], /'\.\.' component/],
  ["an absolute name", [{ name: "/etc/passwd", data: "x" }], /absolute/],
  ["a backslash name", [{ name: "..\\evil", data: "x" }], /not a plain relative path/],
  ["a symlink entry", [{ name: ".forge/issues", data: "/etc", mode: 0o120777 }], /symlink/],
  ["a FIFO entry", [{ name: ".forge/fifo", data: "", mode: 0o010644 }], /not a regular file/],
  [
    "a duplicate name",
    [
      { name: "a", data: "1" },
      { name: "a", data: "2" },
    ],
    /appears twice/,
  ],
  [
    "a size lie (inflates past its declared size)",
    [{ name: "a", data: "x".repeat(1000), declaredSize: 10 }],
    /declared size/,
  ],
  ["an absurd ratio (a bomb)", [{ name: "bomb", data: Buffer.alloc(8 * 1024 * 1024) }], /ratio/],
];
for (const [what, entries, msg] of HOSTILE) {
  test(`readZip() refuses ${what} with one line`, (t) => {
    const e = t.throws(() => readZip(makeZip(entries)));
    t.regex(e!.message, msg);
    t.regex(e!.message, /^bad zip: [^\n]+$/);
  });
}

test("readZip() refuses an entry over the size cap before inflating it", (t) => {
  const zip = makeZip([{ name: "big", data: Buffer.alloc(2048, 1), method: 0 }]);
  t.throws(() => readZip(zip, { ...ZIP_LIMITS, maxEntryBytes: 1024 }), { message: /larger than/ });
});

test("readZip() refuses something that is not a zip", (t) => {
  t.throws(() => readZip(Buffer.from("not a zip at all, just text")), { message: /not a zip/ });
});

test("readZip() refuses a CRC mismatch", (t) => {
  const zip = makeZip([{ name: "a", data: "hello", method: 0 }]);
  zip[30 + 1] = "j".charCodeAt(0); // "hello" → "hjllo" in the stored data
  t.throws(() => readZip(zip), { message: /CRC/ });
});
