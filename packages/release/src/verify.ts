import { displayPath, gitTopLevel, isInside, releaseOutDir, type LoadedFile } from "@forge/core";
import { defineCommand, useColor, type Ctx, type Parsed } from "@forge/cli";
import { checkAssets, checkIdentity, type RecordedAsset } from "./_identity.js";
import { Releases } from "./_shared.js";

/** Options of `forge-release verify`. */
export interface VerifyReleaseOptions {
  tag: string;
}

/** A release that passed `verify`. */
export interface VerifiedRelease {
  file: LoadedFile;
  /** The repository's top level. */
  top: string;
  /** `releases/out/<tag>/`, absolute. */
  out: string;
  /** How messages show `out`. */
  shown: string;
  count: number;
}

/**
 * Check a release's identity, then its artifacts: the file's own digest
 * (not edited), its tag still on its commit, that commit's tree, then every
 * recorded artifact's size and sha256 under `releases/out/<tag>/`, in
 * release order (extra files are ignored).
 * @throws ForgeError (E_VERIFY) naming the first thing that differs
 */
export async function verifyRelease(ctx: Ctx, opts: VerifyReleaseOptions): Promise<VerifiedRelease> {
  const releases = new Releases(ctx.io);
  const file = await releases.load(ctx, opts.tag);
  const env = ctx.io.env as NodeJS.ProcessEnv;
  const top = await gitTopLevel(releases.store.root, env, "a release is bound to a tag");
  await checkIdentity(file, top, env);
  const out = releaseOutDir(releases.store, opts.tag);
  const shown = displayPath(releases.store, out) + "/";
  const assets = file.data.assets as RecordedAsset[];
  checkAssets(opts.tag, assets, out, shown, { test: (real) => isInside(releases.store, real), name: ".forge/" });
  return { file, top, out, shown, count: assets.length };
}

export default defineCommand({
  meta: {
    name: "verify",
    description: "Check a release's digest, tag, tree and every artifact's sha256",
    help: {
      reads: [
        [".forge/releases/<tag>.md", "its digest, commit, tree and artifacts"],
        ["refs/tags/<tag>", "must still point at the release's commit"],
        [".forge/releases/out/<tag>/", "the artifacts, hashed again"],
      ],
      examples: [
        "forge-release verify v1.2.0",
        "forge-release list --jq '.[].tagName' | xargs -n1 forge-release verify",
      ],
      notes: [
        "Exit 1 with one line naming the first thing that differs: the file edited (digest), the tag moved, the " +
          "tree, an artifact missing or changed.",
      ],
    },
  },
  args: {
    tag: { type: "positional", required: true, valueHint: "tag", description: "the release's tag" },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const { count, shown } = await verifyRelease(ctx, { tag: args.tag as string });
    const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
    ctx.io.stderr.write(
      `${tick}${args.tag as string}: digest, tag and tree match; ${count} asset${count === 1 ? "" : "s"} match ` +
        `${shown}\n`
    );
  },
});
