/**
 * Releases (`.forge/releases/<tag>.md`, schema `RELEASE`): the tag rule,
 * the asset-name rule, loading, and the gh-shaped JSON of `release list`
 * and `release view` (spec/schema.md, release).
 */
import { readdirSync, realpathSync } from "node:fs";
import { InvalidFileError, NotFoundError, UsageError } from "../errors.js";
import { printable } from "../sanitize.js";
import { displayPath, isInside, releaseFile, releasesDir, type Store } from "../store/store.js";
import { bodyOf } from "./issue.js";
import { loadFile, type LoadedFile } from "./load.js";
import { RELEASE } from "./schema.js";

/** `release view --json` fields (gh's names that apply to a file-backed release). */
export const RELEASE_FIELDS: readonly string[] = [
  "assets",
  "author",
  "body",
  "createdAt",
  "isDraft",
  "isPrerelease",
  "name",
  "publishedAt",
  "tagName",
  "targetCommitish",
];

/** `release list --json` fields (exactly gh's). */
export const RELEASE_LIST_FIELDS: readonly string[] = [
  "createdAt",
  "isDraft",
  "isLatest",
  "isPrerelease",
  "name",
  "publishedAt",
  "tagName",
];

/** One artifact as gh shows it. */
export interface AssetJson {
  digest: string;
  name: string;
  size: number;
}

/** A release as gh's `release view --json` shows it. */
export interface ReleaseJson {
  assets: AssetJson[];
  author: { login: string };
  body: string;
  createdAt: string;
  isDraft: boolean;
  isPrerelease: boolean;
  name: string;
  publishedAt: string;
  tagName: string;
  targetCommitish: string;
}

/** A release as gh's `release list --json` shows it. */
export interface ReleaseListJson {
  createdAt: string;
  isDraft: boolean;
  isLatest: boolean;
  isPrerelease: boolean;
  name: string;
  publishedAt: string;
  tagName: string;
}

const TAG = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/;

/**
 * Whether `tag` can name a release: letters, digits, `.`, `_`, `+`, `-`,
 * starting with a letter or digit, at most 100 characters, and none of
 * git's forbidden forms (`..`, a trailing `.` or `.lock`). No `/`: the tag
 * is the file name `releases/<tag>.md`, so it must be one path segment
 * (and could otherwise land in `releases/build/`).
 * @example isReleaseTag("v1.2.0") // true
 * @example isReleaseTag("../x") // false
 */
export function isReleaseTag(tag: string): boolean {
  return TAG.test(tag) && !tag.includes("..") && !tag.endsWith(".") && !tag.endsWith(".lock");
}

/**
 * Check a tag given on the command line.
 * @throws UsageError naming it
 */
export function checkReleaseTag(tag: string): void {
  if (!isReleaseTag(tag)) {
    throw new UsageError(
      `invalid tag '${printable(tag, 60)}' (A-Z a-z 0-9 . _ + -, starting with a letter or digit; no /)`
    );
  }
}

/**
 * Whether an asset name (a path relative to `releases/out/<tag>/`, `/`
 * separated) is safe to join: no empty, `.` or `..` segment, no leading `/`,
 * no backslash, no control character.
 * @example isAssetName("linux/forge.tar.gz") // true
 */
export function isAssetName(name: string): boolean {
  if (name === "" || name.length > 1000 || /[\x00-\x1f\x7f\\]/.test(name)) return false;
  return name.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}

/**
 * The tags that have a release file, in code-unit order (`releases/*.md`;
 * folders such as `build/` and `out/`, dot files and other names skipped).
 */
export function listReleaseTags(store: Store): string[] {
  let names: string[];
  if (!checkReleasesDir(store)) return [];
  try {
    names = readdirSync(releasesDir(store));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw err;
  }
  return names
    .filter((n) => n.endsWith(".md") && isReleaseTag(n.slice(0, -3)))
    .map((n) => n.slice(0, -3))
    .sort();
}

/**
 * Read and validate `releases/<tag>.md`; its `tagName` must match the file
 * name and every asset name must be safe (`isAssetName`).
 * @throws UsageError for a bad tag; NotFoundError, InvalidFileError
 */
export async function loadRelease(store: Store, tag: string): Promise<LoadedFile> {
  checkReleaseTag(tag);
  if (!checkReleasesDir(store)) throw new NotFoundError(`no release '${tag}'`);
  const f = await loadFile(store, RELEASE, releaseFile(store, tag));
  if (f.data.tagName !== tag) throw new InvalidFileError(f.file, "does not match its file name", "tagName");
  const assets = f.data.assets as Array<Record<string, unknown>>;
  assets.forEach((a, i) => {
    if (!isAssetName(a.name as string))
      throw new InvalidFileError(f.file, "not a safe relative path", `assets[${i}].name`);
  });
  return f;
}

/** A loaded release as gh-shaped JSON (`digest` is `sha256:<hex>`, as GitHub shows it). */
export function releaseToJson(f: LoadedFile): ReleaseJson {
  const d = f.data;
  const assets = (d.assets as Array<Record<string, unknown>>).map((a) => ({
    digest: `sha256:${a.sha256 as string}`,
    name: a.name as string,
    size: a.size as number,
  }));
  return {
    assets,
    author: { login: d.author as string },
    body: bodyOf(f.body),
    createdAt: d.createdAt as string,
    isDraft: d.isDraft === true,
    isPrerelease: d.isPrerelease === true,
    name: (d.name as string | undefined) ?? "",
    publishedAt: d.createdAt as string,
    tagName: d.tagName as string,
    targetCommitish: d.commit as string,
  };
}

/** The `release list` record of a release; `isLatest` is decided by the caller (`latestRelease`). */
export function releaseListJson(r: ReleaseJson, isLatest: boolean): ReleaseListJson {
  return {
    createdAt: r.createdAt,
    isDraft: r.isDraft,
    isLatest,
    isPrerelease: r.isPrerelease,
    name: r.name,
    publishedAt: r.publishedAt,
    tagName: r.tagName,
  };
}

/**
 * Which release is gh's "Latest": the newest one marked `latest: true`
 * (`create --latest`), else the newest that is neither a draft nor a
 * prerelease.
 * @param newestFirst releases in `compareReleases` order, with their `latest` marks
 * @returns its tag, or undefined
 */
export function latestRelease(
  newestFirst: ReadonlyArray<{ tagName: string; isDraft: boolean; isPrerelease: boolean; latest?: boolean }>
): string | undefined {
  return (
    newestFirst.find((r) => r.latest === true && !r.isDraft) ?? newestFirst.find((r) => !r.isDraft && !r.isPrerelease)
  )?.tagName;
}

/** Newest first: `createdAt` descending, then tag descending (a stable total order). */
export function compareReleases(
  a: { createdAt: string; tagName: string },
  b: { createdAt: string; tagName: string }
): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.tagName < b.tagName ? 1 : a.tagName > b.tagName ? -1 : 0;
}

// --- internal ---

/**
 * `releases/` must resolve inside the store (SEC-02): reading a file checks
 * only its last component for a symlink.
 * @returns false when there is no `releases/`
 * @throws InvalidFileError when it leads out
 */
function checkReleasesDir(store: Store): boolean {
  const dir = releasesDir(store);
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw err;
  }
  if (!isInside(store, real))
    throw new InvalidFileError(displayPath(store, dir), "symlink points outside .forge/ (refused)");
  return true;
}
