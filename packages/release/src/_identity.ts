/**
 * Release identity: what a release file binds (tag, commit, the commit's
 * tree, every artifact's size and sha256) and its own digest over all of
 * it, and the checks `verify` and `activate` make against git and the
 * artifacts on disk. Each check names what differs.
 */
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { dirname, sep } from "node:path";
import { ForgeError, git, printable, type LoadedFile } from "@forge/core";
import { canonicalJson } from "@forge/kernel";
import { hashFile } from "./_assets.js";

/** A recorded artifact, as the release file holds it. */
export interface RecordedAsset {
  name: string;
  size: number;
  sha256: string;
}

/**
 * The digest a release file records of itself: sha256 of the canonical JSON
 * (keys sorted, no spaces) of every frontmatter field but `digest`, unknown
 * fields included, plus the body as stored.
 * @example identityDigest({ tagName: "v1", commit: "…" }, "") // "3f…" (64 hex digits)
 */
export function identityDigest(fields: Record<string, unknown>, body: string): string {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (k !== "digest" && v !== undefined) rest[k] = v;
  // Through JSON first: a non-finite number (YAML's .inf in an unknown field) is null, as it always was in this digest.
  return createHash("sha256")
    .update(canonicalJson(JSON.parse(JSON.stringify({ body, fields: rest }))))
    .digest("hex");
}

/** The fields of a loaded release, known and unknown, for its digest. */
export function fieldsOf(f: LoadedFile): Record<string, unknown> {
  return { ...f.extra, ...f.data };
}

/** The commit and tree a tag resolves to in the repository at `top`, or undefined for a missing tag. */
export async function tagTarget(
  top: string,
  tag: string,
  env: NodeJS.ProcessEnv
): Promise<{ commit: string; tree: string } | undefined> {
  const c = await git(["rev-parse", "-q", "--verify", "--end-of-options", `refs/tags/${tag}^{commit}`], {
    cwd: top,
    env,
  });
  if (c.code !== 0) return undefined;
  const commit = c.stdout.trim();
  return { commit, tree: await treeOf(top, commit, env) };
}

/** The tree id of `commit`. */
export async function treeOf(top: string, commit: string, env: NodeJS.ProcessEnv): Promise<string> {
  const t = await git(["rev-parse", "-q", "--verify", "--end-of-options", `${commit}^{tree}`], { cwd: top, env });
  if (t.code !== 0) throw new ForgeError(`commit ${commit.slice(0, 12)} is not in this repository`, "E_VERIFY", 1);
  return t.stdout.trim();
}

/**
 * Check a release file against itself and git: its digest, then that its
 * tag still points at its commit and that commit has its tree.
 * @throws ForgeError (E_VERIFY) naming the first thing that differs
 */
export async function checkIdentity(f: LoadedFile, top: string, env: NodeJS.ProcessEnv): Promise<void> {
  const tag = f.data.tagName as string;
  const fail = (why: string): ForgeError => new ForgeError(`${tag}: ${why}`, "E_VERIFY", 1);
  const recorded = f.data.digest as string | undefined;
  if (recorded === undefined)
    throw fail(`${f.file} has no digest (not bound to its identity; made before forge-release recorded one?)`);
  const got = identityDigest(fieldsOf(f), f.body);
  if (got !== recorded)
    throw fail(`${f.file} was edited: its digest is ${got.slice(0, 12)}…, recorded ${recorded.slice(0, 12)}…`);
  const tree = f.data.tree as string | undefined;
  if (tree === undefined) throw fail(`${f.file} has no tree`);
  const commit = f.data.commit as string;
  const at = await tagTarget(top, tag, env);
  if (at === undefined) throw fail(`tag ${tag} is missing (the release records commit ${commit.slice(0, 12)})`);
  if (at.commit !== commit)
    throw fail(`tag ${tag} moved: it points at ${at.commit.slice(0, 12)}, the release records ${commit.slice(0, 12)}`);
  if (at.tree !== tree)
    throw fail(
      `commit ${commit.slice(0, 12)} has tree ${at.tree.slice(0, 12)}, the release records ${tree.slice(0, 12)}`
    );
}

/**
 * Recompute every recorded artifact's size and sha256 under `dir`, in
 * release order; extra files are ignored.
 * @param shown `dir` as messages show it
 * @param within where `dir` must really be: a test of a real path, and its name for messages (a symlinked folder must
 * not lead out)
 * @throws ForgeError (E_VERIFY) naming the first artifact that is missing or differs
 */
export function checkAssets(
  tag: string,
  assets: readonly RecordedAsset[],
  dir: string,
  shown: string,
  within: { test: (real: string) => boolean; name: string }
): void {
  const fail = (name: string, why: string): ForgeError =>
    new ForgeError(`${tag}: asset '${printable(name, 80)}' ${why}`, "E_VERIFY", 1);
  let dirReal: string | undefined;
  for (const a of assets) {
    const abs = dir + sep + a.name;
    let got: { size: number; sha256: string };
    try {
      if (dirReal === undefined) {
        dirReal = realpathSync(dir);
        if (!within.test(dirReal))
          throw new ForgeError(`${tag}: ${shown} leads outside ${within.name} (a symlink; refused)`, "E_VERIFY", 1);
      }
      // Names have no `..` (loadRelease checks), so only a symlinked folder could lead out.
      const parent = realpathSync(dirname(abs));
      if (parent !== dirReal && !parent.startsWith(dirReal + sep))
        throw fail(a.name, `is outside ${shown} (a symlinked folder; refused)`);
      got = hashFile(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") throw fail(a.name, `is missing from ${shown}`);
      if (code === "ELOOP") throw fail(a.name, "is a symlink (refused)");
      if (code === "E_NOT_FILE") throw fail(a.name, "is not a regular file");
      throw err;
    }
    if (got.size !== a.size) throw fail(a.name, `does not match: ${got.size} bytes, recorded ${a.size}`);
    if (got.sha256 !== a.sha256)
      throw fail(a.name, `does not match: sha256 ${got.sha256.slice(0, 12)}…, recorded ${a.sha256.slice(0, 12)}…`);
  }
}
