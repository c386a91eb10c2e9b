/**
 * Artifacts on disk: hashing a file without following a symlink, and
 * listing every regular file under a release's `OUT` folder.
 */
import { closeSync, constants, copyFileSync, fstatSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename, join, resolve, sep } from "node:path";
import { ConflictError, ForgeError, isAssetName, printable } from "@forge/core";

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

/** A file given on the command line, to be recorded as an asset. */
export interface Upload {
  /** The file, absolute. */
  path: string;
  /** Its asset name: the file's base name, as gh names an uploaded asset. */
  name: string;
}

/**
 * gh's `release create TAG FILE…` arguments: each a file, optionally
 * `FILE#label` (gh's display label, which forge does not keep: the asset is
 * named by the file's base name, as in gh). Checked before anything is built.
 * @param cwd where relative paths start
 * @throws ForgeError for a missing or non-regular file; ConflictError for two files of one name
 * @example uploadsOf("/w", ["dist/app.tgz#App"]) // [{ path: "/w/dist/app.tgz", name: "app.tgz" }]
 */
export function uploadsOf(cwd: string, args: readonly string[]): Upload[] {
  const seen = new Set<string>();
  return args.map((arg) => {
    const i = arg.indexOf("#");
    const file = i > 0 ? arg.slice(0, i) : arg;
    const path = resolve(cwd, file);
    let ok = false;
    try {
      ok = statSync(path).isFile();
    } catch {
      throw new ForgeError(`${printable(file, 80)}: no such file; no release written`, "E_NO_FILE", 1);
    }
    if (!ok) throw new ForgeError(`${printable(file, 80)}: not a regular file; no release written`, "E_NOT_FILE", 1);
    const name = basename(path);
    if (!isAssetName(name)) throw refused(name, "has an unsafe name");
    if (seen.has(name)) throw new ConflictError(`two files named '${printable(name, 80)}'; no release written`);
    seen.add(name);
    return { path, name };
  });
}

/**
 * Copy the files into `OUT` beside the build's artifacts, so they are
 * recorded (size, sha256) as the build's are.
 * @throws ConflictError when the build made an artifact of the same name
 */
export function copyUploads(out: string, uploads: readonly Upload[]): void {
  for (const u of uploads) {
    try {
      copyFileSync(u.path, join(out, u.name), constants.COPYFILE_EXCL);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      throw new ConflictError(
        `asset '${printable(u.name, 80)}' is both a file given and a build artifact; no release written`
      );
    }
  }
}
