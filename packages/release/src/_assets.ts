/**
 * Artifacts on disk: hashing a file without following a symlink, and
 * listing every regular file under a release's `OUT` folder.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { createHash } from "node:crypto";
import { sep } from "node:path";
import { ForgeError, isAssetName, printable } from "@forge/core";

/** One artifact as the release file records it. */
export interface Asset {
  name: string;
  size: number;
  sha256: string;
}

/**
 * The size and sha256 of a regular file, read in 1 MiB chunks. The last
 * component is opened with O_NOFOLLOW, so a symlink is refused, not read.
 * @throws the open error (ENOENT, ELOOP for a symlink); ForgeError for a non-regular file
 */
export function hashFile(abs: string): { size: number; sha256: string } {
  const fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    if (!fstatSync(fd).isFile()) throw new ForgeError("not a regular file", "E_NOT_FILE", 1);
    const h = createHash("sha256");
    const buf = Buffer.allocUnsafe(1 << 20);
    let size = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
      size += n;
    }
    return { size, sha256: h.digest("hex") };
  } finally {
    closeSync(fd);
  }
}

/**
 * Every regular file under `out`, recursively, sorted by name (code
 * units), with its size and sha256. Names are `/`-separated paths relative
 * to `out`.
 * @throws ForgeError for a symlink, a special file or an unsafe name (nothing is recorded then)
 */
export function collectAssets(out: string): Asset[] {
  const assets: Asset[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const name = prefix + e.name;
      const abs = dir + sep + e.name;
      if (!isAssetName(name)) throw refused(name, "has an unsafe name");
      if (e.isSymbolicLink()) throw refused(name, "is a symlink");
      if (e.isDirectory()) walk(abs, name + "/");
      else if (e.isFile()) assets.push({ name, ...hashFile(abs) });
      else throw refused(name, "is not a regular file");
    }
  };
  walk(out, "");
  return assets.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function refused(name: string, why: string): ForgeError {
  return new ForgeError(`artifact '${printable(name, 80)}' ${why} (refused); no release written`, "E_BAD_ARTIFACT", 1);
}
