import test from "ava";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectAssets, hashFile } from "./_assets.js";
import { removeTemps, tempCtx } from "@forge/cli";

test.after.always(removeTemps);

const sha = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

test("hashFile() gives the size and sha256 of a file larger than one read", (t) => {
  const { root } = tempCtx();
  const big = Buffer.alloc(3 * (1 << 20) + 7, 0x5a);
  writeFileSync(join(root, "big"), big);
  t.deepEqual(hashFile(join(root, "big")), { size: big.length, sha256: sha(big) });
});

test("hashFile() refuses to follow a symlink", (t) => {
  const { root } = tempCtx();
  writeFileSync(join(root, "f"), "x");
  symlinkSync(join(root, "f"), join(root, "l"));
  t.throws(() => hashFile(join(root, "l")), { code: "ELOOP" });
});

test("collectAssets() lists every regular file under OUT, recursively, sorted by name", (t) => {
  const { root } = tempCtx();
  const out = join(root, "out");
  mkdirSync(join(out, "linux", "x64"), { recursive: true });
  mkdirSync(join(out, "empty"));
  writeFileSync(join(out, "b.txt"), "b");
  writeFileSync(join(out, "a.txt"), "a");
  writeFileSync(join(out, "linux", "x64", "forge"), "bin");
  writeFileSync(join(out, "linux.txt"), "");
  writeFileSync(join(out, ".sig"), "s");
  t.deepEqual(collectAssets(out), [
    { name: ".sig", size: 1, sha256: sha("s") },
    { name: "a.txt", size: 1, sha256: sha("a") },
    { name: "b.txt", size: 1, sha256: sha("b") },
    { name: "linux.txt", size: 0, sha256: sha("") },
    { name: "linux/x64/forge", size: 3, sha256: sha("bin") },
  ]);
});

test("collectAssets() refuses a symlink in OUT, even one that points inside it", (t) => {
  const { root } = tempCtx();
  const out = join(root, "out");
  mkdirSync(join(out, "d"), { recursive: true });
  writeFileSync(join(out, "a"), "a");
  symlinkSync(join(out, "a"), join(out, "d", "alias"));
  t.throws(() => collectAssets(out), { message: "artifact 'd/alias' is a symlink (refused); no release written" });
});

test("collectAssets() refuses a special file (a fifo)", (t) => {
  const { root } = tempCtx();
  const out = join(root, "out");
  mkdirSync(out);
  execFileSync("mkfifo", [join(out, "p")]);
  t.throws(() => collectAssets(out), { message: "artifact 'p' is not a regular file (refused); no release written" });
});

test("collectAssets() refuses a name with a control character", (t) => {
  const { root } = tempCtx();
  const out = join(root, "out");
  mkdirSync(out);
  writeFileSync(join(out, "a\nb"), "x");
  t.throws(() => collectAssets(out), { message: "artifact 'a?b' has an unsafe name (refused); no release written" });
});
