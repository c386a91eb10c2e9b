
import { realpathSync } from "node:fs";
import { dirname, sep } from "node:path";
import { displayPath, ForgeError, isInside, releaseOutDir } from "@forge/core";
import { defineCommand, useColor, type Ctx, type Parsed } from "@forge/cli";
import { hashFile, printable } from "./_assets.js";
import { Releases } from "./_shared.js";

/** Options of `forge-release verify`. */
export interface VerifyReleaseOptions {
  tag: string;
}

/**
 * Recompute every recorded asset's size and sha256 from
 * `releases/out/<tag>/`, in the order the release lists them.
 * @returns how many assets matched (all of them)
 * @throws ForgeError (E_VERIFY) naming the first asset that is missing or does not match
 */
export async function verifyRelease(ctx: Ctx, opts: VerifyReleaseOptions): Promise<{ count: number; out: string }> {
  const releases = new Releases(ctx.io);
  const rel = await releases.get(ctx, opts.tag);
  const out = releaseOutDir(releases.store, opts.tag);
  const shown = displayPath(releases.store, out) + "/";
  const fail = (name: string, why: string): ForgeError => new ForgeError(`${opts.tag}: asset '${printable(name)}' ${why}`, "E_VERIFY", 1);
  let outReal: string | undefined;
  for (const a of rel.assets) {
    const abs = out + sep + a.name;
    let got: { size: number; sha256: string };
    try {
      if (outReal === undefined) {
        outReal = realpathSync(out);
        if (!isInside(releases.store, outReal)) throw new ForgeError(`${shown} leads outside .forge/ (a symlink; refused)`, "E_VERIFY", 1);
      }
      // Names have no `..` (loadRelease checks), so only a symlinked folder could lead out.
      const dir = realpathSync(dirname(abs));
      if (dir !== outReal && !dir.startsWith(outReal + sep)) throw fail(a.name, `is outside ${shown} (a symlinked folder; refused)`);
      got = hashFile(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") throw fail(a.name, `is missing from ${shown}`);
      if (code === "ELOOP") throw fail(a.name, "is a symlink (refused)");
      if (code === "E_NOT_FILE") throw fail(a.name, "is not a regular file");
      throw err;
    }
    const want = a.digest.slice("sha256:".length);
    if (got.size !== a.size) throw fail(a.name, `does not match: ${got.size} bytes, recorded ${a.size}`);
    if (got.sha256 !== want) throw fail(a.name, `does not match: sha256 ${got.sha256.slice(0, 12)}…, recorded ${want.slice(0, 12)}…`);
  }
  return { count: rel.assets.length, out: shown };
}

export default defineCommand({
  meta: { name: "verify", description: "Recompute every asset's sha256 from releases/out/<tag>/" },
  args: {
    tag: { type: "positional", required: true, valueHint: "tag" },
  },
  async run({ args, data: ctx }: { args: Parsed; data: Ctx }) {
    const { count, out } = await verifyRelease(ctx, { tag: args.tag as string });
    const tick = useColor(ctx.io) ? "\x1b[32m✓\x1b[0m " : "";
    ctx.io.stderr.write(`${tick}${args.tag as string}: ${count} asset${count === 1 ? "" : "s"} match ${out}\n`);
  },
});
