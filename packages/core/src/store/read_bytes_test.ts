import test from "ava";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStoreBytes, readStoreFile } from "./read_file.js";
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


test("readStoreBytes() returns the bytes exactly, even when they are not UTF-8", (t) => {
  const root = temp("forge-bytes-");
  mkdirSync(join(root, ".forge"));
  const store = storeAt(join(root, ".forge"));
  const bytes = Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a, 0x00, 0xc3]);
  writeFileSync(join(store.dir, "x.md"), bytes);
  t.deepEqual(readStoreBytes(store, join(store.dir, "x.md")), bytes);
  t.is(readStoreFile(store, join(store.dir, "x.md")), bytes.toString("utf8"));
});
